/**
 * What a change to a booking sends by e-mail (issue 11). Called inside the transaction that makes
 * the change, so that the booking and the e-mails it causes are written together or not at all.
 * That transaction holds the booking's locks, so nothing is composed there (issue 24): it decides
 * which e-mails the change sends (their kind, recipient, subject, invitation method and due time)
 * and queues each with a snapshot of what composing it needs, the booking as this transaction
 * wrote it, when the event happened, its manage-link slot and what changed. The sender composes
 * the text, HTML and invitation from the snapshot when it sends the e-mail (composeQueued), so
 * that an e-mail shows the booking as it was when the event happened, and an e-mail committed is
 * never lost, whatever happens to the process after the commit.
 *
 * This is the contract between the booking engine, the staff tools and the manage page (callers)
 * and the outbox (src/mail).
 */
import type { Kysely } from 'kysely';
import { withJob } from '../db/booking-input.ts';
import type { Booking, BookingFieldChange, BookingPayment, ContactMessage, Database, NewOutboxEmail, OutboxEmail, OutboxSnapshotJson, PlanMailFacts } from '../db/database.ts';
import { planMessageContent } from './plan-templates.ts';
import { findBooking } from '../db/bookings.repository.ts';
import { hasLiveReminder, insertOutboxEmails, insertOutboxEmailsSkippingReminders } from '../db/outbox.repository.ts';
import { manageLinkSlotFor } from '../db/manage-link.repository.ts';
import { appointmentTimes } from './booking-facts.ts';
import { bookingInvitation } from './invitation.ts';
import type { MailContext } from './mail-context.ts';
import { onTheWayMessage } from './on-the-way.ts';
import { receiptMessage, receiptOf, reviewRequestMessage } from './receipt.ts';
import { renderText, type MessageContent } from './message.ts';
import { renderHtml } from './MessageHtml.tsx';
import { outboxRow, type Composed } from './composed.ts';
import { queueBookingWebhook } from '../webhooks/queue.ts';
import { bookingChangedMessage, bookingSubject, customerMessage, staffBookingMessage, staffContactMessage, type CustomerMessageKind } from './templates.ts';

export type BookingMailEvent = (
  /** `webhooks` false: the booking's facts found no endpoint receiving booking.created, so none is looked for again. */
  | { type: 'created'; webhooks?: boolean }
  | { type: 'confirmed' | 'cancelled' | 'completed'; by: 'staff' | 'customer' }
  | { type: 'moved'; by: 'staff' | 'customer'; from: { date: string; time: string } }
  /**
   * A staff edit (issue 21): "Your booking has changed" with what changed and the updated
   * invitation when `notify`; the reminder queued again when its time or address changed.
   */
  | { type: 'changed'; changes: readonly BookingFieldChange[]; notify: boolean; retimeReminder: boolean }
  /** A weather day (issue 21): the apology with the manage link to choose a new time; no invitation (nothing moved yet). */
  | { type: 'weather' }
  /** A waitlist offer (issue 43): the place held for the customer to confirm; no invitation (nothing is booked until they do). */
  | { type: 'offered' }
) & {
  bookingId: string;
  /** The booking as this transaction just wrote it, when the caller has it (saves a read). */
  booking?: Booking;
};

/** An e-mail a booking change sends, as decided in its transaction; composed later from the snapshot. */
interface Planned {
  kind: BookingMailKind;
  method?: 'REQUEST' | 'CANCEL';
  /** When it is due (a reminder later; everything else at once). */
  dueAt?: Date;
}

/** The e-mails queued with a snapshot: the customer's about their booking, and staff's notification of a new one. */
export type BookingMailKind = CustomerMessageKind | 'staff-new-booking';

/**
 * The reminder, due `reminderHoursBefore` the appointment; none when that moment has passed
 * already (a booking made inside the window: its confirmation serves).
 */
function reminder(booking: Booking, context: MailContext): Planned | undefined {
  const dueAt = new Date(appointmentTimes(booking).start.getTime() - context.reminderHoursBefore * 3_600_000);
  if (dueAt.getTime() <= context.now().getTime()) return undefined;
  return { kind: 'booking-reminder', dueAt };
}

/**
 * A plan's visit (issue 43): "keep it, move it or skip it", PLAN_CONFIRM_DAYS_BEFORE days before
 * the appointment; none for other bookings, when the setting is 0, or when that moment has passed.
 */
function planCheck(booking: Booking, context: MailContext): Planned | undefined {
  const days = context.planConfirmDaysBefore ?? 0;
  if (booking.source !== 'plan' || days <= 0) return undefined;
  const dueAt = new Date(appointmentTimes(booking).start.getTime() - days * 86_400_000);
  return dueAt.getTime() > context.now().getTime() ? { kind: 'plan-visit-check', dueAt } : undefined;
}

function planFor(event: BookingMailEvent, booking: Booking, context: MailContext, needsReminder: boolean): Planned[] {
  const planned = ((): (Planned | undefined)[] => {
    switch (event.type) {
      case 'created':
        // A booking taken by staff (issue 21) is confirmed at once, and staff need no notification of their own booking.
        return [
          { kind: booking.status === 'confirmed' ? 'booking-confirmed' : 'booking-created', method: 'REQUEST' },
          booking.source === 'online' ? { kind: 'staff-new-booking' } : undefined,
          reminder(booking, context),
          planCheck(booking, context),
        ];
      case 'confirmed':
        // A booking cancelled and then reopened lost its reminder; confirming it gives it one again.
        // The invitation again, now STATUS:CONFIRMED: the same UID and a higher SEQUENCE update the
        // tentative entry the customer's calendar holds (or put it back after a cancellation).
        return [{ kind: 'booking-confirmed', method: 'REQUEST' }, needsReminder ? reminder(booking, context) : undefined];
      case 'cancelled':
        return [{ kind: event.by === 'customer' ? 'booking-cancelled-by-customer' : 'booking-cancelled', method: 'CANCEL' }];
      case 'moved':
        return [{ kind: 'booking-moved', method: 'REQUEST' }, reminder(booking, context), planCheck(booking, context)];
      case 'changed':
        return [event.notify ? { kind: 'booking-changed', method: 'REQUEST' } : undefined, event.retimeReminder ? reminder(booking, context) : undefined, event.retimeReminder ? planCheck(booking, context) : undefined];
      case 'weather':
        return [{ kind: 'booking-weather' }];
      case 'offered':
        return [{ kind: 'waitlist-offer' }];
      case 'completed':
        return [];
    }
  })();
  return planned.filter((m): m is Planned => m !== undefined);
}

/** Columns of a booking a snapshot leaves out: the manage link's secrets, and what the database derives. */
const NOT_IN_SNAPSHOT = new Set(['manage_nonce', 'manage_token_hash', 'search_text', 'held', 'email_canonical', 'phone_canonical', 'customer_key']);

/** A row's columns as JSON values, with the names of those that were instants (ISO text in JSON). */
function jsonFields(row: object, omit: ReadonlySet<string> = new Set()): { fields: Record<string, unknown>; dates: string[] } {
  const fields: Record<string, unknown> = {};
  const dates: string[] = [];
  for (const [key, value] of Object.entries(row)) {
    if (omit.has(key)) continue;
    if (value instanceof Date) dates.push(key);
    fields[key] = value instanceof Date ? value.toISOString() : value;
  }
  return { fields, dates };
}

/** The fields back, their instants Dates again. */
function withDates<T>(fields: Record<string, unknown>, dates: readonly string[]): T {
  const row: Record<string, unknown> = { ...fields };
  for (const key of dates) if (typeof row[key] === 'string') row[key] = new Date(row[key]);
  return row as T;
}

/** The snapshot of a booking as this transaction wrote it (and what else its e-mail shows), as JSON text for the outbox row. */
export function bookingSnapshot(
  booking: Booking,
  at: Date,
  manageLink: string | undefined,
  extra: { changes?: readonly BookingFieldChange[]; payment?: BookingPayment; link?: string; plan?: PlanMailFacts } = {},
): string {
  const { fields, dates } = jsonFields(booking, NOT_IN_SNAPSHOT);
  const payment = extra.payment && jsonFields(extra.payment);
  const snapshot: OutboxSnapshotJson = {
    at: at.toISOString(),
    booking: fields,
    dates,
    manageLink: manageLink ?? null,
    ...(extra.changes ? { changes: [...extra.changes] } : {}),
    ...(payment ? { payment: payment.fields, paymentDates: payment.dates } : {}),
    ...(extra.link !== undefined ? { link: extra.link } : {}),
    ...(extra.plan ? { plan: extra.plan } : {}),
  };
  return JSON.stringify(snapshot);
}

/**
 * The outbox row of an e-mail about a booking queued in a transaction that holds the booking (a
 * booking change's, a completion's receipt and review request, "On the way"): its recipients,
 * subject, invitation method and due time now, its bodies composed at send time from the snapshot.
 */
export function snapshotRow(
  message: Pick<Composed, 'kind' | 'to' | 'replyTo' | 'subject' | 'dueAt'> & { icsMethod?: 'REQUEST' | 'CANCEL' },
  bookingId: string,
  snapshot: string,
  now: Date,
): NewOutboxEmail {
  return {
    kind: message.kind,
    booking_id: bookingId,
    contact_message_id: null,
    to_name: message.to.name,
    to_address: message.to.address,
    reply_to_name: message.replyTo?.name ?? null,
    reply_to_address: message.replyTo?.address ?? null,
    subject: message.subject,
    text_body: null,
    html_body: null,
    ics: null,
    ics_method: message.icsMethod ?? null,
    snapshot,
    next_attempt_at: message.dueAt ?? now,
  };
}

function plannedRow(planned: Planned, booking: Booking, context: MailContext, snapshot: { customer: string; staff: string }, now: Date): NewOutboxEmail {
  const staff = planned.kind === 'staff-new-booking';
  const message = {
    kind: planned.kind,
    to: staff ? { name: context.business.name, address: context.staffEmail } : { name: booking.name, address: booking.email },
    ...(staff ? { replyTo: { name: booking.name, address: booking.email } } : {}),
    subject: bookingSubject(planned.kind, booking, context),
    dueAt: planned.dueAt,
    icsMethod: planned.method,
  };
  return snapshotRow(message, booking.id, staff ? snapshot.staff : snapshot.customer, now);
}

/** Why the booking's queued reminders are dropped by this event (a new one is queued when it still needs one). */
function reminderSkipReason(event: BookingMailEvent): string | undefined {
  if (event.type === 'cancelled') return 'The booking was cancelled';
  if (event.type === 'moved') return 'The booking was moved; a new reminder was queued';
  if (event.type === 'changed' && event.retimeReminder) return 'The booking was changed; a new reminder was queued';
  return undefined;
}

/**
 * Queues what the event sends, in the caller's transaction: one INSERT (with the reminders it
 * replaces dropped in the same statement), plus a read of the reminders when a confirmation may
 * need one. Nothing is composed here (see the file's header).
 */
export async function queueBookingMail(trx: Kysely<Database>, event: BookingMailEvent, context: MailContext): Promise<void> {
  const booking = event.booking ?? (await findBooking(trx, event.bookingId));
  if (!booking) throw new Error(`queueBookingMail: no booking ${event.bookingId}`);
  const skipReason = reminderSkipReason(event);
  // A booking without an e-mail address (taken by staff for a customer who has none, issue 21):
  // nothing to send, and the staff notification is only for online bookings, which always have one.
  const planned = booking.email.trim() === '' ? [] : planFor(event, booking, context, event.type === 'confirmed' && !(await hasLiveReminder(trx, booking.id)));
  let rows: NewOutboxEmail[] = [];
  if (planned.length > 0) {
    const manageLink = event.type === 'cancelled' || event.type === 'completed' ? undefined : await manageLinkSlotFor(trx, booking, context.origin, context.manageKey);
    const now = context.now();
    const forCustomer = bookingSnapshot(booking, now, manageLink, event.type === 'changed' ? { changes: event.changes } : {});
    const forStaff = planned.some((p) => p.kind === 'staff-new-booking') ? bookingSnapshot(booking, now, undefined) : forCustomer;
    rows = planned.map((p) => plannedRow(p, booking, context, { customer: forCustomer, staff: forStaff }, now));
  }
  if (skipReason) await insertOutboxEmailsSkippingReminders(trx, rows, { bookingId: booking.id, reason: skipReason });
  else await insertOutboxEmails(trx, rows);
  if (rows.length > 0) context.onQueued?.();
  // The webhooks (issue 44) of the same change, whether or not the booking has an e-mail address.
  const webhookEvent = WEBHOOK_EVENT_OF[event.type];
  if (webhookEvent && !(event.type === 'created' && event.webhooks === false)) await queueBookingWebhook(trx, webhookEvent, booking, context, event.type === 'moved' ? { from: event.from } : {});
}

/** The webhook event a booking change is, if any: an edit, a weather day or a waitlist offer is none. */
const WEBHOOK_EVENT_OF: Partial<Record<BookingMailEvent['type'], Parameters<typeof queueBookingWebhook>[1]>> = {
  created: 'booking.created',
  confirmed: 'booking.confirmed',
  moved: 'booking.moved',
  cancelled: 'booking.cancelled',
  completed: 'booking.completed',
};

/** An e-mail's bodies, stored or composed. */
export interface ComposedBodies {
  text_body: string;
  html_body: string;
  ics: string | null;
}

type Queued = Pick<OutboxEmail, 'kind' | 'snapshot' | 'ics_method' | 'text_body' | 'html_body' | 'ics'>;

/** Whether a row still waits to be composed from its snapshot. */
export function needsComposing(email: Queued): boolean {
  return email.snapshot !== null && (email.text_body === null || email.html_body === null);
}

function snapshotOf(email: Queued): OutboxSnapshotJson {
  const raw = email.snapshot as OutboxSnapshotJson | string | null;
  if (raw === null) throw new Error('composeQueued: no snapshot');
  return typeof raw === 'string' ? (JSON.parse(raw) as OutboxSnapshotJson) : raw;
}

const CUSTOMER_KINDS = new Set<string>([
  'booking-created',
  'booking-confirmed',
  'booking-cancelled',
  'booking-cancelled-by-customer',
  'booking-moved',
  'booking-changed',
  'booking-reminder',
  'booking-weather',
  'plan-visit-check',
  'waitlist-offer',
] satisfies CustomerMessageKind[]);

const isCustomerKind = (kind: string): kind is CustomerMessageKind => CUSTOMER_KINDS.has(kind);

/** What the e-mail of `kind` says, from its snapshot, as of the moment of the event. */
function contentOf(kind: string, booking: Booking, snapshot: OutboxSnapshotJson, asThen: MailContext): MessageContent {
  const manageLink = snapshot.manageLink ?? undefined;
  switch (kind) {
    case 'staff-new-booking':
      return staffBookingMessage(booking, asThen).content;
    case 'booking-changed':
      return bookingChangedMessage(booking, asThen, manageLink, snapshot.changes ?? []).content;
    case 'booking-receipt': {
      if (!snapshot.payment) throw new Error('composeQueued: a receipt without its completion record');
      const payment = withDates<BookingPayment>(snapshot.payment, snapshot.paymentDates ?? []);
      return receiptMessage(booking, receiptOf(booking, payment, asThen.business), asThen, snapshot.link ?? undefined).content;
    }
    case 'review-request':
      return reviewRequestMessage(booking, snapshot.link ?? '', asThen, asThen.now()).content;
    case 'plan-stopped':
    case 'plan-changed':
    case 'plan-needs-time':
      if (!snapshot.plan) throw new Error('composeQueued: a plan e-mail without its plan');
      return planMessageContent(kind, booking, snapshot.plan, asThen, snapshot.link ?? undefined);
    case 'booking-on-the-way':
      return onTheWayMessage(booking, booking.arriving_at ?? asThen.now(), asThen).content;
    default:
      if (isCustomerKind(kind)) return customerMessage(kind, booking, asThen, manageLink).content;
      throw new Error(`composeQueued: no snapshot composer for ${kind}`);
  }
}

/**
 * The e-mail's text, HTML and invitation: as stored, or composed from its snapshot with the app's
 * settings, as of when the event happened (the booking as it was written then, and that moment as
 * the invitation's DTSTAMP). Manage links stay slots (src/mail/manage-slots.ts).
 */
export function composeQueued<T extends Queued>(email: T, context: MailContext): Omit<T, keyof ComposedBodies> & ComposedBodies {
  if (!needsComposing(email)) {
    if (email.text_body === null || email.html_body === null) throw new Error('composeQueued: neither bodies nor a snapshot');
    return { ...email, text_body: email.text_body, html_body: email.html_body };
  }
  const snapshot = snapshotOf(email);
  const then = new Date(snapshot.at);
  const asThen: MailContext = { ...context, now: () => then };
  // A snapshot queued before the service area and the job lines (migrations/034, 035) lacks them.
  const booking = withJob(withDates<Booking>(snapshot.booking, snapshot.dates));
  const content = contentOf(email.kind, booking, snapshot, asThen);
  const method = email.ics_method === 'CANCEL' ? 'CANCEL' : 'REQUEST';
  return {
    ...email,
    text_body: renderText(content),
    html_body: renderHtml(content),
    ics: email.ics_method ? bookingInvitation(booking, asThen, method, snapshot.manageLink ?? undefined) : null,
  };
}

/** The staff notification of a contact-form message, with Reply-To the sender. */
export async function queueContactMail(trx: Kysely<Database>, message: ContactMessage, context: MailContext): Promise<void> {
  await insertOutboxEmails(trx, [outboxRow(staffContactMessage(message, context), { contactMessageId: message.id }, context.now())]);
  context.onQueued?.();
}

/**
 * One message about a booking queued in the caller's transaction (issue 21: "On the way"): its
 * recipient and subject as the caller made them, its bodies composed at send time from the
 * booking as the transaction wrote it (see composeQueued, which knows the kind).
 */
export async function queueBookingMessage(trx: Kysely<Database>, booking: Booking, message: Composed, context: MailContext): Promise<void> {
  const now = context.now();
  await insertOutboxEmails(trx, [snapshotRow(message, booking.id, bookingSnapshot(booking, now, undefined), now)]);
  context.onQueued?.();
}
