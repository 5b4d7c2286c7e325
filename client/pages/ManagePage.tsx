/**
 * A customer's own booking, opened by the link in their e-mails (/booking/manage/{token}): what
 * they booked, and until the cutoff a way to cancel it or move it to another time. Every step is a
 * plain link or form (GET pages that only show, POSTs that change), so it all works without
 * JavaScript; the server decides which view to render and nothing here needs to run to use it.
 */
import { useState } from 'react';
import { telHref } from '#domain/business.ts';
import { durationText } from '#domain/catalogue.ts';
import { awaitingConfirmationText, CONFIRM_BOOKING_LABEL, cutoffExplanation, MANAGE_MESSAGES, moveLimitExplanation } from '#domain/manage-rules.ts';
import { adjustmentLabel, discountLabel, formatNzd, lineLabel, TRAVEL_FEE_LABEL } from '#domain/pricing.ts';
import { weatherMoveText } from '#domain/weather-day.ts';
import { errorFor } from '../components/field-errors.ts';
import type { PageProps } from '../page-props.ts';
import type { ManagedBooking, ManageMove, ManageState } from '../page-state.ts';
import { Fact, FactList } from '../components/FactList.tsx';
import './ManagePage.css';

const STATUS_TEXT: Record<string, string> = {
  pending: 'Received, waiting for our confirmation',
  confirmed: 'Confirmed',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

const HEADINGS: Record<ManageState['view'], string> = {
  overview: 'Your booking',
  cancel: 'Cancel your booking?',
  move: 'Move your booking',
  'confirm-move': 'Move your booking?',
};

function BookingFacts({ booking }: { booking: ManagedBooking }) {
  const { quote } = booking;
  // One line: the package is named above, so its price reads as the list price (as in the e-mails).
  const lines = quote.lines ?? [];
  const where = `${booking.where.kind === 'dropoff' ? 'Drop-off at our service centre' : 'At your address'}: ${booking.where.lines.join(', ')}`;
  return (
    <FactList className="manage-facts">
      <Fact label="Reference" value={booking.reference} />
      <Fact label="Status" value={STATUS_TEXT[booking.status] ?? booking.status} alert={booking.status === 'cancelled'} />
      {booking.vehicles > 1 ? (
        <Fact label="Vehicles" value={`${booking.vehicles} vehicles`} />
      ) : (
        <>
          <Fact label="Package" value={booking.service} />
          <Fact label="Vehicle" value={booking.vehicle} />
        </>
      )}
      <Fact label="When" value={booking.when} />
      <Fact label="Where" value={where} />
      {lines.length > 1 ? (
        lines.map((line, i) => <Fact key={i} label={lineLabel(line)} value={formatNzd(line.totalCents)} />)
      ) : (
        <Fact label="List price" value={formatNzd(quote.listPriceCents)} />
      )}
      {quote.discount && <Fact label={discountLabel(quote.discount)} value={`−${formatNzd(quote.discountCents)}`} />}
      {quote.travelFeeCents > 0 && <Fact label={TRAVEL_FEE_LABEL} value={formatNzd(quote.travelFeeCents)} />}
      {quote.adjustment && <Fact label={adjustmentLabel(quote.adjustment)} value={formatNzd(quote.adjustment.cents)} />}
      <Fact label="Total (pay on completion)" value={formatNzd(quote.totalCents)} total />
    </FactList>
  );
}

function SlotChoice({ slot, current, checked }: { slot: NonNullable<ManageMove['slots']>[number]; current: boolean; checked: boolean }) {
  const id = `move-time-${slot.time.replace(':', '')}`;
  return (
    <li>
      <input type="radio" id={id} name="time" value={slot.time} defaultChecked={checked} disabled={current || !slot.available} required />
      <label htmlFor={id}>{current ? `${slot.time} – ${slot.end} — your booking` : slot.label}</label>
    </li>
  );
}

function MoveChooser({ base, booking, move }: { base: string; booking: ManagedBooking; move: ManageMove }) {
  const [date, setDate] = useState(move.date);
  const timeError = errorFor(move.errors, 'time');
  const dateError = errorFor(move.errors, 'date');
  return (
    <>
      <form className="manage-date" method="get" action={`${base}/move`}>
        <div className="field">
          <label htmlFor="move-date">New date</label>
          <input
            id="move-date"
            name="date"
            type="date"
            value={date}
            onChange={(event) => setDate(event.target.value)}
            min={move.minDate}
            max={move.maxDate}
            required
            aria-invalid={dateError ? true : undefined}
            aria-describedby={dateError ? 'move-date-error' : undefined}
          />
          {dateError && (
            <p className="field-error" id="move-date-error" role="alert">
              {dateError}
            </p>
          )}
        </div>
        <button type="submit" className="button button-ghost">
          Show times
        </button>
      </form>
      {move.slots && (
        <form method="post" action={`${base}/move`}>
          <input type="hidden" name="version" value={booking.version} />
          <input type="hidden" name="date" value={move.date} />
          <fieldset className="manage-slots" aria-describedby={timeError ? 'move-time-error' : undefined}>
            <legend>{`Times on ${move.dateText ?? move.date}`}</legend>
            <p className="field-hint">{`Your booking takes ${durationText(move.durationMinutes)}: each time shows when it would end.`}</p>
            <ul>
              {move.slots.map((slot) => (
                <SlotChoice key={slot.time} slot={slot} current={move.date === booking.date && slot.time === booking.time} checked={slot.time === move.time && slot.available} />
              ))}
            </ul>
            {timeError && (
              <p className="field-error" id="move-time-error" role="alert">
                {timeError}
              </p>
            )}
          </fieldset>
          <p className="actions">
            <button type="submit" className="button button-primary">
              Continue
            </button>
            <a className="button button-ghost" href={base}>
              Keep my booking as it is
            </a>
          </p>
        </form>
      )}
      {!move.slots && (
        <p>
          <a className="text-link" href={base}>
            Keep my booking as it is
          </a>
        </p>
      )}
    </>
  );
}

/** The last step of a change: the question, the form's values carried as hidden fields, yes or back. */
function Confirmation({ action, question, fields, yes, no }: { action: string; question: string; fields: Record<string, string | number>; yes: string; no: { href: string; label: string } }) {
  return (
    <form className="manage-confirm card" method="post" action={action}>
      <p>{question}</p>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <input type="hidden" name="confirm" value="yes" />
      <p className="actions">
        <button type="submit" className="button button-primary">
          {yes}
        </button>
        <a className="button button-ghost" href={no.href}>
          {no.label}
        </a>
      </p>
    </form>
  );
}

export default function ManagePage({ business, state }: PageProps<ManageState>) {
  const { booking, view, lock, move } = state;
  const base = `/booking/manage/${state.token}`;
  return (
    <section className="section manage" aria-labelledby="manage-title">
      <div className="container narrow">
        <p className="eyebrow">{`Booking ${booking.reference}`}</p>
        <h1 id="manage-title">{HEADINGS[view]}</h1>
        {state.notice && (
          <p className="notice notice-success" role="status">
            {state.notice}
          </p>
        )}
        {state.error && (
          <p className="notice notice-error" role="alert">
            {state.error}
          </p>
        )}
        {view === 'cancel' && (
          <Confirmation
            action={`${base}/cancel`}
            question={`Do you want to cancel your ${booking.service} on ${booking.when}? This cannot be undone online.`}
            fields={{ version: booking.version }}
            yes="Yes, cancel my booking"
            no={{ href: base, label: 'No, keep my booking' }}
          />
        )}
        {view === 'confirm-move' && move && (
          <Confirmation
            action={`${base}/move`}
            question={`Do you want to move your booking from ${booking.when} to ${move.when}?`}
            fields={{ version: booking.version, date: move.date, time: move.time }}
            yes="Yes, move my booking"
            no={{ href: `${base}/move?date=${move.date}`, label: 'Choose another time' }}
          />
        )}
        {view === 'move' && move && <MoveChooser base={base} booking={booking} move={move} />}
        {view === 'overview' && booking.awaitingUntil !== null && (
          <form className="notice manage-awaiting" method="post" action={`${base}/confirm-email`}>
            <p>{awaitingConfirmationText(booking.awaitingUntil)}</p>
            <input type="hidden" name="version" value={booking.version} />
            <button type="submit" className="button button-primary">
              {CONFIRM_BOOKING_LABEL}
            </button>
          </form>
        )}
        {view === 'overview' && lock === null && booking.weatherUntil && (
          <div className="notice manage-weather" role="note">
            <p>{weatherMoveText(booking.weatherUntil)}</p>
          </div>
        )}
        <h2 className="manage-subtitle">Booking details</h2>
        <BookingFacts booking={booking} />
        {view === 'overview' && lock === null && state.moveLimit !== null && (
          <div className="notice manage-locked manage-move-limit">
            <p>
              {`${moveLimitExplanation(state.moveLimit, business.phone)} `}
              <a className="text-link" href={telHref(business.phone)}>
                {`Call ${business.phone}`}
              </a>
            </p>
          </div>
        )}
        {view === 'overview' && lock === null && (
          <p className="actions manage-actions">
            {state.moveLimit === null && (
              <a className="button button-primary" href={`${base}/move`}>
                Move booking
              </a>
            )}
            <a className="button button-ghost" href={`${base}/cancel`}>
              Cancel booking
            </a>
          </p>
        )}
        {lock === 'cutoff' && (
          <div className="notice manage-locked">
            <p>
              {`${MANAGE_MESSAGES.locked.cutoff} ${cutoffExplanation(state.cutoffHours, business.phone)} `}
              <a className="text-link" href={telHref(business.phone)}>
                {`Call ${business.phone}`}
              </a>
            </p>
          </div>
        )}
        {lock === 'cancelled' && (
          <p className="manage-locked">
            {`${MANAGE_MESSAGES.locked.cancelled} `}
            <a className="text-link" href="/booking">
              Make a new booking
            </a>
          </p>
        )}
        {lock === 'completed' && <p className="manage-locked">{MANAGE_MESSAGES.locked.completed}</p>}
        <p className="manage-help">{`Questions? Call us on ${business.phone} or e-mail ${business.email}.`}</p>
        <p className="manage-help">
          {'Lost a link to another booking? '}
          <a className="text-link" href="/booking/find">
            Find my booking
          </a>
        </p>
      </div>
    </section>
  );
}
