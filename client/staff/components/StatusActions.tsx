/** The status changes allowed from a booking's current status, as buttons. */
import { actionsFrom } from '#domain/booking-status.ts';
import type { BookingDto } from '../lib/staff-api.ts';

export function StatusActions({ booking, busy, onChange }: { booking: BookingDto; busy: boolean; onChange(booking: BookingDto, status: string): void }) {
  return (
    <div className="status-actions">
      {actionsFrom(booking.status, { startsAt: booking.startsAt, now: new Date() }).map((action) => (
        <button key={action.to} type="button" className={`button button-small action-${action.to}`} disabled={busy} onClick={() => onChange(booking, action.to)}>
          {action.label}
          <span className="visually-hidden">: {booking.name}, {booking.service}</span>
        </button>
      ))}
    </div>
  );
}
