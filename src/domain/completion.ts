/**
 * Completing a job (issue 21): the payment methods, the rules of a completion's input, the words
 * staff and customers see about it, and the receipt as one value, which the e-mail, the printable
 * page and the API all show. Shared by the server and the dashboard.
 */
import type { FieldError } from './messages.ts';
import { gstOfCents } from './money.ts';
import { REASON_MAX_LENGTH, REASON_TOO_LONG, reasonErrors } from './price-change-reason.ts';

export const PAYMENT_METHODS = ['cash', 'bank-transfer', 'card', 'other'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  cash: 'Cash',
  'bank-transfer': 'Bank transfer',
  card: 'Card',
  other: 'Other',
};

export function isPaymentMethod(value: unknown): value is PaymentMethod {
  return typeof value === 'string' && (PAYMENT_METHODS as readonly string[]).includes(value);
}

/** GST_NUMBER's shape: an IRD number as NNN-NNN-NNN, or its 8 or 9 digits. */
export const GST_NUMBER_PATTERN = /^(\d{3}-\d{3}-\d{3}|\d{8,9})$/;

/** The longest amount a completion may record: $1,000,000.00. */
export const MAX_AMOUNT_CENTS = 100_000_000;
export const MAX_REASON_LENGTH = REASON_MAX_LENGTH;

export const COMPLETION_MESSAGES = {
  reasonRequired: 'Please give a reason for changing the amount',
  reasonTooLong: REASON_TOO_LONG,
  methodRequired: 'Please choose how the customer paid',
  methodWhenUnpaid: 'An unpaid job has no payment method yet: leave it out, or mark the job paid',
  paidAtFuture: 'The payment time cannot be in the future',
  notCompleted: 'Only a completed job can have its payment recorded',
  alreadyPaid: 'This job is already paid',
  cannotComplete: (status: string) => `A ${status} booking cannot be completed`,
  noReceipt: 'This booking has no receipt yet',
  takingsRange: (maxDays: number) => `Please choose a range of at most ${maxDays} days`,
  takingsOrder: 'The start of the range must not be after its end',
} as const;

export interface CompletionInput {
  /** The total, when not given. */
  amountCents?: number;
  reason?: string | null;
  paid: boolean;
  paymentMethod?: PaymentMethod | null;
}

/** What is wrong with a completion's input, field by field (empty when nothing). */
export function completionErrors(input: CompletionInput, totalCents: number): FieldError[] {
  const amount = input.amountCents ?? totalCents;
  const errors = reasonErrors('reason', input.reason, { when: amount !== totalCents, message: COMPLETION_MESSAGES.reasonRequired });
  if (input.paid && !input.paymentMethod) errors.push({ field: 'paymentMethod', message: COMPLETION_MESSAGES.methodRequired });
  if (!input.paid && input.paymentMethod) errors.push({ field: 'paymentMethod', message: COMPLETION_MESSAGES.methodWhenUnpaid });
  return errors;
}

/** A line of a receipt: a vehicle's package or add-on, or the quote's discount or price adjustment. */
export interface ReceiptLine {
  description: string;
  quantity: number;
  /** The line's amount, GST inclusive: quantity × the unit price, negative for a discount. */
  amountCents: number;
}

/** A completed job's receipt: a tax invoice when the business was GST-registered at completion. */
export interface Receipt {
  kind: 'tax-invoice' | 'receipt';
  /** 'Tax invoice' or 'Receipt'. */
  title: string;
  invoiceNumber: number | null;
  reference: string;
  business: { name: string; address: string; phone: string; email: string; gstNumber: string | null };
  customer: { name: string };
  /** The completion's date (YYYY-MM-DD, Auckland) and as people read it. */
  date: string;
  dateText: string;
  /** What was done: package (with coating) and vehicle, or how many vehicles (issue 41); on-site or drop-off; appointment date. */
  description: string;
  /**
   * What the quote was made of, line by line: each vehicle's package and add-ons (the vehicle
   * named when there are several), then the first-service discount and a staff price adjustment.
   * With the travel fee they add up to quotedCents.
   */
  lines: ReceiptLine[];
  quotedCents: number;
  /** The on-site travel fee in the quote (issue 40), GST inclusive and part of the total; 0 for none. */
  travelFeeCents: number;
  amountCents: number;
  /** Why the amount differs from the quote, or null. */
  reason: string | null;
  /** The GST in the amount (tax invoices), else null. */
  gstCents: number | null;
  paid: boolean;
  paymentMethod: PaymentMethod | null;
  paidAt: string | null;
  /** When it was paid, for people; null while unpaid. */
  paidText: string | null;
}

export function receiptTitle(taxInvoice: boolean): string {
  return taxInvoice ? 'Tax invoice' : 'Receipt';
}

/** The GST line of a receipt: only a tax invoice states it. */
export function receiptGst(amountCents: number, taxInvoice: boolean): number | null {
  return taxInvoice ? gstOfCents(amountCents) : null;
}

/** What the receipt page (client/pages/ReceiptPage.tsx) is rendered from. */
export interface ReceiptState {
  receipt: Receipt;
}
