/**
 * What a Schedule view action answered, announced to screen readers: its message (an error in the
 * error style), and the bookings it lists (jobs now outside the hours, jobs holding a van).
 */
import { BookingLine } from './BookingLine.tsx';
import type { BookingDto } from '../lib/staff-api.ts';

export interface ActionOutcome {
  text: string;
  error?: boolean;
  /** Said after the message, before the list. */
  note?: string;
  bookings?: readonly BookingDto[];
}

export function ActionResult({ outcome }: { outcome: ActionOutcome | null }) {
  return (
    <div role="status">
      {outcome && (
        <div className="schedule-result">
          {outcome.error ? (
            <p className="notice notice-error">{outcome.text}</p>
          ) : (
            <p>
              <strong>{outcome.text}</strong>
              {outcome.note ? ` ${outcome.note}` : null}
            </p>
          )}
          {outcome.bookings && outcome.bookings.length > 0 && (
            <ol className="schedule-list">
              {outcome.bookings.map((booking) => (
                <BookingLine key={booking._id} booking={booking} withDate />
              ))}
            </ol>
          )}
        </div>
      )}
    </div>
  );
}
