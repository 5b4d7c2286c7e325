/** Data access for closures: dates or single slots staff have closed, with a reason. */
import { sql, type Kysely } from 'kysely';
import type { Booking, Closure, Database, NewClosure } from './database.ts';

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

/** The closures of one date: the whole date's (time null) and its slots'. */
export async function closuresOn(db: Db, date: string): Promise<Closure[]> {
  return db.selectFrom('closures').selectAll().where('date', '=', date).execute();
}

/** Closures from `from` to `to` (inclusive) in schedule order, each with the bookings still holding places in it. */
export async function closuresBetween(db: Db, from: string, to: string): Promise<ClosureWithBookings[]> {
  return db
    .selectFrom('closures as c')
    .selectAll('c')
    .select(
      sql<number>`(select count(*) from bookings b where b."date" = c."date" and (c."time" is null or b."time" = c."time") and b.status <> 'cancelled')`.as(
        'active_bookings',
      ),
    )
    .where('c.date', '>=', from)
    .where('c.date', '<=', to)
    .orderBy('c.date')
    .orderBy(sql`c."time" nulls first`)
    .execute();
}

export async function deleteClosure(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('closures').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Bookings holding places on a date (in one slot, or in any when `time` is null), in schedule order. */
export async function bookingsHoldingPlaces(db: Db, date: string, time: string | null): Promise<Booking[]> {
  let query = db.selectFrom('bookings').selectAll().where('date', '=', date).where('status', '<>', 'cancelled');
  if (time !== null) query = query.where('time', '=', time);
  return query.orderBy('time').orderBy('id').execute();
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
    .where('status', '<>', 'cancelled')
    .where(sql<boolean>`extract(isodow from "date")::int in (${sql.join(isoWeekdays)})`)
    .orderBy('date')
    .orderBy('time')
    .orderBy('id')
    .limit(limit)
    .execute();
}
