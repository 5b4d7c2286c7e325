/** Data access for the e-mail outbox (migrations/009_outbox.sql). */
import { sql, type Kysely } from 'kysely';
import type { Database, NewOutboxEmail, OutboxEmail } from './database.ts';

/** Queues e-mails (in the caller's transaction). Nothing is read back: the bodies stay where they are. */
export async function insertOutboxEmails(db: Kysely<Database>, emails: NewOutboxEmail[]): Promise<void> {
  if (emails.length === 0) return;
  await db.insertInto('outbox_emails').values(emails).execute();
}

/**
 * Claims up to `limit` due rows for one sender: in one statement (its own short transaction) the
 * rows are picked FOR UPDATE SKIP LOCKED, their attempt counted and their next_attempt_at moved
 * to the end of a lease. Another sender skips the rows this one has locked, and once this
 * statement commits they are no longer due (the lock re-checks the condition on the new row), so
 * no two senders hold one row. A sender that dies mid-send leaves the row to be claimed again
 * when the lease ends.
 */
export async function claimDueEmails(db: Kysely<Database>, now: Date, leaseMs: number, limit: number): Promise<OutboxEmail[]> {
  const leaseUntil = new Date(now.getTime() + leaseMs);
  const result = await sql<OutboxEmail>`
    UPDATE outbox_emails SET attempts = attempts + 1, next_attempt_at = ${leaseUntil}
    WHERE id IN (
      SELECT id FROM outbox_emails
      WHERE status = 'queued' AND next_attempt_at <= ${now}
      ORDER BY next_attempt_at
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING *`.execute(db);
  return result.rows;
}

/**
 * The outcome of a claimed attempt. Written only while the row is still the one claimed (same
 * attempt count, still queued), so a sender whose lease ran out cannot overwrite a later one.
 * `composed`: the bodies to keep, written with the outcome in place of any snapshot: those the
 * sender composed from the row's snapshot (with their manage-link slots, migrations/023), or a
 * delivered staff invitation's with its link masked.
 */
export async function finishAttempt(
  db: Kysely<Database>,
  claimed: Pick<OutboxEmail, 'id' | 'attempts'>,
  outcome:
    | { status: 'sent'; at: Date }
    | { status: 'retry'; at: Date; error: string }
    | { status: 'failed' | 'skipped' | 'unsent'; error: string },
  composed?: { text_body: string; html_body: string; ics: string | null },
): Promise<boolean> {
  const base = db
    .updateTable('outbox_emails')
    .where('id', '=', claimed.id)
    .where('attempts', '=', claimed.attempts)
    .where('status', '=', 'queued')
    .set(composed ? { ...composed, snapshot: null } : {});
  const update =
    outcome.status === 'sent'
      ? base.set({ status: 'sent', sent_at: outcome.at, last_error: null })
      : outcome.status === 'retry'
        ? base.set({ next_attempt_at: outcome.at, last_error: outcome.error })
        : base.set({ status: outcome.status, last_error: outcome.error });
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Queues a booking's review request unless it ever had one (the unique partial index of
 * migrations/016 decides, so two completions at once cannot both queue one). True when queued.
 */
export async function insertReviewRequestOnce(db: Kysely<Database>, email: NewOutboxEmail): Promise<boolean> {
  const inserted = await db
    .insertInto('outbox_emails')
    .values({ ...email, kind: 'review-request' })
    // The index's predicate as a literal: a prepared statement's generic plan cannot match the
    // partial index to a parameter (src/db/prepared-statements.ts), and would refuse the insert.
    .onConflict((oc) => oc.column('booking_id').where('kind', '=', sql.lit('review-request')).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** The e-mails due before an appointment, dropped with it: the reminder, and a plan's "keep, move or skip" (issue 43). */
const REMINDER_KINDS = ['booking-reminder', 'plan-visit-check'];

/**
 * Queues e-mails and, in the same statement, drops the booking's queued reminders (a cancelled,
 * moved or retimed booking): a data-modifying WITH, whose UPDATE sees the table as it was before
 * the statement, so a reminder queued here is not among those dropped.
 */
export async function insertOutboxEmailsSkippingReminders(db: Kysely<Database>, emails: NewOutboxEmail[], skip: { bookingId: string; reason: string }): Promise<void> {
  if (emails.length === 0) {
    await skipQueuedReminders(db, skip.bookingId, skip.reason);
    return;
  }
  await db
    .with('skipped', (qc) =>
      qc
        .updateTable('outbox_emails')
        .set({ status: 'skipped', last_error: skip.reason })
        .where('booking_id', '=', skip.bookingId)
        .where('kind', 'in', REMINDER_KINDS)
        .where('status', '=', 'queued'),
    )
    .insertInto('outbox_emails')
    .values(emails)
    .execute();
}

/** Queued reminders of a booking are dropped when it is cancelled or moved (a moved one gets a new one). */
export async function skipQueuedReminders(db: Kysely<Database>, bookingId: string, reason: string): Promise<number> {
  const result = await db
    .updateTable('outbox_emails')
    .set({ status: 'skipped', last_error: reason })
    .where('booking_id', '=', bookingId)
    .where('kind', 'in', REMINDER_KINDS)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** True when the booking has a reminder waiting or already sent. */
export async function hasLiveReminder(db: Kysely<Database>, bookingId: string): Promise<boolean> {
  const row = await db
    .selectFrom('outbox_emails')
    .select('id')
    .where('booking_id', '=', bookingId)
    .where('kind', '=', 'booking-reminder')
    .where('status', 'in', ['queued', 'sent', 'unsent'])
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Compare-and-set: a failed or unsent e-mail goes back to the queue once, however many clicks. */
export async function requeueEmail(db: Kysely<Database>, id: string, now: Date): Promise<OutboxEmail | undefined> {
  return db
    .updateTable('outbox_emails')
    .set({ status: 'queued', attempts: 0, next_attempt_at: now, last_error: null })
    .where('id', '=', id)
    .where('status', 'in', ['failed', 'unsent'])
    .returningAll()
    .executeTakeFirst();
}

/** What a list of e-mails shows of each: everything but the bodies and the invitation. */
const SUMMARY_COLUMNS = [
  'e.id',
  'e.kind',
  'e.booking_id',
  'e.contact_message_id',
  'e.to_name',
  'e.to_address',
  'e.subject',
  'e.status',
  'e.attempts',
  'e.last_error',
  'e.next_attempt_at',
  'e.sent_at',
  'e.created_at',
] as const;

export type OutboxEmailSummary = Pick<
  OutboxEmail,
  'id' | 'kind' | 'booking_id' | 'contact_message_id' | 'to_name' | 'to_address' | 'subject' | 'status' | 'attempts' | 'last_error' | 'next_attempt_at' | 'sent_at' | 'created_at'
> & { booking_reference: string | null };

export type OutboxListRow = OutboxEmailSummary & { created_at_exact: string };

/** One page of e-mails, newest first (keyset paging), optionally those of one booking. */
export async function listOutboxEmails(
  db: Kysely<Database>,
  options: { bookingId?: string; limit: number; cursor?: { createdAt: string; id: string } },
): Promise<OutboxListRow[]> {
  let query = db
    .selectFrom('outbox_emails as e')
    .leftJoin('bookings as b', 'b.id', 'e.booking_id')
    .select(SUMMARY_COLUMNS)
    .select(sql<string>`e.created_at::text`.as('created_at_exact'))
    .select('b.reference as booking_reference');
  if (options.bookingId) query = query.where('e.booking_id', '=', options.bookingId);
  if (options.cursor) query = query.where(sql<boolean>`(e.created_at, e.id) < (${options.cursor.createdAt}::timestamptz, ${options.cursor.id}::uuid)`);
  return query.orderBy('e.created_at', 'desc').orderBy('e.id', 'desc').limit(options.limit + 1).execute();
}

export async function findOutboxEmail(db: Kysely<Database>, id: string): Promise<(OutboxEmail & { booking_reference: string | null }) | undefined> {
  return db
    .selectFrom('outbox_emails as e')
    .leftJoin('bookings as b', 'b.id', 'e.booking_id')
    .selectAll('e')
    .select('b.reference as booking_reference')
    .where('e.id', '=', id)
    .executeTakeFirst();
}
