/**
 * Completing a job, recording its payment, its receipt, and the takings (issue 21).
 *
 * A completion is one transaction: the status (compare-and-set on the version, the history row as
 * for any status change), the completion record with the final amount and the payment, a
 * tax-invoice number from the gapless counter when GST_NUMBER is set, the receipt e-mail and, when
 * REVIEW_URL is set, the review request (at most one per booking, ever). Anything refused leaves
 * nothing written, and takes no invoice number.
 */
import { queuePaymentWebhook } from '../webhooks/queue.ts';
import type { Kysely } from 'kysely';
import type { Booking, BookingStatusChange, Database } from '../db/database.ts';
import { findBooking, insertStatusChange, statusHistory, updateStatusIfVersion } from '../db/bookings.repository.ts';
import { completedJobsBetween, findPayment, markPaidIfUnpaid, type CompletedJob } from '../db/payments.repository.ts';
import { addDaysToDay, aucklandDate, aucklandInstant, daysBetween } from '../domain/booking-dates.ts';
import { canChangeStatus } from '../domain/booking-status.ts';
import type { BusinessInfo } from '../domain/business.ts';
import { COMPLETION_MESSAGES, completionErrors, PAYMENT_METHODS, type CompletionInput, type PaymentMethod, type Receipt } from '../domain/completion.ts';
import { bookingTotalCents } from '../domain/money.ts';
import { findAddOn } from '../domain/add-ons.ts';
import type { StoredLine } from '../domain/job.ts';
import { AppError, conflict, validationFailed } from '../errors.ts';
import type { MailContext } from '../mail/mail-context.ts';
import { receiptOf } from '../mail/receipt.ts';
import { TRAVEL_FEE_LABEL } from '../domain/pricing.ts';
import type { XeroInvoice } from '../domain/xero.ts';
import { queueReceipt, recordCompletion } from './completion-record.ts';
import { bookingAtVersion, StaleBookingError } from './staff-bookings.service.ts';

export interface CompleteRequest extends CompletionInput {
  id: string;
  version: number;
  /** When it was paid (default: now); only with paid. */
  paidAt?: Date;
  by: string;
}

export interface CompletionResult {
  booking: Booking;
  history: BookingStatusChange[];
  receipt: Receipt;
}

/** A payment cannot be recorded as made in the future (400). */
function assertPaidAtNotFuture(paidAt: Date | undefined, now: Date): void {
  if (paidAt && paidAt.getTime() > now.getTime()) throw validationFailed([{ field: 'paidAt', message: COMPLETION_MESSAGES.paidAtFuture }]);
}

/** POST /v1/bookings/{id}/completion: completes the job with its amount and payment. */
export async function completeBooking(db: Kysely<Database>, request: CompleteRequest, context: MailContext): Promise<CompletionResult> {
  assertPaidAtNotFuture(request.paidAt, context.now());
  return db.transaction().execute(async (trx) => {
    const current = await bookingAtVersion(trx, request.id, request.version);
    if (!canChangeStatus(current.status, 'completed', { startsAt: current.starts_at, now: context.now() })) {
      const message = COMPLETION_MESSAGES.cannotComplete(current.status);
      throw conflict(message, [{ field: 'status', message }]);
    }
    const errors = completionErrors(request, bookingTotalCents(current));
    if (errors.length > 0) throw validationFailed(errors);
    const updated = await updateStatusIfVersion(trx, request.id, request.version, 'completed');
    if (!updated) throw new StaleBookingError((await findBooking(trx, request.id))!);
    await insertStatusChange(trx, { booking_id: request.id, from_status: current.status, to_status: 'completed', changed_by: request.by });
    const history = await statusHistory(trx, request.id);
    const payment = await recordCompletion(
      trx,
      updated,
      { amountCents: request.amountCents, reason: request.reason, paymentMethod: request.paid ? request.paymentMethod : null, paidAt: request.paidAt, by: request.by },
      context,
    );
    return { booking: updated, history, receipt: receiptOf(updated, payment, context.business) };
  });
}

export interface PaymentRequest {
  id: string;
  version: number;
  paymentMethod: PaymentMethod;
  paidAt?: Date;
  by: string;
}

/**
 * POST /v1/bookings/{id}/payment: an unpaid completed job paid later. The booking's version moves
 * on (compare-and-set, like any staff change), the history says so, and the customer receives the
 * receipt again, now paid.
 */
export async function recordPayment(db: Kysely<Database>, request: PaymentRequest, context: MailContext): Promise<CompletionResult> {
  assertPaidAtNotFuture(request.paidAt, context.now());
  return db.transaction().execute(async (trx) => {
    const current = await bookingAtVersion(trx, request.id, request.version);
    const payment = await findPayment(trx, request.id);
    if (current.status !== 'completed' || !payment) throw conflict(COMPLETION_MESSAGES.notCompleted, [{ field: 'status', message: COMPLETION_MESSAGES.notCompleted }]);
    if (payment.paid_at !== null) throw conflict(COMPLETION_MESSAGES.alreadyPaid, [{ field: 'paymentMethod', message: COMPLETION_MESSAGES.alreadyPaid }]);
    const updated = await trx
      .updateTable('bookings')
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('id', '=', request.id)
      .where('version', '=', request.version)
      .returningAll()
      .executeTakeFirst();
    if (!updated) throw new StaleBookingError((await findBooking(trx, request.id))!);
    const paid = await markPaidIfUnpaid(trx, request.id, request.paymentMethod, request.paidAt ?? context.now());
    if (!paid) throw conflict(COMPLETION_MESSAGES.alreadyPaid, [{ field: 'paymentMethod', message: COMPLETION_MESSAGES.alreadyPaid }]);
    await insertStatusChange(trx, { booking_id: request.id, from_status: 'completed', to_status: 'completed', changed_by: request.by, note: `Payment recorded: ${request.paymentMethod}` });
    await queueReceipt(trx, updated, paid, context);
    await queuePaymentWebhook(trx, updated, paid, context);
    return { booking: updated, history: await statusHistory(trx, request.id), receipt: receiptOf(updated, paid, context.business) };
  });
}

/** The receipt of a completed booking, or undefined when it has none (not completed, or never). */
export async function receiptOfBooking(db: Kysely<Database>, booking: Booking, business: BusinessInfo): Promise<Receipt | undefined> {
  if (booking.status !== 'completed') return undefined;
  const payment = await findPayment(db, booking.id);
  return payment && receiptOf(booking, payment, business);
}

export interface TakingsJob {
  bookingId: string;
  /** The booking's version, for recording its payment (compare-and-set). */
  version: number;
  reference: string;
  name: string;
  completedAt: Date;
  amountCents: number;
  gstCents: number;
  paymentMethod: PaymentMethod | null;
  paidAt: Date | null;
  invoiceNumber: number | null;
}

export interface Takings {
  from: string;
  to: string;
  /** Every job completed in the range (and still completed). */
  completed: { count: number; amountCents: number; gstCents: number };
  /** What was paid of them, by method, in total, and the GST in it. */
  taken: { byMethod: Record<PaymentMethod, number>; totalCents: number; gstCents: number };
  unpaid: { count: number; amountCents: number; jobs: TakingsJob[] };
  jobs: TakingsJob[];
  /** The packages and the add-ons done in those jobs (issue 41), each with how many and their lines' amount. */
  byPackage: WorkTaking[];
  byAddOn: WorkTaking[];
}

/**
 * One package or add-on in the takings: how many were done and what their lines came to (list
 * prices, before discounts, travel fees and adjustments, which belong to the job, not a line).
 */
export interface WorkTaking {
  code: string;
  name: string;
  count: number;
  amountCents: number;
}

/** The lines of completed jobs added up by package and by add-on, the largest amount first (pure). */
export function takingsByWork(lines: readonly StoredLine[]): Pick<Takings, 'byPackage' | 'byAddOn'> {
  const groups = { package: new Map<string, WorkTaking>(), 'add-on': new Map<string, WorkTaking>() };
  for (const line of lines) {
    const group = groups[line.kind];
    const name = line.kind === 'add-on' ? (findAddOn(line.code)?.name ?? line.description) : line.code;
    const taking = group.get(line.code) ?? { code: line.code, name, count: 0, amountCents: 0 };
    taking.count += line.quantity;
    taking.amountCents += line.totalCents;
    group.set(line.code, taking);
  }
  const ordered = (group: Map<string, WorkTaking>) => [...group.values()].sort((a, b) => b.amountCents - a.amountCents || a.name.localeCompare(b.name));
  return { byPackage: ordered(groups.package), byAddOn: ordered(groups['add-on']) };
}

export class TakingsRangeError extends AppError {}

function toJob(row: CompletedJob): TakingsJob {
  return {
    bookingId: row.booking_id,
    version: row.version,
    reference: row.reference,
    name: row.name,
    completedAt: row.completed_at,
    amountCents: row.amount_cents,
    gstCents: row.gst_cents,
    paymentMethod: (PAYMENT_METHODS as readonly string[]).includes(row.payment_method ?? '') ? (row.payment_method as PaymentMethod) : null,
    paidAt: row.paid_at,
    invoiceNumber: row.invoice_number,
  };
}

/** Adds up completed jobs (pure: the reference for the tests' model too). */
export function sumTakings(from: string, to: string, jobs: TakingsJob[]): Omit<Takings, 'byPackage' | 'byAddOn'> {
  const byMethod = Object.fromEntries(PAYMENT_METHODS.map((m) => [m, 0])) as Record<PaymentMethod, number>;
  const takings: Omit<Takings, 'byPackage' | 'byAddOn'> = {
    from,
    to,
    completed: { count: 0, amountCents: 0, gstCents: 0 },
    taken: { byMethod, totalCents: 0, gstCents: 0 },
    unpaid: { count: 0, amountCents: 0, jobs: [] },
    jobs,
  };
  for (const job of jobs) {
    takings.completed.count += 1;
    takings.completed.amountCents += job.amountCents;
    takings.completed.gstCents += job.gstCents;
    if (job.paymentMethod) {
      byMethod[job.paymentMethod] += job.amountCents;
      takings.taken.totalCents += job.amountCents;
      takings.taken.gstCents += job.gstCents;
    } else {
      takings.unpaid.count += 1;
      takings.unpaid.amountCents += job.amountCents;
      takings.unpaid.jobs.push(job);
    }
  }
  return takings;
}

/** The takings of the jobs completed from `from` to `to` (Auckland dates, both included). */
export async function takingsBetween(db: Kysely<Database>, from: string, to: string, maxDays: number): Promise<Takings> {
  const rows = await completedJobsBetween(db, ...takingsRange(from, to, maxDays));
  return { ...sumTakings(from, to, rows.map(toJob)), ...takingsByWork(rows.flatMap((row) => row.lines)) };
}

/** The Auckland date a job was completed on. */
export function completedOn(job: Pick<TakingsJob, 'completedAt'>): string {
  return aucklandDate(job.completedAt);
}

/** Checks a takings range (from not after to, at most `maxDays` days when set): its instants [from, to]. */
export function takingsRange(from: string, to: string, maxDays: number): [Date, Date] {
  if (from > to) throw validationFailed([{ field: 'to', message: COMPLETION_MESSAGES.takingsOrder }]);
  if (maxDays > 0 && daysBetween(from, to).length > maxDays) throw validationFailed([{ field: 'to', message: COMPLETION_MESSAGES.takingsRange(maxDays) }]);
  return [new Date(aucklandInstant(from, '00:00')), new Date(aucklandInstant(addDaysToDay(to, 1), '00:00'))];
}

/**
 * The accounting export (issue 44): the jobs completed in the range as invoices, line by line as
 * their receipts show them (the job's lines, the discount, a price adjustment, the travel fee, and
 * a change made at completion with its reason), so that each invoice's lines add up to what was
 * charged.
 */
export async function invoicesBetween(db: Kysely<Database>, from: string, to: string, maxDays: number, business: BusinessInfo): Promise<XeroInvoice[]> {
  const jobs = await completedJobsBetween(db, ...takingsRange(from, to, maxDays));
  if (jobs.length === 0) return [];
  const bookings = new Map((await db.selectFrom('bookings').selectAll().where('id', 'in', jobs.map((job) => job.booking_id)).execute()).map((b) => [b.id, b]));
  return jobs.map((payment) => {
    const booking = bookings.get(payment.booking_id)!;
    const receipt = receiptOf(booking, payment, business);
    const lines = receipt.lines.map((line) => ({ description: line.description, quantity: line.quantity, unitCents: line.amountCents / line.quantity }));
    if (receipt.travelFeeCents > 0) lines.push({ description: TRAVEL_FEE_LABEL, quantity: 1, unitCents: receipt.travelFeeCents });
    if (receipt.amountCents !== receipt.quotedCents) lines.push({ description: `Change at completion: ${receipt.reason ?? ''}`.trim(), quantity: 1, unitCents: receipt.amountCents - receipt.quotedCents });
    const onsite = booking.service_type === 'onsite';
    return {
      contact: {
        name: booking.name,
        email: booking.email,
        lines: onsite ? [`${booking.house_number} ${booking.street_address}`.trim(), booking.suburb].filter((line) => line !== '') : [],
        city: onsite ? booking.city : '',
        region: onsite ? booking.region : '',
        postcode: onsite ? booking.postal_code : '',
      },
      invoiceNumber: payment.invoice_number,
      reference: booking.reference,
      completedAt: payment.completed_at,
      paidAt: payment.paid_at,
      registeredForGst: payment.gst_number !== null,
      lines,
    };
  });
}
