/** Data access for the waitlist (migrations/038): its entries, and the offers held as bookings. */
import { sql, type Kysely } from 'kysely';
import type { Database, WaitlistEntry } from './database.ts';

type Db = Kysely<Database>;

export interface NewWaitlistEntry {
  date: string;
  part: string;
  request: Record<string, unknown>;
  email: string;
  endsAt: Date;
}

export async function insertWaitlistEntry(db: Db, entry: NewWaitlistEntry): Promise<WaitlistEntry> {
  return db
    .insertInto('waitlist_entries')
    .values({ date: entry.date, part: entry.part, request: JSON.stringify(entry.request), email: entry.email, ends_at: entry.endsAt })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The address's open entries (waiting, or with a place held), by its canonical form: the dates. */
export async function openEntryDates(db: Db, email: string): Promise<string[]> {
  const rows = await db
    .selectFrom('waitlist_entries')
    .select('date')
    .where(sql<boolean>`email_canonical = canonical_email(${email})`)
    .where('status', 'in', ['waiting', 'offered'])
    .execute();
  return rows.map((row) => row.date);
}

/** A date's entries still waiting at `now`, in order of joining. */
export async function waitingEntries(db: Db, date: string, now: Date): Promise<WaitlistEntry[]> {
  return db
    .selectFrom('waitlist_entries')
    .selectAll()
    .where('date', '=', date)
    .where('status', '=', 'waiting')
    .where('ends_at', '>', now)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The dates that have an entry waiting at `now` (from `from` on, when given). */
export async function datesWithWaiting(db: Db, now: Date, from?: string): Promise<string[]> {
  let query = db.selectFrom('waitlist_entries').select('date').distinct().where('status', '=', 'waiting').where('ends_at', '>', now);
  if (from) query = query.where('date', '>=', from);
  return (await query.orderBy('date').execute()).map((row) => row.date);
}

export async function findWaitlistEntry(db: Db, id: string): Promise<WaitlistEntry | undefined> {
  return db.selectFrom('waitlist_entries').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function entryOfBooking(db: Db, bookingId: string): Promise<WaitlistEntry | undefined> {
  return db.selectFrom('waitlist_entries').selectAll().where('booking_id', '=', bookingId).executeTakeFirst();
}

/** Moves an entry from one state to another (compare-and-set on the state): the row, or undefined when it was not in `from`. */
export async function setEntryStatus(
  db: Db,
  id: string,
  from: string,
  to: string,
  extra: { bookingId?: string; offeredBy?: string | null } = {},
): Promise<WaitlistEntry | undefined> {
  return db
    .updateTable('waitlist_entries')
    .set({
      status: to,
      updated_at: new Date(),
      ...(extra.bookingId === undefined ? {} : { booking_id: extra.bookingId }),
      ...(extra.offeredBy === undefined ? {} : { offered_by: extra.offeredBy }),
    })
    .where('id', '=', id)
    .where('status', '=', from)
    .returningAll()
    .executeTakeFirst();
}

/** The entry of an offer's booking moves from one state to another (compare-and-set): whether it did. */
export async function setEntryStatusOfBooking(db: Db, bookingId: string, from: string, to: string): Promise<boolean> {
  const result = await db
    .updateTable('waitlist_entries')
    .set({ status: to, updated_at: new Date() })
    .where('booking_id', '=', bookingId)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A customer who booked a date another way leaves its waitlist: their entries for it still waiting. */
export async function leaveOnBooking(db: Db, email: string, date: string): Promise<number> {
  if (email.trim() === '') return 0;
  const result = await db
    .updateTable('waitlist_entries')
    .set({ status: 'left', updated_at: new Date() })
    .where(sql<boolean>`email_canonical = canonical_email(${email})`)
    .where('date', '=', date)
    .where('status', '=', 'waiting')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Entries whose date has passed at `now` stop waiting. */
export async function endPastEntries(db: Db, now: Date): Promise<number> {
  const result = await db
    .updateTable('waitlist_entries')
    .set({ status: 'ended', updated_at: now })
    .where('status', '=', 'waiting')
    .where('ends_at', '<=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Offers unconfirmed at `now` lapse, in one statement: each booking cancelled (its place freed)
 * with a line in its history, and its entry marked lapsed. The dates whose places were freed.
 */
export async function lapseOffers(db: Db, now: Date, actor: string, note: string): Promise<string[]> {
  const result = await sql<{ date: string }>`
    WITH lapsed AS (
      UPDATE bookings SET status = 'cancelled', version = version + 1
      WHERE status = 'offered' AND offer_expires_at <= ${now}
      RETURNING id, "date"
    ), history AS (
      INSERT INTO booking_status_changes (booking_id, from_status, to_status, changed_by, changed_at, note)
      SELECT id, 'offered', 'cancelled', ${actor}, ${now}, ${note} FROM lapsed
    ), entries AS (
      UPDATE waitlist_entries SET status = 'lapsed', updated_at = ${now}
      WHERE status = 'offered' AND booking_id IN (SELECT id FROM lapsed)
    )
    SELECT DISTINCT to_char("date", 'YYYY-MM-DD') AS "date" FROM lapsed`.execute(db);
  return result.rows.map((row) => row.date);
}

/** Staff's view of a date's waitlist: every entry, in order of joining, with the offer's reference and hold when there is one. */
export async function entriesOn(db: Db, date: string) {
  return db
    .selectFrom('waitlist_entries as w')
    .leftJoin('bookings as b', 'b.id', 'w.booking_id')
    .select(['w.id', 'w.date', 'w.part', 'w.request', 'w.email', 'w.status', 'w.created_at', 'w.offered_by', 'b.reference', 'b.time', 'b.offer_expires_at'])
    .where('w.date', '=', date)
    .orderBy('w.created_at')
    .orderBy('w.id')
    .execute();
}
