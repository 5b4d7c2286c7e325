/**
 * Data access for "Find my booking" (issue 22): an address's upcoming bookings, and the e-mails
 * of that kind already sent to it (the per-address cap is counted in the outbox, so every
 * instance sees the same count).
 */
import { sql, type Kysely } from 'kysely';
import type { Booking, Database } from './database.ts';

type Db = Kysely<Database>;

/**
 * Serialises the requests for one address (trimmed, any case) until the end of the transaction,
 * so that two sent at once cannot both find the cap not yet reached.
 */
export async function lockLinksAddress(trx: Db, address: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`booking-links:${address}`}, 0))`.execute(trx);
}

/**
 * The address's bookings that are not cancelled and have not started by `now`, soonest first (at
 * most `limit`): the ones whose manage page still opens. `address` is already trimmed and
 * lower-cased: the condition is bookings_uncancelled_email_idx's expression and predicate, so it
 * is one index probe.
 */
export async function upcomingBookingsOf(db: Db, address: string, now: Date, limit: number): Promise<Booking[]> {
  return db
    .selectFrom('bookings')
    .selectAll()
    .where(sql`lower(email)`, '=', address)
    .where('status', '<>', sql.lit('cancelled'))
    .where('starts_at', '>', now)
    .orderBy('starts_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * How many e-mails of `kind` were queued for the address (any case) in the last 24 hours, by the
 * database's clock, which wrote created_at: a range of outbox_emails_created_at_idx.
 */
export async function emailsToAddressInLastDay(db: Db, kind: string, address: string): Promise<number> {
  const row = await db
    .selectFrom('outbox_emails')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('created_at', '>', sql<Date>`now() - interval '24 hours'`)
    .where('kind', '=', kind)
    .where(sql`lower(to_address)`, '=', address)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
