/**
 * The day view (issue 20): the day as a timeline, one lane per van or bay (columns on a desktop,
 * stacked lists on a phone), each job from its start to its end with its travel buffer and its
 * zone, between a van's jobs the drive each gap needs (issue 40), the closures in the lane, and
 * the jobs that still need a van or bay; or a week of each resource's
 * booked hours. A job is moved with a form (MoveDialog), never by dragging alone. Loaded when its
 * tab is first opened, like the Schedule view, so the dashboard's first bundle stays in its budget.
 * A date with a waitlist (issue 43) says how many are waiting and shows its Waitlist section, whose
 * code is loaded only then.
 */
import { Fragment, Suspense, useCallback, useEffect, useRef, useState, type CSSProperties } from 'react';
import { lazyPart } from '../lib/lazy-part.ts';
import { ApiError, staffApi, type BookingDto, type ClosureDto, type ResourceDto, type ScheduleDayDto, type ScheduleGapDto, type ScheduleWeekDto } from '../lib/staff-api.ts';
import { OUTSIDE_SERVICE_AREA } from '#domain/van-day.ts';
import { vehicleCount } from '#domain/vehicle-count.ts';
import { takeEarly } from '../lib/early-data.ts';
import { useOpening } from '../lib/use-opening.ts';
import { waitlistApi, type WaitlistListDto } from '../lib/waitlist-api.ts';
import { cardDate, hoursText, longDate, plural } from './format.ts';
import { MoveDialog } from './MoveDialog.tsx';
import type { WaitlistPanelProps } from './WaitlistPanel.tsx';
import { StatusBadge } from './StatusBadge.tsx';
import './BookingLine.css';
import './DayView.css';

const KIND_WORDS = { onsite: 'On-site', dropoff: 'Drop-off' } as const;

/** The Weather day panel (issue 21): loaded only when opened. */
const WeatherDayPanel = lazyPart('staff/components/WeatherDayPanel.tsx', () => import('./WeatherDayPanel.tsx'));
/**
 * The date's waitlist (issue 43): loaded only for a date that has one. When its code cannot be
 * fetched (the van's signal dropped), the section says so and the rest of the day stays on screen
 * (as PartBoundary does for a whole view, without adding it to the dashboard's first bundle).
 */
const WaitlistPanel = lazyPart('staff/components/WaitlistPanel.tsx', () => import('./WaitlistPanel.tsx').catch(() => ({ default: WaitlistUnavailable })));

function WaitlistUnavailable(_props: WaitlistPanelProps) {
  return (
    <p className="notice notice-error" role="alert">
      The waitlist could not be loaded. Check the connection, then reload the page.
    </p>
  );
}

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
const clock = (minutes: number) => `${String(Math.floor(minutes / 60) % 24).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
const durationOf = (booking: BookingDto) => Math.round((Date.parse(booking.endsAt) - Date.parse(booking.startsAt)) / 60_000);

/** A YYYY-MM-DD date `n` days after another (calendar arithmetic, in UTC so no daylight saving shifts it). */
function addDays(date: string, n: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

function weekdayShort(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][new Date(Date.UTC(y, m - 1, d)).getUTCDay()]!;
}

/** What a closure closes, in words: 'All day' or '12:00–16:00'. */
const closureWhen = (c: ClosureDto) => (c.from === null ? 'All day' : `${c.from}–${c.to}`);

/** A lane's position of an interval, as the CSS custom properties the desktop columns are drawn with. */
const placed = (start: number, length: number, dayStart: number): CSSProperties => ({ '--at': (start - dayStart) / 60, '--len': length / 60 }) as CSSProperties;

function JobItem({ booking, zoneName, dayStart, onMove }: { booking: BookingDto; zoneName: string | null; dayStart: number; onMove(booking: BookingDto): void }) {
  const start = minutesOf(booking.time);
  const minutes = durationOf(booking);
  const end = start + minutes;
  return (
    <li className={`job job-${booking.status}`} style={placed(start, minutes + booking.bufferMinutes, dayStart)}>
      <div className="job-work" style={{ flexGrow: minutes }}>
        <p className="job-head">
          <strong className="job-time">
            {booking.time}–{clock(end)}
          </strong>
          <button type="button" className="button button-ghost button-small job-move" onClick={() => onMove(booking)}>
            Move<span className="visually-hidden"> {booking.name}’s job at {booking.time}</span>
          </button>
        </p>
        <p className="job-what">
          <strong>{booking.service}</strong> · {vehicleCount(booking.vehicles) || booking.vehicleType.toUpperCase()} · {booking.name} <StatusBadge status={booking.status} />
        </p>
        <p className="job-where">
          {booking.serviceType === 'onsite' ? `${booking.houseNumber} ${booking.streetAddress}, ${booking.suburb}` : 'Drop-off at the service centre'} · {booking.phone}
        </p>
        {booking.outsideServiceArea ? <p className="job-zone job-outside">{OUTSIDE_SERVICE_AREA}</p> : zoneName && <p className="job-zone">{zoneName}</p>}
      </div>
      {booking.bufferMinutes > 0 && (
        <div className="job-buffer" style={{ flexGrow: booking.bufferMinutes }}>
          + {booking.bufferMinutes} min gap, to {clock(end + booking.bufferMinutes)}
        </div>
      )}
    </li>
  );
}

/**
 * The gap between two jobs of a van and the drive it needs under today's travel times. A gap too
 * short for its drive (a job placed before the travel times changed) says so in words, not only
 * in colour.
 */
function GapItem({ gap, at, dayStart }: { gap: ScheduleGapDto; at: number; dayStart: number }) {
  const route = (
    <>
      {gap.fromZone ?? OUTSIDE_SERVICE_AREA} <span aria-hidden="true">→</span>
      <span className="visually-hidden"> to</span> {gap.toZone ?? OUTSIDE_SERVICE_AREA}
    </>
  );
  return (
    <li className={gap.tooShort ? 'lane-gap lane-gap-short' : 'lane-gap'} style={placed(at, 0, dayStart)}>
      {gap.tooShort && <strong>Too short: </strong>}
      {gap.driveMinutes === null ? (
        <>
          {hoursText(gap.gapMinutes)} gap, drive not known: {route}
        </>
      ) : (
        <>
          {hoursText(gap.driveMinutes)} drive, {route} · {hoursText(gap.gapMinutes)} gap
        </>
      )}
    </li>
  );
}

function ClosureItem({ closure, dayStart, dayEnd }: { closure: ClosureDto; dayStart: number; dayEnd: number }) {
  const from = closure.from === null ? dayStart : Math.max(minutesOf(closure.from), dayStart);
  const to = closure.to === null ? dayEnd : Math.min(minutesOf(closure.to), dayEnd);
  return (
    <li className="lane-closure" style={placed(from, Math.max(to - from, 30), dayStart)}>
      <strong>Closed {closureWhen(closure)}</strong> · {closure.reason}
    </li>
  );
}

interface DayTimelineProps {
  day: ScheduleDayDto;
  onMove(booking: BookingDto): void;
}

function DayTimeline({ day, onMove }: DayTimelineProps) {
  // The span drawn: the working hours of the day, widened to any job, buffer or closure outside them.
  const open = [day.hours.onsite, day.hours.dropoff].filter((h) => h !== null);
  let dayStart = open.length ? Math.min(...open.map((h) => minutesOf(h.opens))) : 7 * 60;
  let dayEnd = open.length ? Math.max(...open.map((h) => minutesOf(h.closes))) : 21 * 60;
  for (const lane of day.lanes) {
    for (const job of lane.jobs) {
      dayStart = Math.min(dayStart, minutesOf(job.time));
      dayEnd = Math.max(dayEnd, minutesOf(job.time) + durationOf(job) + job.bufferMinutes);
    }
  }
  dayStart = Math.floor(dayStart / 60) * 60;
  dayEnd = Math.min(Math.ceil(dayEnd / 60) * 60, 24 * 60 + 12 * 60);
  const hours = Array.from({ length: (dayEnd - dayStart) / 60 }, (_, i) => dayStart + i * 60);
  const inScope = (resource: ResourceDto) => (c: ClosureDto) => c.kind === null || c.kind === resource.kind;

  return (
    <div className="timeline" style={{ '--hours': (dayEnd - dayStart) / 60, '--lanes': day.lanes.length } as CSSProperties}>
      <ol className="time-axis" aria-hidden="true">
        {hours.map((minutes) => (
          <li key={minutes}>{clock(minutes)}</li>
        ))}
      </ol>
      {day.lanes.map((lane) => {
        const resource = lane.resource;
        const hoursToday = day.hours[resource.kind];
        const closures = [...day.closures.filter(inScope(resource)), ...lane.closures];
        const items = [...lane.jobs.map((job) => ({ at: minutesOf(job.time), job })), ...closures.filter((c) => c.from !== null).map((closure) => ({ at: minutesOf(closure.from!), closure }))].sort(
          (a, b) => a.at - b.at,
        );
        const zoneOf = new Map(lane.route?.stops.map((stop) => [stop.bookingId, stop.zoneName]));
        const gapTo = new Map(lane.gaps.map((gap) => [gap.toBookingId, gap]));
        return (
          <section key={resource.id} className={resource.active ? 'lane' : 'lane lane-inactive'} aria-labelledby={`lane-${resource.id}`}>
            <header className="lane-head">
              <h3 id={`lane-${resource.id}`}>{resource.name}</h3>
              <p>
                {KIND_WORDS[resource.kind]} · {hoursToday ? `${hoursToday.opens}–${hoursToday.closes}` : 'not working'}
                {!resource.active && ' · inactive'} · {plural(lane.jobs.length, 'job')}
              </p>
              {closures.map((c) => (
                <p key={c.id} className="lane-closed">
                  Closed {closureWhen(c).toLowerCase()} · {c.reason}
                </p>
              ))}
            </header>
            {items.length === 0 ? (
              <p className="lane-empty">No jobs</p>
            ) : (
              <ol className="lane-body" aria-label={`${resource.name}’s jobs`}>
                {items.map((item) =>
                  'job' in item ? (
                    <Fragment key={item.job._id}>
                      {gapTo.has(item.job._id) && <GapItem gap={gapTo.get(item.job._id)!} at={item.at} dayStart={dayStart} />}
                      <JobItem booking={item.job} zoneName={zoneOf.get(item.job._id) ?? null} dayStart={dayStart} onMove={onMove} />
                    </Fragment>
                  ) : (
                    <ClosureItem key={item.closure.id} closure={item.closure} dayStart={dayStart} dayEnd={dayEnd} />
                  ),
                )}
              </ol>
            )}
          </section>
        );
      })}
    </div>
  );
}

function Unassigned({ jobs, onMove }: { jobs: BookingDto[]; onMove(booking: BookingDto): void }) {
  return (
    <section className="card unassigned" aria-labelledby="unassigned-title">
      <h3 id="unassigned-title">Needs a van or bay ({jobs.length})</h3>
      <p className="field-hint">These jobs were taken before scheduling by van and bay and overlap others. Move each to a free van, bay or time, or cancel it.</p>
      <ol className="schedule-list">
        {jobs.map((booking) => (
          <li key={booking._id}>
            <span className="slot">{booking.time}</span>
            <span>
              {cardDate(booking.date)} · <strong>{booking.service}</strong>{booking.vehicles.length > 1 && ` · ${vehicleCount(booking.vehicles)}`} · {KIND_WORDS[booking.serviceType === 'dropoff' ? 'dropoff' : 'onsite']} · {booking.name} · {booking.phone}
            </span>
            <button type="button" className="button button-primary button-small" onClick={() => onMove(booking)}>
              Move<span className="visually-hidden"> {booking.name}’s job</span>
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}

function WeekTable({ week, onOpenDay }: { week: ScheduleWeekDto; onOpenDay(date: string): void }) {
  const strays = week.unassigned.some((u) => u.jobs > 0);
  return (
    <div className="week-scroll" role="region" aria-labelledby="week-caption" tabIndex={0}>
      <table className="week-table">
        <caption id="week-caption">Booked hours, {longDate(week.from)} to {longDate(week.to)}</caption>
        <thead>
          <tr>
            <th scope="col">Van or bay</th>
            {week.dates.map((date) => (
              <th key={date} scope="col">
                <button type="button" className="week-day" onClick={() => onOpenDay(date)}>
                  {weekdayShort(date)} <span>{cardDate(date).slice(0, 6)}</span>
                  <span className="visually-hidden"> (open the day)</span>
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {week.rows.map((row) => (
            <tr key={row.resource.id}>
              <th scope="row">
                {row.resource.name}
                <small>{KIND_WORDS[row.resource.kind]}{row.resource.active ? '' : ', inactive'}</small>
              </th>
              {row.days.map((cell) => {
                const share = cell.openMinutes > 0 ? Math.min(100, Math.round((cell.bookedMinutes / cell.openMinutes) * 100)) : 0;
                return (
                  <td key={cell.date} className={cell.openMinutes === 0 ? 'week-closed' : undefined}>
                    {cell.openMinutes === 0 && cell.jobs === 0 ? (
                      'Closed'
                    ) : (
                      <>
                        <strong>{hoursText(cell.bookedMinutes)}</strong>
                        <small>
                          {plural(cell.jobs, 'job')} · of {hoursText(cell.openMinutes)}
                        </small>
                        <span className="week-bar" aria-hidden="true">
                          <span style={{ width: `${share}%` }} />
                        </span>
                      </>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
          {strays && (
            <tr className="week-strays">
              <th scope="row">Needs a van or bay</th>
              {week.unassigned.map((u) => (
                <td key={u.date}>{u.jobs > 0 ? plural(u.jobs, 'job') : '—'}</td>
              ))}
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

export default function DayView({ times, onSignedOut }: { times: readonly string[]; onSignedOut(): void }) {
  const [mode, setMode] = useState<'day' | 'week'>('day');
  /** The date shown ('' until the server says what today is in Auckland). */
  const [date, setDate] = useState('');
  const [today, setToday] = useState('');
  const [day, setDay] = useState<ScheduleDayDto | null>(null);
  const [week, setWeek] = useState<ScheduleWeekDto | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [moving, setMoving] = useState<BookingDto | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [reload, setReload] = useState(0);
  const [weather, setWeather] = useState(false);
  /** The shown date's waitlist; false when it could not be read. */
  const [waitlist, setWaitlist] = useState<WaitlistListDto | false | null>(null);
  // The weather-day panel is loaded when first opened (see useOpening).
  const panel = useOpening();

  const failed = useCallback((caught: unknown) => (caught instanceof ApiError && caught.status === 401 ? onSignedOut() : setError('The schedule could not be loaded.')), [onSignedOut]);

  // Today in Auckland is the server's to say: asked once (the request sent when the tab was
  // tapped), and its answer is today's schedule. The date shown starts there unless staff chose
  // one meanwhile, and that first day is shown from this answer, not asked for again.
  const firstAnswer = useRef<ScheduleDayDto | null>(null);
  useEffect(() => {
    takeEarly('today-schedule').then((answer) => {
      setToday(answer.date);
      firstAnswer.current = answer;
      setDate((chosen) => chosen || answer.date);
    }, failed);
  }, [failed]);

  useEffect(() => {
    if (!date) return;
    const first = firstAnswer.current;
    firstAnswer.current = null;
    if (mode === 'day' && first?.date === date) return setDay(first);
    let current = true;
    setError(null);
    const keep = <T,>(set: (value: T) => void) => (value: T) => current && set(value);
    if (mode === 'day') staffApi.schedule(date).then(keep(setDay), failed);
    else staffApi.scheduleWeek(date).then(keep(setWeek), failed);
    return () => {
      current = false;
    };
  }, [mode, date, reload, failed]);

  // The date's waitlist, read beside its schedule (and again after each change the day view makes).
  useEffect(() => {
    if (!date || mode !== 'day') return;
    let current = true;
    waitlistApi.list(date).then(
      (answer) => current && setWaitlist(answer),
      (caught) => current && (caught instanceof ApiError && caught.status === 401 ? onSignedOut() : setWaitlist(false)),
    );
    return () => {
      current = false;
    };
  }, [mode, date, reload, onSignedOut]);

  const go = (next: string) => {
    if (!next) return;
    setNotice(null);
    setDate(next);
  };
  const step = mode === 'day' ? 1 : 7;
  const shown = mode === 'day' ? (day?.date === date ? day : null) : week?.from === date ? week : null;
  const dayWaitlist = waitlist && waitlist.date === date ? waitlist : null;
  const movable = (booking: BookingDto) => (day?.lanes ?? []).map((l) => l.resource).filter((r) => r.active && r.kind === booking.serviceType);

  return (
    <section className="day-view" aria-labelledby="day-title">
      <h2 id="day-title" className="visually-hidden">
        Day view
      </h2>
      <div className="day-toolbar">
        <div className="segmented" role="group" aria-label="Show">
          {(['day', 'week'] as const).map((m) => (
            <button key={m} type="button" className={m === mode ? 'segment active' : 'segment'} aria-pressed={m === mode} onClick={() => setMode(m)}>
              {m === 'day' ? 'Day' : 'Week'}
            </button>
          ))}
        </div>
        <div className="day-nav">
          <button type="button" className="button button-ghost button-small" disabled={!date} onClick={() => go(addDays(date, -step))}>
            ‹ Previous<span className="visually-hidden"> {mode}</span>
          </button>
          <label className="day-date">
            <span className="visually-hidden">{mode === 'day' ? 'Date' : 'Week from'}</span>
            <input type="date" value={date} onChange={(event) => go(event.target.value)} />
          </label>
          <button type="button" className="button button-ghost button-small" disabled={!date} onClick={() => go(addDays(date, step))}>
            Next<span className="visually-hidden"> {mode}</span> ›
          </button>
          <button type="button" className="button button-ghost button-small" disabled={!today || date === today} onClick={() => go(today)}>
            Today
          </button>
          {mode === 'day' && (
            <button type="button" className="button button-ghost button-small" disabled={!today || date === addDays(today, 1)} onClick={() => go(addDays(today, 1))}>
              Tomorrow
            </button>
          )}
          <button type="button" className="button button-ghost button-small" aria-expanded={weather} aria-busy={panel.busy('weather')} disabled={!today} onClick={() => panel.open('weather', () => setWeather((open) => !open))}>
            Weather day
          </button>
        </div>
      </div>
      <Suspense fallback={null}>
        {weather && today && (
          <WeatherDayPanel
            date={date}
            today={today}
            times={times}
            onSignedOut={onSignedOut}
            onChanged={() => setReload((n) => n + 1)}
            onClose={() => setWeather(false)}
          />
        )}
      </Suspense>
      <div role="status" className="day-notice">
        {notice && <p className="notice notice-success">{notice}</p>}
      </div>
      {error && (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      )}
      {!shown && !error ? (
        <div className="spinner" role="status">
          <span className="visually-hidden">Loading the schedule…</span>
        </div>
      ) : mode === 'day' && day && shown ? (
        <div className="day">
          <h3 className="day-heading">
            {longDate(day.date)}
            {day.weeklyClosed && ' · closed every week on this day'}
          </h3>
          {waitlist === false ? (
            <p className="day-waitlist">The waitlist could not be loaded.</p>
          ) : (
            dayWaitlist &&
            dayWaitlist.waiting > 0 && (
              <p className="day-waitlist">
                <a href="#waitlist-title">{`${plural(dayWaitlist.waiting, 'customer')} waiting for a place`}</a>
              </p>
            )
          )}
          {day.unassigned.length > 0 && <Unassigned jobs={day.unassigned} onMove={setMoving} />}
          {day.lanes.length === 0 ? <p>No active van or bay. Add them in the Schedule view.</p> : <DayTimeline day={day} onMove={setMoving} />}
          {dayWaitlist && dayWaitlist.data.length > 0 && (
            <Suspense fallback={null}>
              <WaitlistPanel key={dayWaitlist.date} list={dayWaitlist} onSignedOut={onSignedOut} onChanged={() => setReload((n) => n + 1)} />
            </Suspense>
          )}
        </div>
      ) : mode === 'week' && week && shown ? (
        <WeekTable
          week={week}
          onOpenDay={(d) => {
            setMode('day');
            go(d);
          }}
        />
      ) : null}
      {moving && (
        <MoveDialog
          booking={moving}
          resources={movable(moving)}
          times={times}
          today={today}
          onMoved={(moved) => {
            setMoving(null);
            const lane = day?.lanes.find((l) => l.resource.id === moved.resourceId)?.resource.name;
            setNotice(`Moved ${moved.name}’s job to ${longDate(moved.date)} at ${moved.time}${lane ? `, ${lane}` : ''}.`);
            setReload((n) => n + 1);
          }}
          onStale={(current) => {
            setMoving(current);
            setReload((n) => n + 1);
          }}
          onSignedOut={onSignedOut}
          onClose={() => setMoving(null)}
        />
      )}
    </section>
  );
}
