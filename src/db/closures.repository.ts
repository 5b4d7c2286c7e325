/** Data access for closures: dates or ranges of hours staff have closed (for a kind or one resource), with a reason. */
import { sql, type Kysely } from 'kysely';
import type { Booking, Closure, Database, NewClosure } from './database.ts';
import { PLACE_HOLDING_STATUSES } from './availability.repository.ts';

type Db = Kysely<Database>;

export type ClosureWithBookings = Closure & { active_bookings: number };

/** Stores the closure unless the same date and slot (or the whole date) is closed already. */
export async function insertClosureIfAbsent(db: Db, closure: NewClosure): Promise<Closure | undefined> {
  return db
    .insertInto('closures')
    .values(closure)
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** The closures of one date. */
export async function closuresOn(db: Db, date: string): Promise<Closure[]> {
  return db.selectFrom('closures').selectAll().where('date', '=', date).execute();
}

/**
 * Place-holding bookings a closure's interval and scope reach: of both kinds, of one kind, or of
 * one resource (the SQL twin of the rule in src/domain/scheduling.ts).
 */
function reachedBy(c: { kind: string | null; resource_id: string | null }, booking = sql.ref('b')) {
  if (c.resource_id !== null) return sql<boolean>`${booking}.resource_id = ${c.resource_id}::uuid`;
  if (c.kind !== null) return sql<boolean>`${booking}.service_type = ${c.kind}`;
  return sql<boolean>`true`;
}

/** Closures from `from` to `to` (inclusive) in schedule order, each with the bookings still holding places in it. */
export async function closuresBetween(db: Db, from: string, to: string): Promise<ClosureWithBookings[]> {
  return db
    .selectFrom('closures as c')
    .selectAll('c')
    .select(
      sql<number>`(select count(*) from bookings b
         where b.held && c.during and b.status in ('offered', 'pending', 'confirmed', 'completed', 'no-show')
           and (case when c.resource_id is not null then b.resource_id = c.resource_id
                     when c.kind is not null then b.service_type = c.kind else true end))`.as('active_bookings'),
    )
    .where('c.date', '>=', from)
    .where('c.date', '<=', to)
    .orderBy('c.date')
    .orderBy(sql`c.from_time nulls first`)
    .orderBy('c.created_at')
    .execute();
}

/** Deletes a closure: its date, or undefined when there was none. */
export async function deleteClosure(db: Db, id: string): Promise<string | undefined> {
  const deleted = await db.deleteFrom('closures').where('id', '=', id).returning('date').executeTakeFirst();
  return deleted?.date;
}

/** Bookings holding places in a closure's interval and scope, in schedule order. */
export async function bookingsHoldingPlaces(db: Db, closure: Pick<Closure, 'starts_at' | 'ends_at' | 'kind' | 'resource_id'>): Promise<Booking[]> {
  return db
    .selectFrom('bookings as b')
    .selectAll('b')
    .where(sql<boolean>`b.held && tstzrange(${closure.starts_at}, ${closure.ends_at}, '[)')`)
    .where('b.status', 'in', [...PLACE_HOLDING_STATUSES])
    .where(reachedBy(closure))
    .orderBy('b.starts_at')
    .orderBy('b.id')
    .execute();
}

/**
 * Bookings holding places on the given ISO weekdays (1 = Monday … 7 = Sunday) from `from` on,
 * in schedule order, at most `limit`.
 */
export async function bookingsOnWeekdays(db: Db, from: string, isoWeekdays: readonly number[], limit: number): Promise<Booking[]> {
  if (isoWeekdays.length === 0) return [];
  return db
    .selectFrom('bookings')
    .selectAll()
    .where('date', '>=', from)
    .where('status', 'in', [...PLACE_HOLDING_STATUSES])
    .where(sql<boolean>`extract(isodow from "date")::int in (${sql.join(isoWeekdays)})`)
    .orderBy('date')
    .orderBy('time')
    .orderBy('id')
    .limit(limit)
    .execute();
}
