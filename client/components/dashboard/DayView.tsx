/** The day view: bookings by appointment for today, tomorrow or the week, to plan the vans. */
import { useEffect, useState } from 'react';
import { ApiError, staffApi, type BookingDto } from '../../lib/staff-api.ts';
import { longDate } from './format.ts';
import './DayView.css';
import { BookingLine } from './BookingLine.tsx';

const RANGES = [
  { key: 'today', label: 'Today' },
  { key: 'tomorrow', label: 'Tomorrow' },
  { key: 'week', label: 'This week' },
] as const;

export function DayView({ onSignedOut }: { onSignedOut(): void }) {
  const [range, setRange] = useState<(typeof RANGES)[number]['key']>('today');
  const [days, setDays] = useState<[string, BookingDto[]][] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setDays(null);
    setError(null);
    staffApi.upcoming(range).then(
      (answer) => {
        const byDate = new Map<string, BookingDto[]>();
        for (const booking of answer.data) byDate.set(booking.date, [...(byDate.get(booking.date) ?? []), booking]);
        setDays([...byDate]);
      },
      (caught) => (caught instanceof ApiError && caught.status === 401 ? onSignedOut() : setError('The schedule could not be loaded.')),
    );
  }, [range, onSignedOut]);

  return (
    <section aria-labelledby="day-title">
      <h2 id="day-title" className="visually-hidden">
        Day view
      </h2>
      <div className="segmented" role="group" aria-label="Period">
        {RANGES.map((r) => (
          <button key={r.key} type="button" className={r.key === range ? 'segment active' : 'segment'} aria-pressed={r.key === range} onClick={() => setRange(r.key)}>
            {r.label}
          </button>
        ))}
      </div>
      {error && (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      )}
      {days === null && !error ? (
        <div className="spinner" role="status">
          <span className="visually-hidden">Loading the schedule…</span>
        </div>
      ) : days?.length === 0 ? (
        <div className="card empty">
          <p className="empty-title">No bookings in this period</p>
        </div>
      ) : (
        days?.map(([date, bookings]) => (
          <section key={date} className="day" aria-labelledby={`day-${date}`}>
            <h3 id={`day-${date}`}>{longDate(date)}</h3>
            <ol className="schedule-list">
              {bookings.map((booking) => (
                <BookingLine key={booking._id} booking={booking} />
              ))}
            </ol>
          </section>
        ))
      )}
    </section>
  );
}
