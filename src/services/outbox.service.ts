/** What staff do with the e-mail outbox: list it (newest first, paged), read one, resend a failed one. */
import type { Kysely } from 'kysely';
import type { Database, OutboxEmail } from '../db/database.ts';
import { findOutboxEmail, listOutboxEmails, requeueEmail, type OutboxEmailSummary } from '../db/outbox.repository.ts';
import { conflict, notFound } from '../errors.ts';
import { composeQueued, type ComposedBodies } from '../mail/booking-mail.ts';
import type { MailContext } from '../mail/mail-context.ts';
import { withMaskedManageLinks } from '../mail/manage-slots.ts';
import { maskInvitationLinks } from '../mail/staff-invitation.ts';
import { decodeCursorObject, encodeCursor, invalidCursor, isTimestampText, isUuid } from './paging-cursor.ts';

export type OutboxEmailWithReference = Omit<OutboxEmail, keyof ComposedBodies> & ComposedBodies & { booking_reference: string | null };

export interface OutboxPage {
  emails: OutboxEmailSummary[];
  nextCursor: string | null;
}

function decode(value: string): { createdAt: string; id: string } {
  const parsed = decodeCursorObject(value);
  if (!isTimestampText(parsed.createdAt) || !isUuid(parsed.id)) throw invalidCursor();
  return { createdAt: parsed.createdAt, id: parsed.id };
}

export async function outboxPage(db: Kysely<Database>, options: { bookingId?: string; limit: number; cursor?: string }): Promise<OutboxPage> {
  const rows = await listOutboxEmails(db, { bookingId: options.bookingId, limit: options.limit, cursor: options.cursor ? decode(options.cursor) : undefined });
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    emails: page.map(({ created_at_exact: _exact, ...email }) => email),
    nextCursor: rows.length > options.limit && last ? encodeCursor({ createdAt: last.created_at_exact, id: last.id }) : null,
  };
}

export async function outboxEmail(db: Kysely<Database>, id: string, context: MailContext): Promise<OutboxEmailWithReference> {
  const email = await findOutboxEmail(db, id);
  if (!email) throw notFound('No such e-mail');
  // Staff read the e-mail as stored, or as it will be sent when it still waits to be composed from
  // its snapshot (issue 24; composed for this answer, not stored): the customer's manage link
  // masked (issue 23), a staff invitation's link too (issue 22).
  const masked = withMaskedManageLinks(composeQueued(email, context));
  return { ...masked, text_body: maskInvitationLinks(masked.text_body), html_body: maskInvitationLinks(masked.html_body) };
}

/** A failed (or unsent) e-mail goes back to the queue once: a second click gets 409. */
export async function resendEmail(db: Kysely<Database>, id: string, now: Date, context: MailContext): Promise<OutboxEmailWithReference> {
  const requeued = await requeueEmail(db, id, now);
  if (!requeued) {
    const current = await outboxEmail(db, id, context);
    throw conflict(`This e-mail is ${current.status}; only a failed or unsent e-mail can be sent again`, [
      { field: 'status', message: `This e-mail is ${current.status}` },
    ]);
  }
  return outboxEmail(db, id, context);
}
