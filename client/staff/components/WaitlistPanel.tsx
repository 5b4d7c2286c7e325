/**
 * The Day view's Waitlist section (issue 43): the date's entries in order of joining, each with
 * the customer (phone and e-mail as links), the part of the day they asked for, the job, and where
 * it stands (an offer with the hour its place is held until); a waiting entry can be offered a
 * place by hand at any start at which its job fits now. Shown, and loaded, only for a date that has
 * entries, so neither the dashboard's first bundle nor the Day view's carries it.
 */
import { useState, type FormEvent } from 'react';
import { ApiError } from '../lib/staff-api.ts';
import { waitlistApi, type WaitlistEntryDto, type WaitlistListDto } from '../lib/waitlist-api.ts';
import { ActionResult, type ActionOutcome } from './ActionResult.tsx';
import { hoursText } from './format.ts';
import './StatusBadge.css';
import './WaitlistPanel.css';

/** Each entry's state in the booking badges' colours: waiting as pending, booked as confirmed, an ended one grey. */
const BADGE: Record<WaitlistEntryDto['status'], string> = {
  waiting: 'pending',
  offered: 'offered',
  booked: 'confirmed',
  declined: 'other',
  lapsed: 'other',
  withdrawn: 'other',
  left: 'other',
  ended: 'other',
};

/** The hour an offer's place is held until, on Auckland's clock (where the bookings' times are). */
const AUCKLAND_CLOCK = new Intl.DateTimeFormat('en-GB', { timeZone: 'Pacific/Auckland', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const heldUntil = (iso: string) => AUCKLAND_CLOCK.format(new Date(iso));

const OUTSIDE_PART = { any: '', morning: 'not a morning start', afternoon: 'not an afternoon start' } as const;

export interface WaitlistPanelProps {
  list: WaitlistListDto;
  onSignedOut(): void;
  /** An offer was made, or refused because the entry or the day changed: the Day view reads the day and its waitlist again. */
  onChanged(): void;
}

function OfferForm({ entry, busy, onOffer }: { entry: WaitlistEntryDto; busy: boolean; onOffer(entry: WaitlistEntryDto, time: string): void }) {
  const starts = entry.freeStarts;
  const [time, setTime] = useState(() => (starts.find((start) => start.inPart) ?? starts[0])?.time ?? '');
  if (starts.length === 0) return <p className="waitlist-none">No start fits this job on this date now.</p>;
  // The list may have changed since the choice (read again after an offer): the first start then.
  const chosen = starts.some((start) => start.time === time) ? time : starts[0]!.time;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onOffer(entry, chosen);
  };
  return (
    <form className="waitlist-offer" onSubmit={submit}>
      <label htmlFor={`offer-${entry.id}`}>
        Offer a time<span className="visually-hidden"> to {entry.customer.name}</span>
      </label>
      <select id={`offer-${entry.id}`} value={chosen} onChange={(event) => setTime(event.target.value)}>
        {starts.map((start) => (
          <option key={start.time} value={start.time}>
            {start.inPart ? start.time : `${start.time} (${OUTSIDE_PART[entry.part]})`}
          </option>
        ))}
      </select>
      <button type="submit" className="button button-primary button-small" disabled={busy}>
        Offer<span className="visually-hidden"> {chosen} to {entry.customer.name}</span>
      </button>
    </form>
  );
}

function EntryItem({ entry, busy, onOffer }: { entry: WaitlistEntryDto; busy: boolean; onOffer(entry: WaitlistEntryDto, time: string): void }) {
  const { customer, offer } = entry;
  return (
    <li className={`waitlist-entry waitlist-${entry.status}`}>
      <p className="waitlist-who">
        <strong>{customer.name}</strong> <span className={`status-badge status-${BADGE[entry.status]}`}>{entry.status}</span>
        {entry.status === 'offered' && offer?.expiresAt && <span className="waitlist-held"> held until {heldUntil(offer.expiresAt)}</span>}
      </p>
      <p>{entry.partLabel}</p>
      <p>
        {entry.job}
        {entry.durationMinutes !== null && ` · ${hoursText(entry.durationMinutes)}`} · {entry.serviceType === 'onsite' ? `On-site, ${entry.suburb}` : 'Drop-off'}
      </p>
      <p className="waitlist-contact">
        {customer.phone && <a href={`tel:${customer.phone.replace(/[^+\d]/g, '')}`}>{customer.phone}</a>}
        <a href={`mailto:${customer.email}`}>{customer.email}</a>
      </p>
      {offer && (
        <p>
          {`Offered ${offer.time} ${entry.offeredBy ? `by ${entry.offeredBy}` : 'by the waitlist'} · ${offer.reference}`}
        </p>
      )}
      {entry.status === 'waiting' && <OfferForm entry={entry} busy={busy} onOffer={onOffer} />}
    </li>
  );
}

export default function WaitlistPanel({ list, onSignedOut, onChanged }: WaitlistPanelProps) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);

  const offer = async (entry: WaitlistEntryDto, time: string) => {
    setBusy(true);
    setOutcome(null);
    try {
      const { booking } = await waitlistApi.offer(entry, time);
      setOutcome({ text: `Offered ${booking.time} to ${entry.customer.name}, ${booking.reference}.`, note: 'They have been e-mailed to confirm it before the hold ends.' });
      onChanged();
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 401) return onSignedOut();
      setOutcome({ text: caught instanceof ApiError ? caught.message : 'The offer could not be made. Check the connection and try again.', error: true });
      if (caught instanceof ApiError) onChanged();
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card waitlist" aria-labelledby="waitlist-title">
      <h3 id="waitlist-title">Waitlist</h3>
      <p className="field-hint">In order of joining. A freed place is offered to the first entry that fits automatically; you can also offer a start by hand.</p>
      <ActionResult outcome={outcome} />
      <ol className="waitlist-list">
        {list.data.map((entry) => (
          <EntryItem key={entry.id} entry={entry} busy={busy} onOffer={offer} />
        ))}
      </ol>
    </section>
  );
}
