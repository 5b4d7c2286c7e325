/**
 * A completed job's receipt (issue 21): the one value (Receipt) the e-mail, the printable page
 * (/booking/receipt/{token}) and the API show, and the two e-mails of a completion: the receipt,
 * and the review request when REVIEW_URL is set.
 */
import type { Booking, BookingPayment } from '../db/database.ts';
import type { BusinessInfo } from '../domain/business.ts';
import { aucklandClockText, aucklandDate, dayText } from '../domain/booking-dates.ts';
import { isPaymentMethod, PAYMENT_METHOD_LABELS, receiptGst, receiptTitle, type Receipt, type ReceiptLine } from '../domain/completion.ts';
import { presentLines } from '../domain/job.ts';
import { adjustmentLabel, discountLabel, discountOf, formatNzd, lineLabel, TRAVEL_FEE_LABEL } from '../domain/pricing.ts';
import { serviceCentreAddress } from './booking-facts.ts';
import { packageForPeople, vehicleForPeople } from '../domain/catalogue.ts';
import type { Composed } from './composed.ts';
import type { MailContext } from './mail-context.ts';

/** The receipt page of a manage link: /booking/manage/{token} → /booking/receipt/{token}. */
export const RECEIPT_PATH_PREFIX = '/booking/receipt/';

export function receiptLinkOf(manageLink: string): string {
  return manageLink.replace('/booking/manage/', RECEIPT_PATH_PREFIX);
}

function momentText(at: Date): string {
  return `${dayText(aucklandDate(at))}, ${aucklandClockText(at)}`;
}

/** The booking's lines as a receipt shows them, the discount and an adjustment after them. */
function receiptLines(booking: Booking): ReceiptLine[] {
  const lines: ReceiptLine[] = presentLines(booking.lines, booking.vehicles).map((l) => ({ description: l.description, quantity: l.quantity, amountCents: l.totalCents }));
  if (booking.discount_cents > 0 && booking.discount_percent !== null) {
    lines.push({ description: discountLabel(discountOf(booking.discount_kind, booking.discount_percent) ?? { kind: 'first-service', percent: booking.discount_percent }), quantity: 1, amountCents: -booking.discount_cents });
  }
  if (booking.price_adjustment_cents !== 0 && booking.price_adjustment_reason !== null) {
    lines.push({ description: adjustmentLabel({ cents: booking.price_adjustment_cents, reason: booking.price_adjustment_reason }), quantity: 1, amountCents: booking.price_adjustment_cents });
  }
  return lines;
}

export function receiptOf(booking: Booking, payment: BookingPayment, business: BusinessInfo): Receipt {
  const taxInvoice = payment.invoice_number !== null;
  const date = aucklandDate(payment.completed_at);
  const where = booking.service_type === 'dropoff' ? 'at our service centre' : 'at your address';
  const method = isPaymentMethod(payment.payment_method) ? payment.payment_method : null;
  return {
    kind: taxInvoice ? 'tax-invoice' : 'receipt',
    title: receiptTitle(taxInvoice),
    invoiceNumber: payment.invoice_number,
    reference: booking.reference,
    business: { name: business.name, address: serviceCentreAddress(business), phone: business.phone, email: business.email, gstNumber: payment.gst_number },
    customer: { name: booking.name },
    date,
    dateText: dayText(date),
    description: `${booking.vehicles.length > 1 ? `${booking.vehicles.length} vehicles` : `${packageForPeople(booking)}, ${vehicleForPeople(booking)}`}, ${where}, ${dayText(booking.date)}`,
    lines: receiptLines(booking),
    quotedCents: payment.quoted_cents,
    travelFeeCents: booking.travel_fee_cents,
    amountCents: payment.amount_cents,
    reason: payment.amount_reason,
    gstCents: receiptGst(payment.amount_cents, taxInvoice),
    paid: payment.paid_at !== null,
    paymentMethod: method,
    paidAt: payment.paid_at?.toISOString() ?? null,
    paidText: payment.paid_at ? momentText(payment.paid_at) : null,
  };
}

/** The receipt line by line, as the e-mail and the page show it. */
export function receiptRows(receipt: Receipt): [string, string][] {
  const rows: [string, string][] = [];
  if (receipt.invoiceNumber !== null) rows.push(['Invoice number', String(receipt.invoiceNumber)]);
  rows.push(['Date', receipt.dateText], ['From', `${receipt.business.name}, ${receipt.business.address}`]);
  if (receipt.business.gstNumber) rows.push(['GST number', receipt.business.gstNumber]);
  rows.push(['To', receipt.customer.name], ['Booking reference', receipt.reference], ['Description', receipt.description]);
  for (const line of receipt.lines) rows.push([lineLabel(line), formatNzd(line.amountCents)]);
  // A line of its own, within the total (and so within its GST): the total stays what was charged.
  if (receipt.travelFeeCents > 0) rows.push([TRAVEL_FEE_LABEL, formatNzd(receipt.travelFeeCents)]);
  if (receipt.amountCents !== receipt.quotedCents) rows.push(['Quoted', formatNzd(receipt.quotedCents)], ['Change', receipt.reason ?? '']);
  rows.push([receipt.gstCents !== null ? 'Total (including GST)' : 'Total', formatNzd(receipt.amountCents)]);
  if (receipt.gstCents !== null) rows.push(['GST included', formatNzd(receipt.gstCents)]);
  rows.push(['Payment', paymentText(receipt)]);
  return rows;
}

export function paymentText(receipt: Receipt): string {
  if (!receipt.paid) return `Unpaid: ${formatNzd(receipt.amountCents)} to pay`;
  const method = receipt.paymentMethod ? PAYMENT_METHOD_LABELS[receipt.paymentMethod] : 'Paid';
  return `Paid (${method.toLowerCase()}), ${receipt.paidText}`;
}

function closing(business: BusinessInfo): string[] {
  return [`Questions? Call us on ${business.phone} or write to ${business.email}.`, business.name];
}

/** The receipt e-mail: a tax invoice when the completion has an invoice number. */
export function receiptMessage(booking: Booking, receipt: Receipt, context: MailContext, receiptLink: string | undefined): Composed {
  const name = context.business.name;
  const numbered = receipt.invoiceNumber !== null ? `${receipt.title} ${receipt.invoiceNumber}` : receipt.title;
  return {
    kind: 'booking-receipt',
    to: { name: booking.name, address: booking.email },
    subject: `${numbered}: ${booking.reference} – ${name}`,
    content: {
      heading: `${numbered} for your booking ${booking.reference}`,
      paragraphs: [
        `Hi ${booking.name},`,
        receipt.paid ? 'Thank you: the work is done and paid. Your receipt is below.' : `Thank you: the work is done. ${formatNzd(receipt.amountCents)} is still to pay; your receipt is below.`,
      ],
      sections: [{ title: receipt.title, rows: receiptRows(receipt) }],
      ...(receiptLink ? { action: { label: 'View or print your receipt', href: receiptLink } } : {}),
      closing: closing(context.business),
    },
  };
}

/** The review request, due REVIEW_DELAY_HOURS after the completion. */
export function reviewRequestMessage(booking: Booking, reviewUrl: string, context: MailContext, dueAt: Date): Composed {
  const name = context.business.name;
  return {
    kind: 'review-request',
    to: { name: booking.name, address: booking.email },
    subject: `How did we do? ${booking.reference} – ${name}`,
    content: {
      heading: 'How did we do?',
      paragraphs: [`Hi ${booking.name},`, `Thank you for choosing ${name}. If you have a minute, a short review helps other Auckland drivers find us.`],
      sections: [],
      action: { label: 'Leave a review', href: reviewUrl },
      closing: closing(context.business),
    },
    dueAt,
  };
}
