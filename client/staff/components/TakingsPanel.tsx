/**
 * Takings (issue 21): for a range of completion dates, the jobs completed, what was taken by
 * payment method, the GST, and the jobs still unpaid, each with a way to record its payment; the
 * packages and add-ons done, how many and for how much (issue 41); the same jobs as CSV. Loaded when its tab is first opened.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS, type PaymentMethod } from '#domain/completion.ts';
import { formatNzd } from '#domain/pricing.ts';
import { aucklandToday } from '../lib/auckland-today.ts';
import { ApiError, call, send } from '../lib/staff-api.ts';
import './TakingsPanel.css';

interface TakingsJob {
  bookingId: string;
  version: number;
  reference: string;
  name: string;
  completedAt: string;
  amountCents: number;
  gstCents: number;
  paymentMethod: PaymentMethod | null;
  paidAt: string | null;
  invoiceNumber: number | null;
}

interface Takings {
  from: string;
  to: string;
  completed: { count: number; amountCents: number; gstCents: number };
  taken: { byMethod: Record<PaymentMethod, number>; totalCents: number; gstCents: number };
  unpaid: { count: number; amountCents: number; jobs: TakingsJob[] };
  byPackage: WorkTaking[];
  byAddOn: WorkTaking[];
}

interface WorkTaking {
  code: string;
  name: string;
  count: number;
  amountCents: number;
}

/** The packages or the add-ons done: how many and their lines' amount at list price. */
function WorkTable({ caption, work }: { caption: string; work: WorkTaking[] }) {
  if (work.length === 0) return null;
  return (
    <table className="takings-work">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Done</th>
          <th scope="col">Amount</th>
        </tr>
      </thead>
      <tbody>
        {work.map((w) => (
          <tr key={w.code}>
            <th scope="row">{w.name}</th>
            <td>{w.count}</td>
            <td>{formatNzd(w.amountCents)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function UnpaidJob({ job, onPaid, onSignedOut }: { job: TakingsJob; onPaid(): void; onSignedOut(): void }) {
  const [method, setMethod] = useState<PaymentMethod>('cash');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const record = async () => {
    setBusy(true);
    setError(null);
    try {
      await send('POST', `/v1/bookings/${job.bookingId}/payment`, { version: job.version, paymentMethod: method });
      onPaid();
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 401) return onSignedOut();
      setError(caught instanceof ApiError ? caught.message : 'The payment could not be saved. Check the connection and try again.');
    } finally {
      setBusy(false);
    }
  };
  const id = `unpaid-method-${job.bookingId}`;
  return (
    <li className="takings-unpaid-job">
      <span>
        {job.reference} · {job.name} · {formatNzd(job.amountCents)}
      </span>
      <label htmlFor={id} className="visually-hidden">
        Payment method for {job.reference}
      </label>
      <select id={id} value={method} onChange={(e) => setMethod(e.target.value as PaymentMethod)}>
        {PAYMENT_METHODS.map((m) => (
          <option key={m} value={m}>
            {PAYMENT_METHOD_LABELS[m]}
          </option>
        ))}
      </select>
      <button type="button" className="button button-small" disabled={busy} onClick={record}>
        Record payment<span className="visually-hidden"> for {job.reference}</span>
      </button>
      {error && (
        <span className="notice notice-error" role="alert">
          {error}
        </span>
      )}
    </li>
  );
}

export default function TakingsPanel({ onSignedOut }: { onSignedOut(): void }) {
  const today = aucklandToday();
  const [range, setRange] = useState({ from: today, to: today });
  const [takings, setTakings] = useState<Takings | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    async (from: string, to: string) => {
      setError(null);
      try {
        setTakings(await call<Takings>(`/v1/takings?from=${from}&to=${to}`));
      } catch (caught) {
        if (caught instanceof ApiError && caught.status === 401) return onSignedOut();
        setError(caught instanceof ApiError ? caught.message : 'The takings could not be loaded. Check the connection and try again.');
      }
    },
    [onSignedOut],
  );
  useEffect(() => void load(today, today), [load, today]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void load(range.from, range.to);
  };

  return (
    <section className="takings" aria-labelledby="takings-title">
      <h2 id="takings-title">Takings</h2>
      <form className="takings-range" onSubmit={submit}>
        <label htmlFor="takings-from">From</label>
        <input id="takings-from" type="date" value={range.from} onChange={(e) => setRange((r) => ({ ...r, from: e.target.value }))} />
        <label htmlFor="takings-to">To</label>
        <input id="takings-to" type="date" value={range.to} onChange={(e) => setRange((r) => ({ ...r, to: e.target.value }))} />
        <button type="submit" className="button button-small">
          Show
        </button>
        <a className="button button-ghost button-small" href={`/v1/takings.csv?from=${range.from}&to=${range.to}`} download>
          Download CSV
        </a>
        <a className="button button-ghost button-small" href={`/v1/takings/xero.csv?from=${range.from}&to=${range.to}`} download>
          Invoices for Xero
        </a>
      </form>
      {error && (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      )}
      {takings && (
        <>
          <table className="takings-table">
            <caption>
              {takings.completed.count} {takings.completed.count === 1 ? 'job' : 'jobs'} completed, {formatNzd(takings.completed.amountCents)}
            </caption>
            <tbody>
              {PAYMENT_METHODS.map((m) => (
                <tr key={m}>
                  <th scope="row">{PAYMENT_METHOD_LABELS[m]}</th>
                  <td>{formatNzd(takings.taken.byMethod[m])}</td>
                </tr>
              ))}
              <tr>
                <th scope="row">Total taken</th>
                <td>{formatNzd(takings.taken.totalCents)}</td>
              </tr>
              <tr>
                <th scope="row">GST in it</th>
                <td>{formatNzd(takings.taken.gstCents)}</td>
              </tr>
              <tr>
                <th scope="row">Unpaid</th>
                <td>
                  {formatNzd(takings.unpaid.amountCents)} ({takings.unpaid.count})
                </td>
              </tr>
            </tbody>
          </table>
          <WorkTable caption="By package (list prices)" work={takings.byPackage} />
          <WorkTable caption="By add-on (list prices)" work={takings.byAddOn} />
          {takings.unpaid.jobs.length > 0 && (
            <>
              <h3>Unpaid jobs</h3>
              <ul className="takings-unpaid">
                {takings.unpaid.jobs.map((job) => (
                  <UnpaidJob key={job.bookingId} job={job} onPaid={() => void load(takings.from, takings.to)} onSignedOut={onSignedOut} />
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </section>
  );
}
