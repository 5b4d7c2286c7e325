/** Data access for bookings: plain functions over a Kysely instance or transaction. */
import { sql, type Kysely } from 'kysely';
import type { Booking, Database, NewBooking } from './database.ts';

type Db = Kysely<Database>;

export async function insertBooking(db: Db, booking: NewBooking): Promise<Booking> {
  return db.insertInto('bookings').values(booking).returningAll().executeTakeFirstOrThrow();
}

/** Serialises writers of one appointment slot until the end of the transaction. */
export async function lockSlot(trx: Db, date: string, time: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`slot:${date} ${time}`}, 0))`.execute(trx);
}

/** Bookings holding the slot: every booking that is not cancelled. */
export async function countActiveInSlot(db: Db, date: string, time: string): Promise<number> {
  const row = await db
    .selectFrom('bookings')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('date', '=', date)
    .where('time', '=', time)
    .where('status', '<>', 'cancelled')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Every booking, newest first. */
export async function listAllBookings(db: Db): Promise<Booking[]> {
  return db.selectFrom('bookings').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}
