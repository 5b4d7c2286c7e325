/**
 * Completing a job (issue 21): the final amount (the booking's total unless changed, then with a
 * reason), paid or not, and how. A form in a native modal <dialog>; the server decides and its
 * refusal is shown as it says it. Loaded on demand, so the dashboard's own bundle does not grow.
 */
import { useState, type FormEvent } from 'react';
import { COMPLETION_MESSAGES, PAYMENT_METHOD_LABELS, PAYMENT_METHODS, type PaymentMethod, type Receipt } from '#domain/completion.ts';
import { formatNzd } from '#domain/pricing.ts';
import { ApiError, send, type BookingDto } from '../lib/staff-api.ts';
import { Dialog } from './Dialog.tsx';

export interface CompleteDialogProps {
  booking: BookingDto;
  /** Completed: the booking now, its receipt, and what happened in a sentence for staff. */
  onCompleted(booking: BookingDto, receipt: Receipt, summary: string): void;
  onSignedOut(): void;
  onClose(): void;
}

/** "Aroha’s job completed: $150.00, paid by card. The receipt has been e-mailed to the customer." */
function summaryOf(booking: BookingDto, receipt: Receipt): string {
  const payment = receipt.paid && receipt.paymentMethod ? `paid by ${PAYMENT_METHOD_LABELS[receipt.paymentMethod].toLowerCase()}` : 'unpaid';
  const sent = booking.email ? ' The receipt has been e-mailed to the customer.' : '';
  return `${booking.name}’s job completed: ${formatNzd(receipt.amountCents)}, ${payment}.${sent}`;
}

/** '169.15' → 16915, or undefined when it is not an amount of dollars and cents. */
function centsOf(text: string): number | undefined {
  const match = /^\s*\$?\s*(\d{1,7})(?:\.(\d{1,2}))?\s*$/.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}

export default function CompleteDialog({ booking, onCompleted, onSignedOut, onClose }: CompleteDialogProps) {
  const total = booking.quote.totalCents;
  const [amount, setAmount] = useState((total / 100).toFixed(2));
  const [reason, setReason] = useState('');
  const [paid, setPaid] = useState(true);
  const [method, setMethod] = useState<PaymentMethod>('cash');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const cents = centsOf(amount);
  const changed = cents !== undefined && cents !== total;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (cents === undefined) return setError('Please enter the amount in dollars, e.g. 169.00');
    if (changed && reason.trim() === '') return setError(COMPLETION_MESSAGES.reasonRequired);
    setBusy(true);
    setError(null);
    try {
      const answer = await send<{ booking: BookingDto; receipt: Receipt }>('POST', `/v1/bookings/${booking._id}/completion`, {
        version: booking.version,
        amountCents: cents,
        ...(changed ? { reason: reason.trim() } : {}),
        paid,
        ...(paid ? { paymentMethod: method } : {}),
      });
      onCompleted(answer.booking, answer.receipt, summaryOf(answer.booking, answer.receipt));
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 401) return onSignedOut();
      setError(caught instanceof ApiError ? caught.message : 'The completion could not be saved. Check the connection and try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      id="complete"
      title={`Complete ${booking.name}’s job`}
      closeLabel="Close without completing"
      onClose={onClose}
      onSubmit={submit}
      refusal={error}
      submitLabel="Complete job"
      busy={busy}
    >
      <p>
        {booking.reference} · {booking.service} · total {formatNzd(total)}
      </p>
      <div className="field">
        <label htmlFor="complete-amount">Final amount (NZD, including GST)</label>
        <input id="complete-amount" name="amount" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />
      </div>
      {changed && (
        <div className="field">
          <label htmlFor="complete-reason">Reason for the change</label>
          <input id="complete-reason" name="reason" maxLength={200} value={reason} onChange={(e) => setReason(e.target.value)} />
        </div>
      )}
      <label className="check" htmlFor="complete-paid">
        <input id="complete-paid" type="checkbox" checked={paid} onChange={(e) => setPaid(e.target.checked)} /> Paid now
      </label>
      {paid && (
        <div className="field">
          <label htmlFor="complete-method">Payment method</label>
          <select id="complete-method" name="paymentMethod" value={method} onChange={(e) => setMethod(e.target.value as PaymentMethod)}>
            {PAYMENT_METHODS.map((m) => (
              <option key={m} value={m}>
                {PAYMENT_METHOD_LABELS[m]}
              </option>
            ))}
          </select>
        </div>
      )}
    </Dialog>
  );
}
