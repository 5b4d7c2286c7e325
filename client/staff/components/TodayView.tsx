/**
 * Today, on a phone (issue 21): each van's and bay's jobs in order, with the start and end, the
 * package and vehicle, the address as a directions link, tap-to-call and tap-to-text, the internal
 * notes, and the detailer's buttons: "On the way" (e-mails the customer once, with the arrival
 * time), "Started" and "Complete" (the completion form). Each van says its zones and about how
 * long it drives that day (issue 40), and how many visits of regular plans wait for a time
 * (issue 43). Loaded when its tab is first opened.
 */
import { Suspense, useCallback, useEffect, useState } from 'react';
import { lazyPart } from '../lib/lazy-part.ts';
import { telHref } from '#domain/business.ts';
import { directionsUrl, oneLineAddress, OUTSIDE_SERVICE_AREA } from '#domain/van-day.ts';
import { ApiError, send, staffApi, type BookingDto, type ScheduleDayDto, type ScheduleLaneDto, type StatusChangeDto } from '../lib/staff-api.ts';
import { takeEarly } from '../lib/early-data.ts';
import { plansApi } from '../lib/plans-api.ts';
import { useOpening } from '../lib/use-opening.ts';
import { hoursText, longDate, plural } from './format.ts';
import { ConfirmationBadge, StatusBadge } from './StatusBadge.tsx';
import './TodayView.css';

const BookingNotes = lazyPart('staff/components/BookingNotes.tsx', () => import('./BookingNotes.tsx'));

type Changed = { booking: BookingDto; history: StatusChangeDto[] };

/** The Auckland wall time of an instant: '9:05 am'. */
const clockOf = (iso: string) =>
  new Intl.DateTimeFormat('en-NZ', { timeZone: 'Pacific/Auckland', hour: 'numeric', minute: '2-digit', hour12: true }).format(new Date(iso)).replace(/\s/g, ' ');

const smsHref = (phone: string) => telHref(phone).replace(/^tel:/, 'sms:');
const isOpen = (b: BookingDto) => b.status === 'pending' || b.status === 'confirmed';

/**
 * A van's day of driving in words: out from the service centre, between its stops and back, under
 * today's travel times; the drive to and from a stop outside the service area is not known, so it
 * is left out and said to be.
 */
function drivingText(route: NonNullable<ScheduleLaneDto['route']>): string {
  const unknown = route.unknownStops > 0 ? `, not counting the drive to and from ${plural(route.unknownStops, 'stop')} outside the service area` : '';
  return `About ${hoursText(route.minutes)} driving today, from the service centre and back${unknown}`;
}

const ARRIVAL_CHOICES = [10, 15, 20, 30, 45, 60];

function Job({
  booking,
  zoneName,
  onChanged,
  onComplete,
  onSignedOut,
}: {
  booking: BookingDto;
  zoneName: string | null;
  onChanged(b: BookingDto): void;
  onComplete?(b: BookingDto): void;
  onSignedOut(): void;
}) {
  const [minutes, setMinutes] = useState(20);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; error?: boolean } | null>(null);
  const [notesOpen, setNotesOpen] = useState(false);
  // The notes are loaded when first opened (see useOpening).
  const notes = useOpening();
  const who = `${booking.name}’s job at ${booking.time}`;

  const act = async (what: 'on-the-way' | 'started') => {
    setBusy(true);
    setMessage(null);
    try {
      const changed = await send<Changed>('POST', `/v1/bookings/${booking._id}/${what}`, what === 'on-the-way' ? { version: booking.version, minutes } : { version: booking.version });
      onChanged(changed.booking);
      setMessage({ text: what === 'on-the-way' ? (changed.booking.email ? 'The customer has been e-mailed.' : 'Recorded (no e-mail address to tell).') : 'Started.' });
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 401) return onSignedOut();
      setMessage({ text: caught instanceof Error ? caught.message : 'That did not work; please try again.', error: true });
    } finally {
      setBusy(false);
    }
  };

  return (
    <li className={`today-job today-${booking.status}`}>
      <p className="today-when">
        <strong>
          {clockOf(booking.startsAt)} – {clockOf(booking.endsAt)}
        </strong>{' '}
        <StatusBadge status={booking.status} /> <ConfirmationBadge booking={booking} />
      </p>
      <p className="today-what">
        <strong>{booking.service}</strong>
        {booking.coatingType ? ` (${booking.coatingType})` : ''} · {booking.vehicleType.toUpperCase()} · {booking.name}
      </p>
      <p className="today-where">
        {booking.serviceType === 'onsite' ? (
          <a className="text-link" href={directionsUrl(oneLineAddress(booking))} target="_blank" rel="noopener noreferrer">
            <span className="visually-hidden">Directions to </span>
            {oneLineAddress(booking)}
            <span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        ) : (
          'Drop-off at the service centre'
        )}
        {booking.landmark ? ` · ${booking.landmark}` : ''}
      </p>
      {booking.outsideServiceArea ? <p className="today-zone today-outside">{OUTSIDE_SERVICE_AREA}</p> : zoneName && <p className="today-zone">{zoneName}</p>}
      {booking.notes && <p className="today-notes">Customer’s notes: {booking.notes}</p>}
      <p className="today-contact">
        <a className="button button-ghost button-small" href={telHref(booking.phone)}>
          Call<span className="visually-hidden"> {booking.name}</span>
        </a>
        <a className="button button-ghost button-small" href={smsHref(booking.phone)}>
          Text<span className="visually-hidden"> {booking.name}</span>
        </a>
        <button type="button" className="button button-ghost button-small" aria-expanded={notesOpen} aria-busy={notes.busy('notes')} onClick={() => notes.open('notes', () => setNotesOpen((open) => !open))}>
          Notes<span className="visually-hidden"> on {who}</span>
        </button>
      </p>
      <Suspense fallback={null}>{notesOpen && <BookingNotes bookingId={booking._id} onSignedOut={onSignedOut} />}</Suspense>
      {isOpen(booking) && (
        <div className="today-actions">
          {booking.serviceType === 'onsite' &&
            (booking.onTheWayAt ? (
              <p className="today-done">On the way since {clockOf(booking.onTheWayAt)}, arriving about {clockOf(booking.arrivingAt!)}</p>
            ) : (
              <span className="today-on-the-way">
                <label htmlFor={`arrive-${booking._id}`}>Arriving in</label>
                <select id={`arrive-${booking._id}`} value={minutes} onChange={(e) => setMinutes(Number(e.target.value))}>
                  {ARRIVAL_CHOICES.map((m) => (
                    <option key={m} value={m}>
                      {m} min
                    </option>
                  ))}
                </select>
                <button type="button" className="button button-primary button-small" disabled={busy} onClick={() => act('on-the-way')}>
                  On the way<span className="visually-hidden"> to {who}</span>
                </button>
              </span>
            ))}
          {booking.startedAt ? (
            <p className="today-done">Started at {clockOf(booking.startedAt)}</p>
          ) : (
            <button type="button" className="button button-ghost button-small" disabled={busy} onClick={() => act('started')}>
              Started<span className="visually-hidden"> {who}</span>
            </button>
          )}
          {onComplete && (
            <button type="button" className="button button-accent button-small" disabled={busy} onClick={() => onComplete(booking)}>
              Complete<span className="visually-hidden"> {who}</span>
            </button>
          )}
        </div>
      )}
      <div role="status">{message && <p className={message.error ? 'notice notice-error' : 'today-message'}>{message.text}</p>}</div>
    </li>
  );
}

export default function TodayView({ onSignedOut, onComplete }: { onSignedOut(): void; onComplete?(booking: BookingDto): void }) {
  const [day, setDay] = useState<ScheduleDayDto | null>(null);
  const [error, setError] = useState<string | null>(null);

  /** Today's schedule (`first`: the request sent when the tab was tapped). */
  const load = useCallback(async (first = false) => {
    try {
      setDay(await (first ? takeEarly('today-schedule') : staffApi.schedule('')));
      setError(null);
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 401) return onSignedOut();
      setError('The day could not be loaded. Please try again.');
    }
  }, [onSignedOut]);

  useEffect(() => {
    void load(true);
  }, [load]);

  // Visits of regular plans that fit nowhere near their date: advisory, so a failure shows nothing.
  const [needsTime, setNeedsTime] = useState(0);
  useEffect(() => {
    plansApi.list().then((answer) => setNeedsTime(answer.needsTime), () => undefined);
  }, []);

  const replace = (changed: BookingDto) =>
    setDay((current) => current && { ...current, lanes: current.lanes.map((lane) => ({ ...lane, jobs: lane.jobs.map((job) => (job._id === changed._id ? changed : job)) })) });

  if (error) return <p className="notice notice-error">{error}</p>;
  if (!day) {
    return (
      <div className="spinner" role="status">
        <span className="visually-hidden">Loading today…</span>
      </div>
    );
  }
  const lanes = day.lanes.filter((lane) => lane.jobs.length > 0);
  const zoneOf = new Map(day.lanes.flatMap((lane) => lane.route?.stops.map((stop) => [stop.bookingId, stop.zoneName] as const) ?? []));
  const unassigned = day.unassigned.filter((job) => job.date === day.date);
  return (
    <div className="today">
      <h2 className="today-title">
        Today, {longDate(day.date)}{' '}
        <button type="button" className="button button-ghost button-small" onClick={() => void load()}>
          Refresh
        </button>
      </h2>
      {needsTime > 0 && <p className="notice today-plans">{`${plural(needsTime, 'visit')} of regular plans ${needsTime === 1 ? 'needs' : 'need'} a time: see Plans.`}</p>}
      {lanes.length === 0 && unassigned.length === 0 && <p>No jobs today.</p>}
      {[
        ...lanes.map((lane) => ({ key: lane.resource.id, name: lane.resource.name, jobs: lane.jobs, route: lane.route })),
        ...(unassigned.length ? [{ key: 'none', name: 'Needs a van or bay', jobs: unassigned, route: null }] : []),
      ].map(
        (group) => (
          <section key={group.key} className="today-lane" aria-labelledby={`today-${group.key}`}>
            <h3 id={`today-${group.key}`}>{group.name}</h3>
            {group.route && <p className="today-driving">{drivingText(group.route)}</p>}
            <ol className="today-jobs">
              {[...group.jobs]
                .sort((a, b) => a.startsAt.localeCompare(b.startsAt))
                .map((job) => (
                  <Job key={job._id} booking={job} zoneName={zoneOf.get(job._id) ?? null} onChanged={replace} onComplete={onComplete} onSignedOut={onSignedOut} />
                ))}
            </ol>
          </section>
        ),
      )}
    </div>
  );
}
