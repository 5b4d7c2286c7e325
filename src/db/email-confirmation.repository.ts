/** Data access for BOOKING_CONFIRMATION=email (migrations/017): the customer's confirmation and the lapse. */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from './database.ts';

/** Who a lapse is recorded as, in the history staff read. */
export const LAPSE_ACTOR = 'Not confirmed by e-mail';
const LAPSE_NOTE = 'Lapsed: the customer did not confirm it from the e-mail in time';

/** The bookings whose wait has ended at `now` (on `date` only, when given): a probe of bookings_awaiting_email_idx. */
const lapsing = (now: Date, date?: string) =>
  sql`awaiting_email_until IS NOT NULL AND awaiting_email_until <= ${now} AND status = 'pending' ${date === undefined ? sql`` : sql`AND date = ${date}`}`;

/** Whether lapseUnconfirmed(now, date) would lapse any booking, as a column of a caller's statement (one round trip for both). */
export function anyToLapse(now: Date, date: string): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from bookings where ${lapsing(now, date)})`;
}

/**
 * Cancels every booking whose wait has ended at `now` (on `date` only, when given), recording each
 * in its history, in one statement: the ids of those lapsed.
 */
export async function lapseUnconfirmed(db: Kysely<Database>, now: Date, date?: string): Promise<string[]> {
  const result = await sql<{ booking_id: string }>`
    WITH lapsed AS (
      UPDATE bookings SET status = 'cancelled', lapsed_at = ${now}, version = version + 1
      WHERE ${lapsing(now, date)}
      RETURNING id
    )
    INSERT INTO booking_status_changes (booking_id, from_status, to_status, changed_by, changed_at, note)
    SELECT id, 'pending', 'cancelled', ${LAPSE_ACTOR}, ${now}, ${LAPSE_NOTE} FROM lapsed
    RETURNING booking_id`.execute(db);
  return result.rows.map((row) => row.booking_id);
}

/** The customer's confirmation: the wait ends (compare-and-set on the version they saw). */
export async function confirmEmailIfVersion(db: Kysely<Database>, id: string, version: number, now: Date) {
  return db
    .updateTable('bookings')
    .set((eb) => ({ awaiting_email_until: null, version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .where('version', '=', version)
    .where('awaiting_email_until', 'is not', null)
    .where('awaiting_email_until', '>', now)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
}
