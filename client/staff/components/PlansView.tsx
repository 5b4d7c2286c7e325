/**
 * The "Plans" view (issue 43): every maintenance plan with its customer, interval, next visit and
 * status, and a "Needs a time" badge counting its visits that did not fit near their date; a
 * filter by status. A plan opens on its own page: its visits (each with its booking, or the
 * starts offered while it waits for a time, as buttons that book it), pause or resume, a new
 * interval, and stop after a confirmation. A customer's page lists their plans with the same
 * cards and opens them on the same page (CustomersView). Loaded when the tab is first opened.
 */
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../lib/staff-api.ts';
import { intervalLabel, plansApi, PLAN_INTERVALS, weekdaysLabel, type PlanDetailsDto, type PlanDto, type PlanStartDto, type PlanStatusFilter, type PlanVisitDto } from '../lib/plans-api.ts';
import { Dialog } from './Dialog.tsx';
import { StatusBadge } from './StatusBadge.tsx';
import { cardDate, dateTime, plural } from './format.ts';
import './StatusBadge.css';
import './PlansView.css';

const STATUS_LABELS: Record<PlanDto['status'], string> = { active: 'Active', paused: 'Paused', stopped: 'Stopped' };

/** The start times staff may choose for a visit that waits for a time: on the hour, as the Day view offers. */
const HOURS = Array.from({ length: 14 }, (_, i) => `${String(7 + i).padStart(2, '0')}:00`);

/** Today in the browser, as YYYY-MM-DD: which visits are still to come (the server decides what may be changed). */
function localToday(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

const startText = (start: PlanStartDto) => `${cardDate(start.date)}, ${start.time}`;

export function PlanStatusBadge({ status }: { status: PlanDto['status'] }) {
  return <span className={`status-badge plan-status-${status}`}>{STATUS_LABELS[status]}</span>;
}

export function NeedsTimeBadge({ count }: { count: number }) {
  return count > 0 ? <span className="status-badge plan-needs-time">{`Needs a time: ${count}`}</span> : null;
}

/** 'Every 4 weeks · Wednesdays at 10:00 · On site'. */
const scheduleText = (plan: PlanDto) => `${intervalLabel(plan.intervalWeeks)} · ${weekdaysLabel(plan.weekday)} at ${plan.time} · ${plan.serviceType === 'dropoff' ? 'Drop-off' : 'On site'}`;

/** The plans as cards, each opened by its button: named by its customer in the view, by its interval on the customer's own page. */
export function PlanCards({ plans, onOpen, withCustomer = true }: { plans: PlanDto[]; onOpen(id: string): void; withCustomer?: boolean }) {
  return (
    <ul className="plans">
      {plans.map((plan) => (
        <li key={plan.id} className="card plan-card">
          <div className="plan-card-head">
            <button type="button" className="plan-open" onClick={() => onOpen(plan.id)}>
              {withCustomer ? plan.customer.name : intervalLabel(plan.intervalWeeks)}
              <span className="visually-hidden">{withCustomer ? ` (${intervalLabel(plan.intervalWeeks).toLowerCase()})` : ` (${plan.customer.name}’s plan)`}</span>
            </button>
            <span className="plan-badges">
              <PlanStatusBadge status={plan.status} /> <NeedsTimeBadge count={plan.needsTime} />
            </span>
          </div>
          <p>{scheduleText(plan)}</p>
          <p>{`Next visit: ${plan.nextVisit ? startText(plan.nextVisit) : '—'}`}</p>
        </li>
      ))}
    </ul>
  );
}

/** What an action answered, announced to screen readers. */
type Outcome = { text: string; error?: boolean } | null;

function VisitItem({ visit, busy, onSkip, onBook }: { visit: PlanVisitDto; busy: boolean; onSkip(): void; onBook(start: PlanStartDto): void }) {
  const [date, setDate] = useState(visit.dueDate);
  const [time, setTime] = useState(visit.offered[0]?.time ?? '10:00');
  const due = cardDate(visit.dueDate);
  const upcoming = visit.state === 'needs-time' || (visit.state === 'booked' && visit.booking !== null && (visit.booking.status === 'pending' || visit.booking.status === 'confirmed') && visit.booking.date >= localToday());
  const other = (event: FormEvent) => {
    event.preventDefault();
    onBook({ date, time });
  };
  return (
    <li className={`card plan-visit plan-visit-${visit.state}`}>
      <div className="plan-card-head">
        <h4>{`Due ${due}`}</h4>
        {visit.state === 'needs-time' ? (
          <span className="status-badge plan-needs-time">Needs a time</span>
        ) : visit.state === 'skipped' ? (
          <span className="status-badge status-other">Skipped</span>
        ) : (
          visit.booking && <StatusBadge status={visit.booking.status} />
        )}
      </div>
      {visit.booking && (
        <p>{`${visit.booking.reference} · ${startText(visit.booking)}${visit.state === 'skipped' ? ` · booking ${visit.booking.status}` : ''}${visit.keptAt ? ` · kept by the customer ${dateTime(visit.keptAt)}` : ''}`}</p>
      )}
      {visit.state === 'needs-time' && (
        <>
          <p>{visit.offered.length > 0 ? 'Offered to the customer (book one for them):' : 'No free start was found near its date.'}</p>
          {visit.offered.length > 0 && (
            <div className="plan-offers">
              {visit.offered.map((start) => (
                <button key={`${start.date} ${start.time}`} type="button" className="button button-accent button-small" disabled={busy} onClick={() => onBook(start)}>
                  {`Book ${startText(start)}`}
                  <span className="visually-hidden">{` for the visit due ${due}`}</span>
                </button>
              ))}
            </div>
          )}
          <details className="plan-other-time">
            <summary>Another time</summary>
            <form className="plan-other-form" onSubmit={other}>
              <div className="field">
                <label htmlFor={`other-date-${visit.dueDate}`}>Date</label>
                <input id={`other-date-${visit.dueDate}`} type="date" required value={date} onChange={(e) => setDate(e.target.value)} />
              </div>
              <div className="field">
                <label htmlFor={`other-time-${visit.dueDate}`}>Start</label>
                <select id={`other-time-${visit.dueDate}`} value={time} onChange={(e) => setTime(e.target.value)}>
                  {HOURS.map((h) => (
                    <option key={h}>{h}</option>
                  ))}
                </select>
              </div>
              <button type="submit" className="button button-primary button-small" disabled={busy}>
                Book<span className="visually-hidden">{` the visit due ${due} then`}</span>
              </button>
            </form>
          </details>
        </>
      )}
      {upcoming && (
        <p className="plan-visit-actions">
          <button type="button" className="button button-ghost button-small" disabled={busy} onClick={onSkip}>
            Skip<span className="visually-hidden">{` the visit due ${due}`}</span>
          </button>
        </p>
      )}
    </li>
  );
}

export function PlanPage({ id, backLabel, onBack, onSignedOut }: { id: string; backLabel: string; onBack(): void; onSignedOut(): void }) {
  const [plan, setPlan] = useState<PlanDetailsDto | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);
  const [weeks, setWeeks] = useState<number | null>(null);
  const [stopping, setStopping] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const loaded = useRef(false);

  const load = useCallback(
    () =>
      plansApi.one(id).then(
        (answer) => {
          setPlan(answer);
          setWeeks(answer.intervalWeeks);
        },
        (caught) => (caught instanceof ApiError && caught.status === 401 ? onSignedOut() : setLoadError(caught instanceof ApiError ? caught.message : 'The plan could not be loaded.')),
      ),
    [id, onSignedOut],
  );
  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    if (plan && !loaded.current) {
      loaded.current = true;
      heading.current?.focus();
    }
  }, [plan]);

  /** Runs a change; the plan as it is after it, or, when it was refused, why (and the plan as it is now when someone changed it meanwhile). */
  const act = async (change: (plan: PlanDetailsDto) => Promise<PlanDetailsDto>, done: string) => {
    if (!plan) return;
    setBusy(true);
    setOutcome(null);
    try {
      const changed = await change(plan);
      setPlan(changed);
      setWeeks(changed.intervalWeeks);
      setOutcome({ text: done });
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 401) return onSignedOut();
      setOutcome({ text: caught instanceof ApiError ? caught.message : 'That did not work. Check the connection and try again.', error: true });
      if (caught instanceof ApiError && caught.status === 409) await load();
    } finally {
      setBusy(false);
    }
  };

  const back = (
    <button type="button" className="button button-ghost button-small" onClick={onBack}>
      {backLabel}
    </button>
  );
  if (loadError) {
    return (
      <section aria-label="Plan">
        {back}
        <p className="notice notice-error" role="alert">
          {loadError}
        </p>
      </section>
    );
  }
  if (!plan) {
    return (
      <div className="spinner" role="status">
        <span className="visually-hidden">Loading the plan…</span>
      </div>
    );
  }
  const stopped = plan.status === 'stopped';
  const changeInterval = (event: FormEvent) => {
    event.preventDefault();
    if (weeks === null || weeks === plan.intervalWeeks) return setOutcome({ text: `The plan already repeats ${intervalLabel(plan.intervalWeeks).toLowerCase()}.`, error: true });
    void act((p) => plansApi.changeInterval(p, weeks), `The plan now repeats ${intervalLabel(weeks).toLowerCase()}; the visits after the next are booked again and the customer is e-mailed.`);
  };
  return (
    <section className="plan-page" aria-labelledby="plan-title">
      {back}
      <div className="card plan-summary">
        <div className="plan-card-head">
          <h2 id="plan-title" ref={heading} tabIndex={-1}>
            {`${plan.customer.name}’s plan`}
          </h2>
          <span className="plan-badges">
            <PlanStatusBadge status={plan.status} /> <NeedsTimeBadge count={plan.needsTime} />
          </span>
        </div>
        <p>{scheduleText(plan)}</p>
        <p className="plan-contact">
          {plan.customer.email ? <a href={`mailto:${plan.customer.email}`}>{plan.customer.email}</a> : 'No e-mail'}
          {' · '}
          <a href={`tel:${plan.customer.phone.replace(/[^0-9+]/g, '')}`}>{plan.customer.phone}</a>
        </p>
        <p>{`Next visit: ${plan.nextVisit ? startText(plan.nextVisit) : '—'}`}</p>
        <p>{`Made from booking ${plan.bookingReference} by ${plan.createdBy}, ${dateTime(plan.createdAt)}${plan.stoppedAt ? `; stopped ${dateTime(plan.stoppedAt)}` : ''}`}</p>
        {!stopped && (
          <div className="plan-actions">
            {plan.status === 'active' ? (
              <button type="button" className="button button-ghost button-small" disabled={busy} onClick={() => void act((p) => plansApi.act(p, 'pause'), 'The plan is paused: no new visits are booked until it is resumed.')}>
                Pause plan
              </button>
            ) : (
              <button type="button" className="button button-primary button-small" disabled={busy} onClick={() => void act((p) => plansApi.act(p, 'resume'), 'The plan is running again: its visits are booked up to the horizon.')}>
                Resume plan
              </button>
            )}
            <form className="plan-interval" onSubmit={changeInterval}>
              <div className="field">
                <label htmlFor="plan-interval">Repeat</label>
                <select id="plan-interval" value={weeks ?? plan.intervalWeeks} onChange={(e) => setWeeks(Number(e.target.value))}>
                  {PLAN_INTERVALS.map((weeks) => (
                    <option key={weeks} value={weeks}>
                      {intervalLabel(weeks)}
                    </option>
                  ))}
                </select>
              </div>
              <button type="submit" className="button button-ghost button-small" disabled={busy}>
                Change interval
              </button>
            </form>
            <button type="button" className="button button-small plan-stop" disabled={busy} onClick={() => setStopping(true)}>
              Stop plan
            </button>
          </div>
        )}
      </div>
      <div role="status" className="plan-outcome">
        {outcome && <p className={outcome.error ? 'notice notice-error' : 'notice notice-success'}>{outcome.text}</p>}
      </div>
      <h3>Visits</h3>
      {plan.visits.length === 0 ? (
        <p className="plan-muted">No visits booked yet.</p>
      ) : (
        <ol className="plan-visits">
          {plan.visits.map((visit) => (
            <VisitItem
              key={visit.dueDate}
              visit={visit}
              busy={busy || stopped}
              onSkip={() => void act((p) => plansApi.skip(p, visit), `The visit due ${cardDate(visit.dueDate)} is skipped${visit.booking ? ': its booking is cancelled and the customer is e-mailed' : ''}.`)}
              onBook={(start) => void act((p) => plansApi.book(p, visit, start), `The visit due ${cardDate(visit.dueDate)} is booked for ${startText(start)}; the customer is e-mailed.`)}
            />
          ))}
        </ol>
      )}
      {stopping && (
        <Dialog
          id="plan-stop"
          title="Stop this plan?"
          closeLabel="Close without stopping"
          onClose={() => setStopping(false)}
          foot={
            <>
              <button type="button" className="button button-ghost" onClick={() => setStopping(false)}>
                Keep the plan
              </button>
              <button
                type="button"
                className="button plan-stop"
                disabled={busy}
                onClick={() => {
                  setStopping(false);
                  void act((p) => plansApi.act(p, 'stop'), 'The plan is stopped; its upcoming visits are cancelled and the customer is sent one e-mail that lists them.');
                }}
              >
                Stop plan
              </button>
            </>
          }
        >
          <p>{`${plan.customer.name}’s upcoming visits are cancelled, and they get one e-mail that lists them. The booking the plan was made from (${plan.bookingReference}) stays. A stopped plan cannot be started again.`}</p>
        </Dialog>
      )}
    </section>
  );
}

export default function PlansView({ onSignedOut }: { onSignedOut(): void }) {
  const [status, setStatus] = useState<PlanStatusFilter>('');
  const [plans, setPlans] = useState<PlanDto[] | null>(null);
  const [needsTime, setNeedsTime] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  // Back from a plan that may have changed: the list is read again.
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    let current = true;
    setError(null);
    plansApi.list({ status }).then(
      (answer) => {
        if (!current) return;
        setPlans(answer.data);
        setNeedsTime(answer.needsTime);
      },
      (caught) => current && (caught instanceof ApiError && caught.status === 401 ? onSignedOut() : setError('The plans could not be loaded.')),
    );
    return () => {
      current = false;
    };
  }, [status, reloads, onSignedOut]);

  if (open) {
    return (
      <PlanPage
        key={open}
        id={open}
        backLabel="← All plans"
        onBack={() => {
          setOpen(null);
          setReloads((n) => n + 1);
        }}
        onSignedOut={onSignedOut}
      />
    );
  }
  return (
    <section aria-labelledby="plans-title">
      <div className="plans-head">
        <h2 id="plans-title">Plans</h2>
        <div className="field">
          <label htmlFor="plans-status">Status</label>
          <select id="plans-status" value={status} onChange={(e) => setStatus(e.target.value as PlanStatusFilter)}>
            <option value="">All plans</option>
            {Object.entries(STATUS_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {error ? (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      ) : plans === null ? (
        <div className="spinner" role="status">
          <span className="visually-hidden">Loading plans…</span>
        </div>
      ) : (
        <>
          <p role="status" className={needsTime > 0 ? 'notice plan-needs-notice' : 'visually-hidden'}>
            {needsTime > 0 ? `${plural(needsTime, 'visit')} ${needsTime === 1 ? 'needs' : 'need'} a time: open the plan to book one of the times offered, or another.` : `${plural(plans.length, 'plan')} shown`}
          </p>
          {plans.length === 0 ? (
            <div className="card empty">
              <p className="empty-title">{status ? `No ${STATUS_LABELS[status].toLowerCase()} plans` : 'No plans yet'}</p>
              <p>A plan is made from an upcoming booking: open it in Bookings and choose “Make it a regular plan”.</p>
            </div>
          ) : (
            <PlanCards plans={plans} onOpen={setOpen} />
          )}
        </>
      )}
    </section>
  );
}
