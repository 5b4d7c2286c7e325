/**
 * Working hours per kind of job and weekday, and the least gap between two jobs of a van (issues 20
 * and 40), in the Schedule view. A change never moves a booking: the jobs now outside the hours are listed.
 */
import { useEffect, useState, type FormEvent } from 'react';
import type { Weekday } from '#domain/schedule.ts';
import { staffApi, type WeekHoursDto, type WorkingHoursDto } from '../lib/staff-api.ts';
import { ActionResult, type ActionOutcome } from './ActionResult.tsx';

const KINDS = [
  { kind: 'onsite', title: 'On-site hours (vans)' },
  { kind: 'dropoff', title: 'Drop-off hours (bays)' },
] as const;

const capitalised = (day: string) => day[0]!.toUpperCase() + day.slice(1);

export interface HoursPanelProps {
  weekdays: readonly Weekday[];
  /** The start times offered (07:00 to 20:00): hours open at one of them and close an hour after one. */
  times: readonly string[];
  failed(caught: unknown, report: (message: string) => void): void;
}

function KindHours({ kind, title, week, weekdays, times, failed }: { kind: 'onsite' | 'dropoff'; title: string; week: WeekHoursDto; weekdays: readonly Weekday[]; times: readonly string[]; failed: HoursPanelProps['failed'] }) {
  const [draft, setDraft] = useState(week);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ActionOutcome | null>(null);
  const closing = [...times.slice(1), `${String(Number(times.at(-1)!.slice(0, 2)) + 1).padStart(2, '0')}:00`];
  useEffect(() => setDraft(week), [week]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setResult(null);
    try {
      const answer = await staffApi.setWorkingHours(kind, draft);
      setDraft(answer.hours);
      setResult({
        text: 'Saved.',
        note: answer.outside.length > 0 ? `${answer.outside.length} upcoming job(s) are now outside these hours (kept; move or call them):` : 'No upcoming job is outside these hours.',
        bookings: answer.outside,
      });
    } catch (caught) {
      failed(caught, (message) => setResult({ text: message, error: true }));
    } finally {
      setBusy(false);
    }
  };

  const setDay = (day: Weekday, hours: WeekHoursDto[Weekday]) => setDraft((d) => ({ ...d, [day]: hours }));
  const id = `hours-${kind}`;
  return (
    <form className="hours-form" aria-labelledby={`${id}-title`} onSubmit={save}>
      <h4 id={`${id}-title`}>{title}</h4>
      <table className="hours-table">
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Open</th>
            <th scope="col">From</th>
            <th scope="col">To</th>
          </tr>
        </thead>
        <tbody>
          {weekdays.map((day) => {
            const hours = draft[day];
            return (
              <tr key={day}>
                <th scope="row">{capitalised(day)}</th>
                <td>
                  <input
                    type="checkbox"
                    id={`${id}-${day}-open`}
                    aria-label={`${capitalised(day)} open`}
                    checked={hours !== null}
                    onChange={(event) => setDay(day, event.target.checked ? { opens: kind === 'onsite' ? '07:00' : '08:00', closes: kind === 'onsite' ? '21:00' : '18:00' } : null)}
                  />
                </td>
                <td>
                  <select aria-label={`${capitalised(day)} opening time`} disabled={hours === null} value={hours?.opens ?? ''} onChange={(event) => hours && setDay(day, { ...hours, opens: event.target.value })}>
                    {hours === null && <option value="">—</option>}
                    {times.map((time) => (
                      <option key={time}>{time}</option>
                    ))}
                  </select>
                </td>
                <td>
                  <select aria-label={`${capitalised(day)} closing time`} disabled={hours === null} value={hours?.closes ?? ''} onChange={(event) => hours && setDay(day, { ...hours, closes: event.target.value })}>
                    {hours === null && <option value="">—</option>}
                    {closing.map((time) => (
                      <option key={time}>{time}</option>
                    ))}
                  </select>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <button type="submit" className="button button-primary" disabled={busy}>
        Save {kind === 'onsite' ? 'on-site' : 'drop-off'} hours
      </button>
      <ActionResult outcome={result} />
    </form>
  );
}

export function HoursPanel({ weekdays, times, failed }: HoursPanelProps) {
  const [hours, setHours] = useState<WorkingHoursDto | null>(null);
  const [buffer, setBuffer] = useState('');
  const [bufferResult, setBufferResult] = useState<ActionOutcome | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    staffApi.workingHours().then(
      (answer) => {
        setHours(answer);
        setBuffer(String(answer.minGapMinutes));
      },
      (caught) => failed(caught, (message) => setBufferResult({ text: message, error: true })),
    );
  }, [failed]);

  const saveBuffer = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setBufferResult(null);
    try {
      const answer = await staffApi.setMinGap(Number(buffer));
      setBuffer(String(answer.minutes));
      setBufferResult({ text: `Saved: on-site jobs booked from now on leave their van at least ${answer.minutes} minutes before its next job.` });
    } catch (caught) {
      failed(caught, (message) => setBufferResult({ text: message, error: true }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card working-hours" aria-labelledby="hours-title">
      <h3 id="hours-title">Working hours</h3>
      <p className="field-hint">A job starts and ends inside its kind’s hours. Changing them keeps every booking already made.</p>
      {hours === null ? (
        <div className="spinner" role="status">
          <span className="visually-hidden">Loading the hours…</span>
        </div>
      ) : (
        <div className="hours-kinds">
          {KINDS.map(({ kind, title }) => (
            <KindHours key={kind} kind={kind} title={title} week={hours[kind]} weekdays={weekdays} times={times} failed={failed} />
          ))}
        </div>
      )}
      <form className="buffer-form" aria-labelledby="buffer-title" onSubmit={saveBuffer} noValidate>
        <h4 id="buffer-title">Gap between jobs</h4>
        <div className="field">
          <label htmlFor="buffer-minutes">Least gap between two jobs of a van (minutes)</label>
          <p className="field-hint" id="buffer-minutes-hint">
            0 to 240. The driving between zones comes from the zones (Service area, below): a van gets the longer of the two.
          </p>
          <input id="buffer-minutes" name="minutes" type="number" inputMode="numeric" min={0} max={240} step={5} value={buffer} aria-describedby="buffer-minutes-hint" onChange={(event) => setBuffer(event.target.value)} />
        </div>
        <button type="submit" className="button button-primary" disabled={busy || hours === null}>
          Save least gap
        </button>
        <ActionResult outcome={bufferResult} />
      </form>
    </section>
  );
}
