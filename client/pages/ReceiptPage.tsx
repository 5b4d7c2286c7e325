/**
 * A completed job's receipt, printable (/booking/receipt/{token}, the manage link's token): a
 * tax invoice with its number, the GST number and the GST amount when the business is
 * GST-registered, else a receipt. Rendered on the server; nothing here needs JavaScript, and the
 * print style leaves out the site's header, footer and buttons.
 */
import type { ReceiptState } from '#domain/completion.ts';
import { PAYMENT_METHOD_LABELS } from '#domain/completion.ts';
import { formatNzd } from '#domain/pricing.ts';
import type { PageProps } from '../page-props.ts';
import './ReceiptPage.css';

function Row({ label, value, className }: { label: string; value: string; className?: string }) {
  return (
    <div className={className}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

export default function ReceiptPage({ state }: PageProps<ReceiptState>) {
  const { receipt } = state;
  const taxInvoice = receipt.kind === 'tax-invoice';
  const changed = receipt.amountCents !== receipt.quotedCents;
  const payment = receipt.paid
    ? `Paid${receipt.paymentMethod ? ` (${PAYMENT_METHOD_LABELS[receipt.paymentMethod].toLowerCase()})` : ''}, ${receipt.paidText ?? ''}`
    : `Unpaid: ${formatNzd(receipt.amountCents)} to pay`;
  return (
    <section className="section receipt" aria-labelledby="receipt-title">
      <div className="container narrow">
        <h1 id="receipt-title">{taxInvoice ? `Tax invoice ${receipt.invoiceNumber}` : 'Receipt'}</h1>
        <dl className="receipt-facts">
          {taxInvoice && <Row label="Invoice number" value={String(receipt.invoiceNumber)} />}
          <Row label="Date" value={receipt.dateText} />
          <Row label="From" value={`${receipt.business.name}, ${receipt.business.address}`} />
          {receipt.business.gstNumber && <Row label="GST number" value={receipt.business.gstNumber} />}
          <Row label="To" value={receipt.customer.name} />
          <Row label="Booking reference" value={receipt.reference} />
          <Row label="Description" value={receipt.description} />
          {changed && <Row label="Quoted" value={formatNzd(receipt.quotedCents)} />}
          {changed && <Row label="Change" value={receipt.reason ?? ''} />}
          <Row label={taxInvoice ? 'Total (including GST)' : 'Total'} value={formatNzd(receipt.amountCents)} className="receipt-total" />
          {receipt.gstCents !== null && <Row label="GST included" value={formatNzd(receipt.gstCents)} />}
          <Row label="Payment" value={payment} className={receipt.paid ? undefined : 'receipt-unpaid'} />
        </dl>
        <p className="receipt-contact">{`Questions? Call us on ${receipt.business.phone} or write to ${receipt.business.email}.`}</p>
        <p className="receipt-actions">
          Use your browser&rsquo;s print command to print or save this {taxInvoice ? 'tax invoice' : 'receipt'}.
        </p>
      </div>
    </section>
  );
}
