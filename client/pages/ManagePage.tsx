/**
 * A customer's own booking, opened by the link in their e-mails (/booking/manage/{token}): what
 * they booked, and until the cutoff a way to cancel it or move it to another time. Every step is a
 * plain link or form (GET pages that only show, POSTs that change), so it all works without
 * JavaScript; the server decides which view to render and nothing here needs to run to use it.
 * A booking can be made a regular plan here, and a plan's visit kept or skipped (issue 43); the
 * plan itself has its own page (PlanPage).
 */
import { useState } from 'react';
import { telHref } from '#domain/business.ts';
import { durationText } from '#domain/catalogue.ts';
import { awaitingConfirmationText, CONFIRM_BOOKING_LABEL, cutoffExplanation, MANAGE_MESSAGES, moveLimitExplanation } from '#domain/manage-rules.ts';
import { adjustmentLabel, discountLabel, formatNzd, lineLabel, TRAVEL_FEE_LABEL } from '#domain/pricing.ts';
import { weatherMoveText } from '#domain/weather-day.ts';
import { WAITLIST_OFFER_WORDS } from '#domain/waitlist-words.ts';
import { errorFor } from '../components/field-errors.ts';
import type { PageProps } from '../page-props.ts';
import type { ManagedBooking, ManageMove, ManagePlan, ManageState, PlanIntervalChoice } from '../page-state.ts';
import { Fact, FactList } from '../components/FactList.tsx';
import { IntervalSelect } from '../components/IntervalSelect.tsx';
import { Notices } from '../components/Notices.tsx';
import './ManagePage.css';

const STATUS_TEXT: Record<string, string> = {
  offered: 'Offered to you from the waitlist: waiting for your answer',
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
  skip: 'Skip this visit?',
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

/** The booking is part of a plan: how often, the way to the plan's page, and for a visit still to come "keep" and "skip". */
function PlanPart({ base, plan, version, showActions }: { base: string; plan: ManagePlan; version: number; showActions: boolean }) {
  const { visit } = plan;
  return (
    <section className="manage-plan card" aria-labelledby="manage-plan-title">
      <h2 id="manage-plan-title">Regular plan</h2>
      <p>
        {`Part of your regular plan: ${plan.interval}${plan.status === 'paused' ? ' (paused)' : plan.status === 'stopped' ? ' (stopped)' : ''}. `}
        <a className="text-link" href={`${base}/plan`}>
          See your plan
        </a>
      </p>
      {showActions && visit && (visit.canKeep || visit.canSkip) && (
        <div className="actions">
          {visit.canKeep && (
            <form method="post" action={`${base}/keep`}>
              <input type="hidden" name="version" value={version} />
              <button type="submit" className="button button-primary">
                Keep this visit
              </button>
            </form>
          )}
          {visit.canSkip && (
            <a className="button button-ghost" href={`${base}/skip`}>
              Skip this visit
            </a>
          )}
        </div>
      )}
    </section>
  );
}

/** The two answers to an offer, each a plain form of its own. */
const OFFER_ANSWERS = [
  { answer: 'yes', label: WAITLIST_OFFER_WORDS.confirmButton, look: 'button-primary' },
  { answer: 'no', label: WAITLIST_OFFER_WORDS.declineButton, look: 'button-ghost' },
] as const;

/** A place offered from the waitlist (issue 43): confirm it, or let the next person have it. Two plain forms. */
function OfferAnswer({ base, booking, text }: { base: string; booking: ManagedBooking; text: string }) {
  return (
    <section className="notice manage-offer" aria-labelledby="manage-offer-title">
      <h2 id="manage-offer-title">{WAITLIST_OFFER_WORDS.offerHeading}</h2>
      <p>{text}</p>
      <div className="actions">
        {OFFER_ANSWERS.map(({ answer, label, look }) => (
          <form key={answer} method="post" action={`${base}/offer`}>
            <input type="hidden" name="version" value={booking.version} />
            <input type="hidden" name="answer" value={answer} />
            <button type="submit" className={`button ${look}`}>
              {label}
            </button>
          </form>
        ))}
      </div>
    </section>
  );
}

/** An upcoming booking not in a plan: "Make this a regular valet". */
function MakePlan({ base, intervals }: { base: string; intervals: PlanIntervalChoice[] }) {
  return (
    <section className="manage-plan card" aria-labelledby="manage-make-plan-title">
      <h2 id="manage-make-plan-title">Make this a regular valet</h2>
      <p>The same job on the same weekday and time, booked for you ahead: each visit gets its own booking and e-mail. Skip a visit, pause or stop the plan whenever you like.</p>
      <form className="manage-plan-form" method="post" action={`${base}/plan`}>
        <IntervalSelect id="plan-interval" intervals={intervals} />
        <button type="submit" className="button button-primary">
          Make it regular
        </button>
      </form>
    </section>
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
        <Notices notice={state.notice} error={state.error} />
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
        {view === 'skip' && (
          <Confirmation
            action={`${base}/skip`}
            question={`Do you want to skip your visit on ${booking.when}? Its booking is cancelled; your regular plan carries on with the next visit.`}
            fields={{ version: booking.version }}
            yes="Yes, skip this visit"
            no={{ href: base, label: 'No, keep this visit' }}
          />
        )}
        {view === 'move' && move && <MoveChooser base={base} booking={booking} move={move} />}
        {view === 'overview' && state.offer && <OfferAnswer base={base} booking={booking} text={state.offer.text} />}
        {lock === 'offered' && !state.offer && <p className="manage-locked">{WAITLIST_OFFER_WORDS.offerEnded}</p>}
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
        {state.plan && <PlanPart base={base} plan={state.plan} version={booking.version} showActions={view === 'overview'} />}
        {view === 'overview' && state.planIntervals && <MakePlan base={base} intervals={state.planIntervals} />}
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
