/**
 * Data access for the staff's day and week of the schedule (GET /v1/schedule and
 * /v1/schedule/week): the jobs each van or bay holds, the closures of the days, the jobs that
 * hold none, and each resource's booked time per day.
 */
import { sql, type Kysely } from 'kysely';
import type { Booking, Closure, Database } from './database.ts';
import { PLACE_HOLDING_STATUSES } from './availability.repository.ts';

type Db = Kysely<Database>;

/** Place-holding jobs of one date that hold a van or bay, in schedule order. */
export async function assignedJobsOn(db: Db, date: string): Promise<Booking[]> {
  return db
    .selectFrom('bookings')
    .selectAll()
    .where('date', '=', date)
    .where('resource_id', 'is not', null)
    .where('status', 'in', [...PLACE_HOLDING_STATUSES])
    .orderBy('starts_at')
    .orderBy('id')
    .execute();
}

/**
 * Place-holding jobs from `fromDate` on that hold no van or bay ("Needs a van or bay"): the old
 * hourly rule's overbookings, left by the migration for staff. Soonest first, at most `limit`.
 */
export async function unassignedJobsFrom(db: Db, fromDate: string, limit: number): Promise<Booking[]> {
  return db
    .selectFrom('bookings')
    .selectAll()
    .where('resource_id', 'is', null)
    .where('status', 'in', [...PLACE_HOLDING_STATUSES])
    .where('date', '>=', fromDate)
    .orderBy('starts_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The closures of one date: whole dates first, then by the hour they start. */
export async function closuresOfDate(db: Db, date: string): Promise<Closure[]> {
  return db
    .selectFrom('closures')
    .selectAll()
    .where('date', '=', date)
    .orderBy(sql`from_time nulls first`)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export interface BookedTime {
  resource_id: string;
  date: string;
  jobs: number;
  /** The work itself, start to end (the travel buffer apart). */
  booked_minutes: number;
  buffer_minutes: number;
}

/** Each resource's place-holding jobs and booked minutes per date, from `from` to `to` (inclusive). */
export async function bookedTimeBetween(db: Db, from: string, to: string): Promise<BookedTime[]> {
  const rows = await db
    .selectFrom('bookings')
    .select([
      'resource_id',
      'date',
      sql<string>`count(*)`.as('jobs'),
      sql<string>`coalesce(sum(extract(epoch from (ends_at - starts_at)) / 60), 0)`.as('booked_minutes'),
      sql<string>`coalesce(sum(buffer_minutes), 0)`.as('buffer_minutes'),
    ])
    .where('date', '>=', from)
    .where('date', '<=', to)
    .where('resource_id', 'is not', null)
    .where('status', 'in', [...PLACE_HOLDING_STATUSES])
    .groupBy(['resource_id', 'date'])
    .execute();
  return rows.map((row) => ({
    resource_id: row.resource_id!,
    date: row.date,
    jobs: Number(row.jobs),
    booked_minutes: Math.round(Number(row.booked_minutes)),
    buffer_minutes: Number(row.buffer_minutes),
  }));
}

/** Jobs holding no van or bay per date, from `from` to `to`. */
export async function unassignedCountBetween(db: Db, from: string, to: string): Promise<{ date: string; jobs: number }[]> {
  const rows = await db
    .selectFrom('bookings')
    .select(['date', sql<string>`count(*)`.as('jobs')])
    .where('date', '>=', from)
    .where('date', '<=', to)
    .where('resource_id', 'is', null)
    .where('status', 'in', [...PLACE_HOLDING_STATUSES])
    .groupBy('date')
    .execute();
  return rows.map((row) => ({ date: row.date, jobs: Number(row.jobs) }));
}
