/**
 * The Schedule view (issues 10, 20 and 40): close a whole date or a range of hours, for every van
 * and bay, one kind or one of them, with a reason, reopen it, and set the days closed every week.
 * Customers then see those times as "Closed"; bookings already made are never cancelled by it,
 * they are listed here for staff to call. Below: the vans and bays, the working hours, the least
 * gap between two jobs of a van, and the service area. Loaded when its tab is first opened, and
 * it imports nothing the public pages use (the times and weekdays come with the page), so that it
 * adds nothing to their bundles.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { FieldError } from '#domain/messages.ts';
import type { ScheduleShape, Weekday } from '#domain/schedule.ts';
import { SelectField, TextField, errorFor } from '../../components/Field.tsx';
import { ApiError, staffApi, type BookingDto, type ClosureDto, type ClosureListItem, type ResourceDto } from '../lib/staff-api.ts';
import { BookingLine } from './BookingLine.tsx';
import { HoursPanel } from './HoursPanel.tsx';
import { ResourcesPanel } from './ResourcesPanel.tsx';
import { ServiceAreaPanel } from './ServiceAreaPanel.tsx';
import { CalendarFeedsPanel } from './CalendarFeedsPanel.tsx';
import { longDate, plural } from './format.ts';
import './ScheduleView.css';

const capitalised = (day: string) => day[0]!.toUpperCase() + day.slice(1);

const range = (c: Pick<ClosureDto, 'from' | 'to'>) => (c.from === null ? 'all day' : `${c.from}–${c.to}`);
const when = (c: Pick<ClosureDto, 'date' | 'from' | 'to'>) => `${longDate(c.date)}, ${range(c)}`;

/** The scope select's value: '' for every van and bay, 'kind:onsite', 'kind:dropoff' or a resource's id. */
const SCOPE_KINDS: Record<string, string> = { 'kind:onsite': 'All vans (on-site)', 'kind:dropoff': 'All bays (drop-off)' };

function scopeOf(closure: Pick<ClosureDto, 'kind' | 'resourceId'>, resources: ResourceDto[] | null): string {
  if (closure.resourceId) return resources?.find((r) => r.id === closure.resourceId)?.name ?? 'One van or bay';
  if (closure.kind) return SCOPE_KINDS[`kind:${closure.kind}`]!;
  return 'Every van and bay';
}

/** What a change left in place: the bookings staff now need to contact. */
function Affected({ bookings, where, withDate = false }: { bookings: BookingDto[]; where: string; withDate?: boolean }) {
  if (bookings.length === 0) return <p>No booking is affected.</p>;
  return (
    <>
      <p>
        <strong>
          {plural(bookings.length, 'booking')} {where}
        </strong>{' '}
        (nothing was cancelled; please contact the customers):
      </p>
      <ol className="schedule-list">
        {bookings.map((booking) => (
          <BookingLine key={booking._id} booking={booking} withDate={withDate} />
        ))}
      </ol>
    </>
  );
}

export default function ScheduleView({ shape, onSignedOut, owner = false }: { shape: ScheduleShape; onSignedOut(): void; owner?: boolean }) {
  /** The range asked for ('' leaves it to the server: today to 12 months ahead) and the one answered. */
  const [query, setQuery] = useState({ from: '', to: '' });
  const [list, setList] = useState<{ from: string; to: string; data: ClosureListItem[] } | null>(null);
  const [today, setToday] = useState<string | undefined>(undefined);
  const [listError, setListError] = useState<string | null>(null);
  const [draft, setDraft] = useState({ date: '', from: '', to: '', scope: '', reason: '' });
  const [resources, setResources] = useState<ResourceDto[] | null>(null);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [closeError, setCloseError] = useState<string | null>(null);
  const [closed, setClosed] = useState<{ text: string; affected: BookingDto[] | null } | null>(null);
  const [weekly, setWeekly] = useState<Weekday[] | null>(null);
  const [weeklySaved, setWeeklySaved] = useState<{ text: string; affected: BookingDto[] } | null>(null);
  const [busy, setBusy] = useState(false);

  /** A 401 signs out; anything else is reported where it happened. */
  const failed = useCallback(
    (caught: unknown, report: (message: string) => void) => {
      if (caught instanceof ApiError && caught.status === 401) onSignedOut();
      else report(caught instanceof ApiError ? caught.message : 'The change could not be saved. Check the connection and try again.');
    },
    [onSignedOut],
  );

  const load = useCallback(() => {
    setListError(null);
    staffApi.closures(query.from, query.to).then(
      (answer) => {
        setList(answer);
        setToday((known) => known ?? (query.from ? undefined : answer.from));
      },
      (caught) => failed(caught, setListError),
    );
  }, [query, failed]);

  useEffect(load, [load]);

  const loadResources = useCallback(() => {
    staffApi.resources().then((answer) => setResources(answer.data), (caught) => failed(caught, setListError));
  }, [failed]);

  useEffect(loadResources, [loadResources]);

  useEffect(() => {
    staffApi.weeklyClosedDays().then((answer) => setWeekly(answer.days), (caught) => failed(caught, () => setWeekly([])));
  }, [failed]);

  const close = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setErrors([]);
    setCloseError(null);
    setClosed(null);
    try {
      const scope = draft.scope;
      const answer = await staffApi.close({
        date: draft.date,
        from: draft.from || null,
        to: draft.to || null,
        kind: scope === 'kind:onsite' ? 'onsite' : scope === 'kind:dropoff' ? 'dropoff' : null,
        resourceId: scope && !scope.startsWith('kind:') ? scope : null,
        reason: draft.reason,
      });
      const scoped = answer.kind || answer.resourceId ? ` for ${scopeOf(answer, resources)}` : '';
      setClosed({ text: `Closed ${when(answer)}${scoped}.`, affected: answer.affectedBookings });
      setDraft({ date: '', from: '', to: '', scope: '', reason: '' });
      load();
    } catch (caught) {
      const fieldErrors = caught instanceof ApiError && Array.isArray(caught.body.errors) ? (caught.body.errors as FieldError[]) : [];
      setErrors(fieldErrors);
      if (fieldErrors.length === 0) failed(caught, setCloseError);
    } finally {
      setBusy(false);
    }
  };

  const reopen = async (closure: ClosureListItem) => {
    setBusy(true);
    setClosed(null);
    try {
      await staffApi.reopen(closure.id);
      setClosed({ text: `Reopened ${when(closure)}.`, affected: null });
      load();
    } catch (caught) {
      failed(caught, setListError);
    } finally {
      setBusy(false);
    }
  };

  const saveWeekly = async (event: FormEvent) => {
    event.preventDefault();
    if (!weekly) return;
    setBusy(true);
    setWeeklySaved(null);
    try {
      const answer = await staffApi.setWeeklyClosedDays(weekly);
      setWeekly(answer.days);
      const names = answer.days.map((day) => `${capitalised(day)}s`).join(', ');
      setWeeklySaved({ text: answer.days.length > 0 ? `Saved: closed on ${names}.` : 'Saved: open every day.', affected: answer.affectedBookings });
    } catch (caught) {
      failed(caught, (message) => setWeeklySaved({ text: message, affected: [] }));
    } finally {
      setBusy(false);
    }
  };

  const toggleDay = (day: Weekday, on: boolean) => setWeekly((days) => shape.weekdays.filter((d) => (d === day ? on : (days ?? []).includes(d))));
  const error = (field: string) => errorFor(errors, field);
  const closingTimes = [...shape.times.slice(1), '21:00'];

  return (
    <section className="schedule-view" aria-labelledby="schedule-title">
      <h2 id="schedule-title" className="visually-hidden">
        Schedule
      </h2>
      <div className="schedule-forms">
        <form className="card form" aria-labelledby="close-title" onSubmit={close} noValidate>
          <h3 id="close-title">Close a date or a time</h3>
          <p className="field-hint">Customers see the time as “Closed” and cannot book a job that would run into it. Bookings already made are kept.</p>
          {closeError && (
            <p className="notice notice-error" role="alert">
              {closeError}
            </p>
          )}
          <TextField idPrefix="closure" name="date" label="Date" type="date" nativeRequired min={today} value={draft.date} error={error('date')} onChange={(date) => setDraft((d) => ({ ...d, date }))} />
          <div className="field-row">
            <SelectField idPrefix="closure" name="from" label="From" placeholder="The whole day" options={shape.times} value={draft.from} error={error('from') ?? error('time')} onChange={(from) => setDraft((d) => ({ ...d, from, to: from && (!d.to || d.to <= from) ? closingTimes[shape.times.indexOf(from)]! : from ? d.to : '' }))} />
            <SelectField idPrefix="closure" name="to" label="To" placeholder="—" options={closingTimes} isDisabled={(to) => Boolean(draft.from) && to <= draft.from} value={draft.to} error={error('to')} onChange={(to) => setDraft((d) => ({ ...d, to }))} />
          </div>
          <SelectField
            idPrefix="closure"
            name="scope"
            label="Closed for"
            placeholder="Every van and bay"
            options={['kind:onsite', 'kind:dropoff', ...(resources ?? []).filter((r) => r.active).map((r) => r.id)]}
            labelOf={(value) => SCOPE_KINDS[value] ?? resources?.find((r) => r.id === value)?.name ?? value}
            value={draft.scope}
            error={error('kind') ?? error('resourceId')}
            onChange={(scope) => setDraft((d) => ({ ...d, scope }))}
          />
          <TextField
            idPrefix="closure"
            name="reason"
            label="Reason"
            hint="For staff only, e.g. Public holiday, van at the mechanic"
            nativeRequired
            maxLength={shape.reasonMax}
            value={draft.reason}
            error={error('reason')}
            onChange={(reason) => setDraft((d) => ({ ...d, reason }))}
          />
          <button type="submit" className="button button-accent" disabled={busy}>
            Close
          </button>
          <div role="status">
            {closed && (
              <div className="schedule-result">
                <p>
                  <strong>{closed.text}</strong>
                </p>
                {closed.affected && <Affected bookings={closed.affected} where="still in this time" />}
              </div>
            )}
          </div>
        </form>

        <form className="card form" aria-labelledby="weekly-title" onSubmit={saveWeekly}>
          <h3 id="weekly-title">Closed every week</h3>
          <fieldset className="weekdays" disabled={weekly === null}>
            <legend>Days no booking is taken</legend>
            {shape.weekdays.map((day) => (
              <label key={day} className="checkbox">
                <input type="checkbox" name="days" value={day} checked={weekly?.includes(day) ?? false} onChange={(event) => toggleDay(day, event.target.checked)} />
                {capitalised(day)}
              </label>
            ))}
          </fieldset>
          <button type="submit" className="button button-primary" disabled={busy || weekly === null}>
            Save weekly closed days
          </button>
          <div role="status">
            {weeklySaved && (
              <div className="schedule-result">
                <p>
                  <strong>{weeklySaved.text}</strong>
                </p>
                {weeklySaved.affected.length > 0 && <Affected bookings={weeklySaved.affected} where="from today on these days" withDate />}
              </div>
            )}
          </div>
        </form>
      </div>

      <section className="card closures" aria-labelledby="closures-title">
        <h3 id="closures-title">Closed dates and times</h3>
        <div className="field-row">
          <TextField idPrefix="closures" name="from" label="From" type="date" value={list?.from ?? ''} error={undefined} onChange={(from) => from && setQuery({ from, to: list?.to ?? '' })} />
          <TextField idPrefix="closures" name="to" label="To" type="date" value={list?.to ?? ''} error={undefined} onChange={(to) => to && setQuery({ from: list?.from ?? '', to })} />
        </div>
        {listError && (
          <p className="notice notice-error" role="alert">
            {listError}
          </p>
        )}
        {list === null && !listError ? (
          <div className="spinner" role="status">
            <span className="visually-hidden">Loading the closures…</span>
          </div>
        ) : list?.data.length === 0 ? (
          <p>Nothing is closed in this period.</p>
        ) : (
          <ul className="schedule-list closure-list">
            {list?.data.map((closure) => (
              <li key={closure.id}>
                <span className="slot">{closure.from === null ? 'All day' : `${closure.from}–${closure.to}`}</span>
                <span>
                  <strong>{longDate(closure.date)}</strong> · {scopeOf(closure, resources)} · {closure.reason}
                  <br />
                  <small>
                    Closed by {closure.createdBy}
                    {closure.activeBookings > 0 && <> · {plural(closure.activeBookings, 'booking')} still in it</>}
                  </small>
                </span>
                <button type="button" className="button button-ghost button-small" disabled={busy} onClick={() => reopen(closure)}>
                  Reopen<span className="visually-hidden"> {when(closure)}, {scopeOf(closure, resources)}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>

      <div className="schedule-forms">
        <ResourcesPanel
          resources={resources}
          failed={failed}
          onChanged={() => {
            loadResources();
            load();
          }}
        />
        <HoursPanel weekdays={shape.weekdays} times={shape.times} failed={failed} />
      </div>
      <ServiceAreaPanel failed={failed} />
      {owner && resources && <CalendarFeedsPanel resources={resources} onSignedOut={onSignedOut} />}
    </section>
  );
}
