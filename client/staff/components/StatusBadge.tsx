/** The coloured status badge: offered purple, pending yellow, confirmed green, completed blue, no-show orange, cancelled red (marked late when within the notice period), anything else grey. */
import { isBookingStatus } from '#domain/booking-status.ts';
import './StatusBadge.css';

export function StatusBadge({ status, late = false }: { status: string; late?: boolean }) {
  const known = isBookingStatus(status);
  return <span className={`status-badge status-${known ? status : 'other'}`}>{`${status || 'pending'}${late && status === 'cancelled' ? ' (late)' : ''}`}</span>;
}

/** BOOKING_CONFIRMATION=email: a booking waiting for its customer, or one that lapsed without them. */
export function ConfirmationBadge({ booking }: { booking: { awaitingEmailUntil: string | null; lapsedAt: string | null } }) {
  if (booking.awaitingEmailUntil) return <span className="status-badge status-other">awaiting e-mail confirmation</span>;
  if (booking.lapsedAt) return <span className="status-badge status-other">lapsed: never confirmed</span>;
  return null;
}
