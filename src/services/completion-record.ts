/**
 * The completion record of a job (issue 21), written in the transaction that marks it completed:
 * used by the completion endpoint (completion.service.ts) and by a status change to completed
 * (staff-bookings.service.ts), so that every completed job has its amount, its receipt and at most
 * one review request. Apart from completion.service.ts so that neither service imports the other.
 */
import type { Kysely } from 'kysely';
import type { Booking, BookingPayment, Database } from '../db/database.ts';
import { insertOutboxEmails, insertReviewRequestOnce } from '../db/outbox.repository.ts';
import { findPayment, takeInvoiceNumber, upsertPayment } from '../db/payments.repository.ts';
import type { PaymentMethod } from '../domain/completion.ts';
import { bookingTotalCents, gstOfCents } from '../domain/money.ts';
import { bookingSnapshot, queueBookingMail, snapshotRow } from '../mail/booking-mail.ts';
import { queuePaymentWebhook } from '../webhooks/queue.ts';
import type { MailContext } from '../mail/mail-context.ts';
import { receiptLinkOf, receiptMessage, receiptOf, reviewRequestMessage } from '../mail/receipt.ts';
import { manageLinkSlotFor } from '../db/manage-link.repository.ts';

/**
 * The completion record of a booking this transaction has just marked completed: the amount
 * (default: the booking's total), the payment, an invoice number when the business is GST-registered
 * (kept from an earlier completion of the same booking), the receipt e-mail and the review request.
 * Called by completeBooking and by a status change to completed (which records the default: the
 * total, unpaid).
 */
export async function recordCompletion(
  trx: Kysely<Database>,
  booking: Booking,
  input: { amountCents?: number; reason?: string | null; paymentMethod?: PaymentMethod | null; paidAt?: Date | null; by: string },
  context: MailContext,
): Promise<BookingPayment> {
  const now = context.now();
  const quoted = bookingTotalCents(booking);
  const amount = input.amountCents ?? quoted;
  const reason = input.reason?.trim() || null;
  const earlier = await findPayment(trx, booking.id);
  const gstNumber = earlier?.gst_number ?? context.completion?.gstNumber ?? null;
  const reviewUrl = context.completion?.reviewUrl;
  if (reviewUrl && hasAddress(booking)) {
    const dueAt = new Date(now.getTime() + (context.completion?.reviewDelayHours ?? 0) * 3_600_000);
    // Composed when it is sent, from the snapshot (issue 24): this transaction holds the booking.
    const queued = snapshotRow(reviewRequestMessage(booking, reviewUrl, context, dueAt), booking.id, bookingSnapshot(booking, now, undefined, { link: reviewUrl }), now);
    if (await insertReviewRequestOnce(trx, queued)) context.onQueued?.();
  }
  const link = await receiptLinkFor(trx, booking, context);
  // The invoice number is taken last but for two writes: concurrent completions wait for the
  // counter's row only that long, a refusal above never takes one, and a rollback gives it back.
  const invoiceNumber = earlier?.invoice_number ?? (gstNumber ? await takeInvoiceNumber(trx) : null);
  const payment = await upsertPayment(trx, {
    booking_id: booking.id,
    quoted_cents: quoted,
    amount_cents: amount,
    amount_reason: amount === quoted ? null : reason,
    payment_method: input.paymentMethod ?? null,
    paid_at: input.paymentMethod ? (input.paidAt ?? now) : null,
    gst_number: gstNumber,
    gst_cents: gstNumber ? gstOfCents(amount) : 0,
    invoice_number: invoiceNumber,
    completed_at: now,
    completed_by: input.by,
  });
  await insertReceipt(trx, booking, payment, context, link);
  // The webhooks (issue 44): booking.completed, and payment.recorded when it was paid on the spot.
  await queueBookingMail(trx, { type: 'completed', bookingId: booking.id, booking, by: 'staff' }, context);
  if (payment.paid_at !== null) await queuePaymentWebhook(trx, booking, payment, context);
  return payment;
}

export function hasAddress(booking: Booking): boolean {
  return booking.email.trim() !== '';
}

/**
 * The link to the receipt's printable page (the manage link's token), for its e-mail: stored with
 * the token's slot, filled in only as the e-mail is sent (issue 23: no live link is written down).
 */
async function receiptLinkFor(trx: Kysely<Database>, booking: Booking, context: MailContext): Promise<string | undefined> {
  if (!hasAddress(booking)) return undefined;
  const manageLink = await manageLinkSlotFor(trx, booking, context.origin, context.manageKey);
  return manageLink && receiptLinkOf(manageLink);
}

/**
 * The receipt e-mail, queued with its snapshot (issue 24): the transaction holds the booking and,
 * once a number is taken, the invoice counter, so its recipient and subject are written now and
 * its bodies composed when it is sent.
 */
async function insertReceipt(trx: Kysely<Database>, booking: Booking, payment: BookingPayment, context: MailContext, link: string | undefined): Promise<void> {
  if (!hasAddress(booking)) return;
  const now = context.now();
  const message = receiptMessage(booking, receiptOf(booking, payment, context.business), context, link);
  await insertOutboxEmails(trx, [snapshotRow(message, booking.id, bookingSnapshot(booking, now, undefined, { payment, ...(link ? { link } : {}) }), now)]);
  context.onQueued?.();
}

/** The receipt e-mail, with the link to its printable page; none when the booking has no e-mail address. */
export async function queueReceipt(trx: Kysely<Database>, booking: Booking, payment: BookingPayment, context: MailContext): Promise<void> {
  await insertReceipt(trx, booking, payment, context, await receiptLinkFor(trx, booking, context));
}
