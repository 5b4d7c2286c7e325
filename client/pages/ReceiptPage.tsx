/**
 * A completed job's receipt, printable (/booking/receipt/{token}, the manage link's token): a
 * tax invoice with its number, the GST number and the GST amount when the business is
 * GST-registered, else a receipt. Rendered on the server; nothing here needs JavaScript, and the
 * print style leaves out the site's header, footer and buttons.
 */
import type { ReceiptState } from '#domain/completion.ts';
import { PAYMENT_METHOD_LABELS } from '#domain/completion.ts';
import { formatNzd, lineLabel, TRAVEL_FEE_LABEL } from '#domain/pricing.ts';
import type { PageProps } from '../page-props.ts';
import { Fact, FactList } from '../components/FactList.tsx';
import './ReceiptPage.css';

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
        <FactList className="receipt-facts">
          {taxInvoice && <Fact label="Invoice number" value={String(receipt.invoiceNumber)} />}
          <Fact label="Date" value={receipt.dateText} />
          <Fact label="From" value={`${receipt.business.name}, ${receipt.business.address}`} />
          {receipt.business.gstNumber && <Fact label="GST number" value={receipt.business.gstNumber} />}
          <Fact label="To" value={receipt.customer.name} />
          <Fact label="Booking reference" value={receipt.reference} />
          <Fact label="Description" value={receipt.description} />
          {receipt.lines.map((line, i) => (
            <Fact key={i} label={lineLabel(line)} value={formatNzd(line.amountCents)} />
          ))}
          {receipt.travelFeeCents > 0 && <Fact label={TRAVEL_FEE_LABEL} value={formatNzd(receipt.travelFeeCents)} />}
          {changed && <Fact label="Quoted" value={formatNzd(receipt.quotedCents)} />}
          {changed && <Fact label="Change" value={receipt.reason ?? ''} />}
          <Fact label={taxInvoice ? 'Total (including GST)' : 'Total'} value={formatNzd(receipt.amountCents)} total />
          {receipt.gstCents !== null && <Fact label="GST included" value={formatNzd(receipt.gstCents)} />}
          <Fact label="Payment" value={payment} alert={!receipt.paid} />
        </FactList>
        <p className="receipt-contact">{`Questions? Call us on ${receipt.business.phone} or write to ${receipt.business.email}.`}</p>
        <p className="receipt-actions">
          Use your browser&rsquo;s print command to print or save this {taxInvoice ? 'tax invoice' : 'receipt'}.
        </p>
      </div>
    </section>
  );
}
