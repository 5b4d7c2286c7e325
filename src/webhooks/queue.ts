/**
 * Queueing webhook deliveries (issue 44), inside the transaction of the change they tell of: one
 * row per enabled endpoint that receives the event, with the payload composed now from the row
 * this transaction wrote ({type, timestamp, data}, as the Standard Webhooks specification
 * suggests), so a delivery committed is never lost and shows the booking as it was. A booking is
 * shown as the staff API shows it (toBookingDto): never a manage token.
 *
 * An erasure rewrites the payloads of the deliveries that tell of the erased bookings from the
 * erased rows (eraseWebhookPayloads), so that one sent afterwards, or resent, carries the erased
 * values and no personal data.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { toBookingDto } from '../db/booking-dto.ts';
import type { Booking, BookingPayment, Database } from '../db/database.ts';
import { deliveriesForBookings, endpointsFor, insertDeliveries, replacePayload } from '../db/webhooks.repository.ts';
import type { WebhookEvent } from '../domain/webhooks.ts';

export interface WebhookPayload {
  type: WebhookEvent;
  timestamp: string;
  data: Record<string, unknown>;
}

/** What queues a delivery needs besides the event: the clock, and a nudge for the sender. */
export interface WebhookQueueContext {
  now(): Date;
  onWebhookQueued?: () => void;
}

const newMessageId = () => `msg_${randomBytes(18).toString('base64url')}`;

/** Queues `event` for every enabled endpoint that receives it. Answers how many deliveries were queued. */
export async function queueWebhookEvent(
  trx: Kysely<Database>,
  event: WebhookEvent,
  data: Record<string, unknown>,
  bookingId: string | null,
  context: WebhookQueueContext,
): Promise<number> {
  const endpoints = await endpointsFor(trx, event);
  if (endpoints.length === 0) return 0;
  const now = context.now();
  const payload = JSON.stringify({ type: event, timestamp: now.toISOString(), data } satisfies WebhookPayload);
  await insertDeliveries(
    trx,
    endpoints.map((endpointId) => ({ endpoint_id: endpointId, event, message_id: newMessageId(), booking_id: bookingId, payload, next_attempt_at: now })),
  );
  context.onWebhookQueued?.();
  return endpoints.length;
}

/** A payment as a payload shows it. */
function paymentData(payment: BookingPayment): Record<string, unknown> {
  return {
    amountCents: payment.amount_cents,
    quotedCents: payment.quoted_cents,
    gstCents: payment.gst_cents,
    paymentMethod: payment.payment_method,
    paidAt: payment.paid_at?.toISOString() ?? null,
    invoiceNumber: payment.invoice_number,
  };
}

/** A booking event (created, confirmed, moved, cancelled, completed) with the booking as this transaction wrote it. */
export function queueBookingWebhook(
  trx: Kysely<Database>,
  event: Extract<WebhookEvent, `booking.${string}`>,
  booking: Booking,
  context: WebhookQueueContext,
  extra: Record<string, unknown> = {},
): Promise<number> {
  return queueWebhookEvent(trx, event, { booking: toBookingDto(booking), ...extra }, booking.id, context);
}

/**
 * booking.cancelled for bookings that lapsed unconfirmed (BOOKING_CONFIRMATION=email), in the
 * lapse's transaction; `data.lapsed` true. Nothing is read when none lapsed or no endpoint listens.
 */
export async function queueLapsedWebhooks(trx: Kysely<Database>, bookingIds: readonly string[], context: WebhookQueueContext): Promise<void> {
  if (bookingIds.length === 0 || (await endpointsFor(trx, 'booking.cancelled')).length === 0) return;
  const lapsed = await trx.selectFrom('bookings').selectAll().where('id', 'in', [...bookingIds]).orderBy('starts_at').execute();
  for (const booking of lapsed) await queueBookingWebhook(trx, 'booking.cancelled', booking as Booking, context, { lapsed: true });
}

/** payment.recorded: a completed job's payment, with its booking. */
export function queuePaymentWebhook(trx: Kysely<Database>, booking: Booking, payment: BookingPayment, context: WebhookQueueContext): Promise<number> {
  return queueWebhookEvent(trx, 'payment.recorded', { booking: toBookingDto(booking), payment: paymentData(payment) }, booking.id, context);
}

/**
 * In the erasure's transaction, after the bookings are erased: every delivery that tells of one of
 * them (queued, failed or delivered: a resend too) gets the erased booking in its payload.
 */
export async function eraseWebhookPayloads(trx: Kysely<Database>, bookingIds: readonly string[]): Promise<number> {
  const deliveries = await deliveriesForBookings(trx, bookingIds);
  if (deliveries.length === 0) return 0;
  const erased = new Map(
    (await trx.selectFrom('bookings').selectAll().where('id', 'in', [...new Set(deliveries.map((d) => d.booking_id))]).execute()).map((b) => [b.id, b as Booking]),
  );
  for (const delivery of deliveries) {
    const booking = erased.get(delivery.booking_id);
    const data = (delivery.payload.data ?? {}) as Record<string, unknown>;
    // Only what the payload carried is kept (a payment's amounts); the booking is the erased row.
    const payload = { ...delivery.payload, data: { ...data, booking: booking ? toBookingDto(booking) : null } };
    await replacePayload(trx, delivery.id, JSON.stringify(payload));
  }
  return deliveries.length;
}
