/**
 * A regular plan's page (/booking/manage/{token}/plan, issue 43): how often and when the plan
 * repeats, its visits, and the changes a customer can make, each a plain POST form carrying the
 * plan's version (skip a visit, choose an offered time, pause or resume, change how often, stop
 * after a confirmation). Rendered by the server in the state to show; nothing here needs to run.
 */
import { telHref } from '#domain/business.ts';
import type { PageProps } from '../page-props.ts';
import type { PlanPageState, PlanPageVisit } from '../page-state.ts';
import { Fact, FactList } from '../components/FactList.tsx';
import { IntervalSelect } from '../components/IntervalSelect.tsx';
import { Notices } from '../components/Notices.tsx';
import './PlanPage.css';

const STATUS_TEXT: Record<PlanPageState['plan']['status'], string> = {
  active: 'Active',
  paused: 'Paused: no new visits are booked until you resume it',
  stopped: 'Stopped',
};

const VISIT_STATE_TEXT: Record<PlanPageVisit['state'], string> = {
  booked: 'Booked',
  moved: 'Moved to another day',
  skipped: 'Skipped',
  'needs-time': 'Needs a time',
  done: 'Done',
};

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A one-button form: the plan's version and the fields, posted to `action`. */
function PostButton({ action, version, fields = {}, label, name, primary = false }: { action: string; version: number; fields?: Record<string, string>; label: string; name?: string; primary?: boolean }) {
  return (
    <form method="post" action={action}>
      <input type="hidden" name="version" value={version} />
      {Object.entries(fields).map(([field, value]) => (
        <input key={field} type="hidden" name={field} value={value} />
      ))}
      <button type="submit" className={`button button-small ${primary ? 'button-primary' : 'button-ghost'}`} aria-label={name}>
        {label}
      </button>
    </form>
  );
}

function Visit({ base, version, visit, phone, actions }: { base: string; version: number; visit: PlanPageVisit; phone: string; actions: boolean }) {
  return (
    <li className={`plan-visit plan-visit-${visit.state}`}>
      <p className="plan-visit-head">
        <strong>{visit.state === 'booked' || visit.state === 'done' ? (visit.when ?? visit.dueText) : visit.dueText}</strong>
        <span className="plan-visit-state">{VISIT_STATE_TEXT[visit.state]}</span>
      </p>
      {visit.state === 'moved' && visit.when && <p className="plan-visit-detail">{`Now on ${visit.when}`}</p>}
      {visit.reference && <p className="plan-visit-detail">{`Booking ${visit.reference}`}</p>}
      {actions && visit.state === 'needs-time' && visit.offered.length > 0 && (
        <div className="plan-offers">
          <p className="plan-visit-detail">No time near its date is free. Choose one of these times:</p>
          <ul>
            {visit.offered.map((start) => (
              <li key={`${start.date} ${start.time}`}>
                <PostButton
                  action={`${base}/plan/choose`}
                  version={version}
                  fields={{ dueDate: visit.dueDate, date: start.date, time: start.time }}
                  label={start.label}
                  name={`Book the visit on ${start.label}`}
                  primary
                />
              </li>
            ))}
          </ul>
        </div>
      )}
      {actions && visit.state === 'needs-time' && visit.offered.length === 0 && visit.canSkip && (
        <p className="plan-visit-detail">
          {'No time near its date is free online. Please call us on '}
          <a className="text-link" href={telHref(phone)}>
            {phone}
          </a>
          {' to book it.'}
        </p>
      )}
      {actions && visit.canSkip && (
        <div className="plan-visit-actions">
          <PostButton action={`${base}/plan/skip`} version={version} fields={{ dueDate: visit.dueDate }} label="Skip this visit" name={`Skip this visit (${visit.dueText})`} />
        </div>
      )}
    </li>
  );
}

export default function PlanPage({ business, state }: PageProps<PlanPageState>) {
  const { plan, visits, view } = state;
  const base = `/booking/manage/${state.token}`;
  const running = plan.status !== 'stopped';
  return (
    <section className="section plan" aria-labelledby="plan-title">
      <div className="container narrow">
        <p className="eyebrow">Regular plan</p>
        <h1 id="plan-title">{view === 'stop' ? 'Stop your plan?' : 'Your regular plan'}</h1>
        <Notices notice={state.notice} error={state.error} />
        {view === 'stop' && (
          <form className="plan-confirm card" method="post" action={`${base}/plan/stop`}>
            <p>Do you want to stop your plan? Its upcoming visits are cancelled (the booking you made it from stays) and we send you one e-mail that lists them.</p>
            <input type="hidden" name="version" value={plan.version} />
            <input type="hidden" name="confirm" value="yes" />
            <p className="actions">
              <button type="submit" className="button button-primary">
                Yes, stop my plan
              </button>
              <a className="button button-ghost" href={`${base}/plan`}>
                No, keep my plan
              </a>
            </p>
          </form>
        )}
        <FactList className="plan-facts">
          <Fact label="How often" value={capitalised(plan.interval)} />
          <Fact label="When" value={plan.when} />
          <Fact label="Package" value={plan.service} />
          <Fact label="Status" value={STATUS_TEXT[plan.status]} alert={plan.status === 'stopped'} />
        </FactList>

        <h2 className="plan-subtitle">Visits</h2>
        {visits.length === 0 ? (
          <p>No visits are booked ahead.</p>
        ) : (
          <ol className="plan-visits">
            {visits.map((visit) => (
              <Visit key={visit.dueDate} base={base} version={plan.version} visit={visit} phone={business.phone} actions={view === 'plan'} />
            ))}
          </ol>
        )}

        {running && view === 'plan' && (
          <>
            <h2 className="plan-subtitle">Change your plan</h2>
            <div className="plan-controls">
              <form className="plan-interval card" method="post" action={`${base}/plan/interval`}>
                <input type="hidden" name="version" value={plan.version} />
                <IntervalSelect id="plan-interval" intervals={state.intervals} value={plan.intervalWeeks} />
                <p className="field-hint">The next visit stays as it is; the ones after it move to the new interval.</p>
                <button type="submit" className="button button-primary">
                  Change how often
                </button>
              </form>
              <div className="plan-pause card">
                <p>{plan.status === 'paused' ? 'Resume to have visits booked again from today.' : 'Away for a while? Pausing books no new visits; those booked stay.'}</p>
                <PostButton action={`${base}/plan/${plan.status === 'paused' ? 'resume' : 'pause'}`} version={plan.version} label={plan.status === 'paused' ? 'Resume the plan' : 'Pause the plan'} />
              </div>
              <div className="plan-stop card">
                <p>Stopping cancels the upcoming visits.</p>
                <form method="post" action={`${base}/plan/stop`}>
                  <input type="hidden" name="version" value={plan.version} />
                  <button type="submit" className="button button-small button-ghost">
                    Stop the plan
                  </button>
                </form>
              </div>
            </div>
          </>
        )}

        <p className="plan-help">
          {state.bookingOpen && (
            <>
              <a className="text-link" href={base}>
                {`Back to booking ${state.reference}`}
              </a>
              {' · '}
            </>
          )}
          {`Questions? Call us on `}
          <a className="text-link" href={telHref(business.phone)}>
            {business.phone}
          </a>
          {` or e-mail ${business.email}.`}
        </p>
      </div>
    </section>
  );
}
