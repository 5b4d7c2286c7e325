/**
 * What a change to a booking sends by e-mail (issue 11). Called inside the transaction that makes
 * the change, so that the booking and the e-mails it causes are written together or not at all:
 * the e-mails are composed now (as the booking is in this transaction) and kept in the outbox,
 * which the mailer plugin sends.
 *
 * This is the contract between the booking engine, the staff tools and the manage page (callers)
 * and the outbox (src/mail).
 */
import type { Kysely } from 'kysely';
import type { Booking, BookingFieldChange, ContactMessage, Database, NewOutboxEmail } from '../db/database.ts';
import { findBooking } from '../db/bookings.repository.ts';
import { hasLiveReminder, insertOutboxEmails, skipQueuedReminders } from '../db/outbox.repository.ts';
import { manageLinkSlotFor } from '../db/manage-link.repository.ts';
import { appointmentTimes } from './booking-facts.ts';
import { bookingInvitation } from './invitation.ts';
import type { MailContext } from './mail-context.ts';
import { renderText, type MessageContent } from './message.ts';
import { renderHtml } from './MessageHtml.tsx';
import { bookingChangedMessage, customerMessage, staffBookingMessage, staffContactMessage, type CustomerMessageKind } from './templates.ts';

export type BookingMailEvent = (
  | { type: 'created' }
  | { type: 'confirmed' | 'cancelled' | 'completed'; by: 'staff' | 'customer' }
  | { type: 'moved'; by: 'staff' | 'customer'; from: { date: string; time: string } }
  /**
   * A staff edit (issue 21): "Your booking has changed" with what changed and the updated
   * invitation when `notify`; the reminder queued again when its time or address changed.
   */
  | { type: 'changed'; changes: readonly BookingFieldChange[]; notify: boolean; retimeReminder: boolean }
  /** A weather day (issue 21): the apology with the manage link to choose a new time; no invitation (nothing moved yet). */
  | { type: 'weather' }
) & {
  bookingId: string;
  /** The booking as this transaction just wrote it, when the caller has it (saves a read). */
  booking?: Booking;
};

export type EmailKind = CustomerMessageKind | 'staff-new-booking' | 'staff-contact-message' | 'booking-links' | 'booking-receipt' | 'review-request' | 'booking-on-the-way' | 'staff-invitation';

export interface Composed {
  kind: EmailKind;
  to: { name: string; address: string };
  replyTo?: { name: string; address: string };
  content: MessageContent;
  subject: string;
  ics?: { method: 'REQUEST' | 'CANCEL'; text: string };
  /** When it is due (a reminder later; everything else at once). */
  dueAt?: Date;
}

export function outboxRow(message: Composed, links: { bookingId?: string; contactMessageId?: string }, now: Date): NewOutboxEmail {
  return {
    kind: message.kind,
    booking_id: links.bookingId ?? null,
    contact_message_id: links.contactMessageId ?? null,
    to_name: message.to.name,
    to_address: message.to.address,
    reply_to_name: message.replyTo?.name ?? null,
    reply_to_address: message.replyTo?.address ?? null,
    subject: message.subject,
    text_body: renderText(message.content),
    html_body: renderHtml(message.content),
    ics: message.ics?.text ?? null,
    ics_method: message.ics?.method ?? null,
    next_attempt_at: message.dueAt ?? now,
  };
}

/**
 * The reminder, due `reminderHoursBefore` the appointment; none when that moment has passed
 * already (a booking made inside the window: its confirmation serves).
 */
function reminder(booking: Booking, context: MailContext, manageLink: string | undefined): Composed | undefined {
  const dueAt = new Date(appointmentTimes(booking).start.getTime() - context.reminderHoursBefore * 3_600_000);
  if (dueAt.getTime() <= context.now().getTime()) return undefined;
  return { ...customerMessage('booking-reminder', booking, context, manageLink), dueAt };
}

function customer(kind: CustomerMessageKind, booking: Booking, context: MailContext, manageLink: string | undefined, method?: 'REQUEST' | 'CANCEL'): Composed {
  return {
    ...customerMessage(kind, booking, context, manageLink),
    ...(method ? { ics: { method, text: bookingInvitation(booking, context, method, manageLink) } } : {}),
  };
}

function composeFor(event: BookingMailEvent, booking: Booking, context: MailContext, manageLink: string | undefined, needsReminder: boolean): Composed[] {
  switch (event.type) {
    case 'created':
      // A booking taken by staff (issue 21) is confirmed at once, and staff need no notification of their own booking.
      return [
        customer(booking.status === 'confirmed' ? 'booking-confirmed' : 'booking-created', booking, context, manageLink, 'REQUEST'),
        booking.source === 'staff' ? undefined : staffBookingMessage(booking, context),
        reminder(booking, context, manageLink),
      ].filter((m): m is Composed => m !== undefined);
    case 'confirmed':
      // A booking cancelled and then reopened lost its reminder; confirming it gives it one again.
      // The invitation again, now STATUS:CONFIRMED: the same UID and a higher SEQUENCE update the
      // tentative entry the customer's calendar holds (or put it back after a cancellation).
      return [customer('booking-confirmed', booking, context, manageLink, 'REQUEST'), needsReminder ? reminder(booking, context, manageLink) : undefined].filter(
        (m): m is Composed => m !== undefined,
      );
    case 'cancelled':
      return [customer(event.by === 'customer' ? 'booking-cancelled-by-customer' : 'booking-cancelled', booking, context, undefined, 'CANCEL')];
    case 'moved':
      return [customer('booking-moved', booking, context, manageLink, 'REQUEST'), reminder(booking, context, manageLink)].filter(
        (m): m is Composed => m !== undefined,
      );
    case 'changed':
      return [
        event.notify
          ? { ...bookingChangedMessage(booking, context, manageLink, event.changes), ics: { method: 'REQUEST' as const, text: bookingInvitation(booking, context, 'REQUEST', manageLink) } }
          : undefined,
        event.retimeReminder ? reminder(booking, context, manageLink) : undefined,
      ].filter((m): m is Composed => m !== undefined);
    case 'weather':
      return [customer('booking-weather', booking, context, manageLink)];
    case 'completed':
      return [];
  }
}

export async function queueBookingMail(trx: Kysely<Database>, event: BookingMailEvent, context: MailContext): Promise<void> {
  const booking = event.booking ?? (await findBooking(trx, event.bookingId));
  if (!booking) throw new Error(`queueBookingMail: no booking ${event.bookingId}`);
  if (event.type === 'cancelled') await skipQueuedReminders(trx, booking.id, 'The booking was cancelled');
  if (event.type === 'moved') await skipQueuedReminders(trx, booking.id, 'The booking was moved; a new reminder was queued');
  if (event.type === 'changed' && event.retimeReminder) await skipQueuedReminders(trx, booking.id, 'The booking was changed; a new reminder was queued');
  // A booking without an e-mail address (taken by staff for a customer who has none, issue 21):
  // nothing to send, and the staff notification is only for online bookings, which always have one.
  if (booking.email.trim() === '') return;
  const manageLink = event.type === 'cancelled' || event.type === 'completed' ? undefined : await manageLinkSlotFor(trx, booking, context.origin, context.manageKey);
  const now = context.now();
  const needsReminder = event.type === 'confirmed' && !(await hasLiveReminder(trx, booking.id));
  const rows = composeFor(event, booking, context, manageLink, needsReminder).map((m) => outboxRow(m, { bookingId: booking.id }, now));
  await insertOutboxEmails(trx, rows);
  if (rows.length > 0) context.onQueued?.();
}

/** The staff notification of a contact-form message, with Reply-To the sender. */
export async function queueContactMail(trx: Kysely<Database>, message: ContactMessage, context: MailContext): Promise<void> {
  await insertOutboxEmails(trx, [outboxRow(staffContactMessage(message, context), { contactMessageId: message.id }, context.now())]);
  context.onQueued?.();
}

/** One message about a booking, composed by the caller, queued in its transaction (issue 21: "On the way"). */
export async function queueBookingMessage(trx: Kysely<Database>, bookingId: string, message: Composed, context: MailContext): Promise<void> {
  await insertOutboxEmails(trx, [outboxRow(message, { bookingId }, context.now())]);
  context.onQueued?.();
}
