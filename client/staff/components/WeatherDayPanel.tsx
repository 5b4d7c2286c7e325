/**
 * The Weather day panel (issue 21), opened from the Day view: staff pick a date and a kind of job
 * (on-site by default), confirm, and every customer of those bookings is asked by e-mail to choose
 * a new time (their bookings keep their place; nothing is cancelled). Below, the bookings asked
 * for that date: who has chosen a new time and who is still awaiting one, each movable by staff
 * with the Day view's MoveDialog. Loaded only when opened, so the dashboard's bundles keep their budget.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { WEATHER_ANSWER_LABELS, WEATHER_MOVE_DAYS, type WeatherServiceType } from '#domain/weather-day.ts';
import { ApiError, staffApi, type BookingDto, type ResourceDto } from '../lib/staff-api.ts';
import { weatherApi, type WeatherDaysListDto } from '../lib/weather-api.ts';
import { dateTime, longDate, plural } from './format.ts';
import { MoveDialog } from './MoveDialog.tsx';
import './StatusBadge.css';
import './WeatherDayPanel.css';

const KIND_WORDS: Record<WeatherServiceType, string> = { onsite: 'on-site', dropoff: 'drop-off' };

export interface WeatherDayPanelProps {
  /** The date the Day view shows: the panel starts there. */
  date: string;
  /** Today in Auckland: the earliest date to ask for, and to move to. */
  today: string;
  times: readonly string[];
  onSignedOut(): void;
  /** Something changed on the schedule (a move): the Day view reloads. */
  onChanged(): void;
  onClose(): void;
}

export default function WeatherDayPanel({ date: initialDate, today, times, onSignedOut, onChanged, onClose }: WeatherDayPanelProps) {
  const [date, setDate] = useState(initialDate < today ? today : initialDate);
  const [kind, setKind] = useState<WeatherServiceType>('onsite');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [asked, setAsked] = useState<WeatherDaysListDto['weatherDays'] | null>(null);
  const [resources, setResources] = useState<ResourceDto[]>([]);
  const [moving, setMoving] = useState<BookingDto | null>(null);
  const [reload, setReload] = useState(0);

  const failed = useCallback(
    (caught: unknown, fallback: string) => {
      if (caught instanceof ApiError && caught.status === 401) return onSignedOut();
      setError(caught instanceof ApiError ? caught.message : fallback);
    },
    [onSignedOut],
  );

  useEffect(() => {
    staffApi.resources().then((answer) => setResources(answer.data), () => setResources([]));
  }, []);

  useEffect(() => {
    if (!date) return;
    let current = true;
    setAsked(null);
    weatherApi.list(date).then(
      (answer) => current && setAsked(answer.weatherDays),
      (caught) => current && failed(caught, 'The weather days could not be loaded.'),
    );
    return () => {
      current = false;
    };
  }, [date, reload, failed]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setNotice(null);
    if (!confirming) return setConfirming(true);
    setBusy(true);
    try {
      const answer = await weatherApi.ask(date, kind);
      const n = answer.asked.length;
      setNotice(
        n === 0
          ? `No ${KIND_WORDS[kind]} booking on ${longDate(date)} was left to ask.`
          : `Asked ${plural(n, 'customer')} with ${KIND_WORDS[kind]} bookings on ${longDate(date)} to choose a new time.`,
      );
      setConfirming(false);
      setReload((r) => r + 1);
    } catch (caught) {
      failed(caught, 'The customers could not be asked. Check the connection and try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="weather-panel card" aria-labelledby="weather-title">
      <div className="weather-head">
        <h3 id="weather-title">Weather day</h3>
        <button type="button" className="button button-ghost button-small" onClick={onClose}>
          Close<span className="visually-hidden"> the weather day panel</span>
        </button>
      </div>
      <p className="weather-intro">
        {`Each customer gets an apology e-mail with their link to choose a new time, even at short notice, for ${WEATHER_MOVE_DAYS} days. Their bookings keep their place until moved or cancelled.`}
      </p>
      <form className="weather-form" onSubmit={submit}>
        <div className="field">
          <label htmlFor="weather-date">Date</label>
          <input
            id="weather-date"
            type="date"
            value={date}
            min={today}
            required
            onChange={(event) => {
              setConfirming(false);
              setNotice(null);
              setDate(event.target.value);
            }}
          />
        </div>
        <fieldset className="weather-kinds">
          <legend>Bookings</legend>
          {(['onsite', 'dropoff'] as const).map((k) => (
            <label key={k} className="weather-kind">
              <input
                type="radio"
                name="weather-kind"
                value={k}
                checked={kind === k}
                onChange={() => {
                  setConfirming(false);
                  setKind(k);
                }}
              />
              {k === 'onsite' ? 'On-site' : 'Drop-off'}
            </label>
          ))}
        </fieldset>
        {confirming && (
          <p className="notice weather-confirm">{`Ask every customer with an ${KIND_WORDS[kind]} booking on ${longDate(date)} to choose a new time? Each is e-mailed once.`}</p>
        )}
        <p className="weather-actions">
          <button type="submit" className="button button-accent" disabled={busy || !date}>
            {confirming ? 'Yes, ask them' : 'Ask customers to reschedule'}
          </button>
          {confirming && (
            <button type="button" className="button button-ghost" onClick={() => setConfirming(false)}>
              Not now
            </button>
          )}
        </p>
      </form>
      <div role="status">{notice && <p className="notice notice-success">{notice}</p>}</div>
      {error && (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      )}
      {asked === null ? (
        !error && <p className="weather-loading">Loading…</p>
      ) : asked.length === 0 ? (
        <p className="weather-none">{`Nobody has been asked for ${longDate(date)}.`}</p>
      ) : (
        asked.map(({ weatherDay, bookings }) => {
          const awaiting = bookings.filter((b) => b.answer === 'awaiting').length;
          return (
            <div key={weatherDay.id} className="weather-day">
              <h4>{`${weatherDay.serviceType === 'onsite' ? 'On-site' : 'Drop-off'}: ${plural(bookings.length, 'booking')} asked, ${awaiting} awaiting a new time`}</h4>
              <p className="weather-by">{`Asked by ${weatherDay.askedBy}, ${dateTime(weatherDay.createdAt)}`}</p>
              <ul className="weather-list">
                {bookings.map(({ booking, answer }) => (
                  <li key={booking._id} className={`weather-item weather-${answer}`}>
                    <p className="weather-who">
                      <strong>{booking.name}</strong> · {booking.reference}
                      <span className={`status-badge weather-badge weather-badge-${answer}`}>{WEATHER_ANSWER_LABELS[answer]}</span>
                    </p>
                    <p className="weather-when">
                      {`${longDate(booking.date)} at ${booking.time} · ${booking.service}`}
                      {booking.phone && (
                        <>
                          {' · '}
                          <a href={`tel:${booking.phone.replace(/[^+\d]/g, '')}`}>{booking.phone}</a>
                        </>
                      )}
                    </p>
                    {booking.status !== 'cancelled' && (
                      <button type="button" className="button button-ghost button-small" onClick={() => setMoving(booking)}>
                        Move<span className="visually-hidden">{` ${booking.name}’s booking`}</span>
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            </div>
          );
        })
      )}
      {moving && (
        <MoveDialog
          booking={moving}
          resources={resources.filter((r) => r.active && r.kind === moving.serviceType)}
          times={times}
          today={today}
          onMoved={(moved) => {
            setMoving(null);
            setNotice(`Moved ${moved.name}’s booking to ${longDate(moved.date)} at ${moved.time}.`);
            setReload((r) => r + 1);
            onChanged();
          }}
          onStale={(current) => {
            setMoving(current);
            setReload((r) => r + 1);
          }}
          onSignedOut={onSignedOut}
          onClose={() => setMoving(null)}
        />
      )}
    </section>
  );
}
