/** One booking as a line of a schedule: time, what (the size, or how many vehicles), who, where, status. */
import type { BookingDto } from '../lib/staff-api.ts';
import { OUTSIDE_SERVICE_AREA } from '#domain/van-day.ts';
import { vehicleCount } from '#domain/vehicle-count.ts';
import { cardDate } from './format.ts';
import { ConfirmationBadge, StatusBadge } from './StatusBadge.tsx';
import './BookingLine.css';

export function BookingLine({ booking, withDate = false }: { booking: BookingDto; withDate?: boolean }) {
  return (
    <li className={booking.status === 'cancelled' ? 'cancelled' : undefined}>
      <span className="slot">{booking.time}</span>
      <span>
        {withDate && <>{cardDate(booking.date)} · </>}
        <strong>{booking.service}</strong> · {vehicleCount(booking.vehicles) || booking.vehicleType.toUpperCase()} · {booking.name} · {booking.phone}
        <br />
        {booking.serviceType === 'onsite' ? `${booking.houseNumber} ${booking.streetAddress}, ${booking.suburb}` : 'Drop-off at the service centre'}
        {booking.outsideServiceArea && ` · ${OUTSIDE_SERVICE_AREA}`}
      </span>
      <StatusBadge status={booking.status} />
      <ConfirmationBadge booking={booking} />
    </li>
  );
}
