/** The coloured status badge: pending yellow, confirmed green, completed blue, cancelled red, anything else grey. */
import { isBookingStatus } from '#domain/booking-status.ts';
import './StatusBadge.css';

export function StatusBadge({ status }: { status: string }) {
  const known = isBookingStatus(status);
  return <span className={`status-badge status-${known ? status : 'other'}`}>{status || 'pending'}</span>;
}
