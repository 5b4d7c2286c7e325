/** A booking in the list: service (with how many vehicles when several), status, reference, customer, when, for on-site service where, and the total. */
import { formatNzd } from '#domain/pricing.ts';
import type { BookingDto } from '../lib/staff-api.ts';
import { OUTSIDE_SERVICE_AREA } from '#domain/van-day.ts';
import { vehicleCount } from '#domain/vehicle-count.ts';
import { Fact } from './Fact.tsx';
import { cardDate } from './format.ts';
import { StatusActions } from './StatusActions.tsx';
import { ConfirmationBadge, StatusBadge } from './StatusBadge.tsx';
import './BookingCard.css';

export interface BookingCardProps {
  booking: BookingDto;
  busy: boolean;
  onView(booking: BookingDto): void;
  /** Its details' code is on its way: the View button says so. */
  opening?: true;
  onStatus(booking: BookingDto, status: string): void;
  /** Ticked for "Release as spam"; only pending and confirmed bookings can be selected. */
  selected?: boolean;
  onSelect?(booking: BookingDto, selected: boolean): void;
}

export function BookingCard({ booking, busy, opening, onView, onStatus, selected = false, onSelect }: BookingCardProps) {
  const selectable = onSelect && (booking.status === 'pending' || booking.status === 'confirmed');
  return (
    <li className="card booking-card">
      <div className="booking-card-head">
        {selectable && (
          <input
            type="checkbox"
            id={`select-${booking._id}`}
            checked={selected}
            onChange={(e) => onSelect(booking, e.target.checked)}
            aria-label={`Select ${booking.name}, ${booking.service}, ${booking.reference}`}
          />
        )}
        <h3>{booking.vehicles.length > 1 ? `${booking.service} · ${vehicleCount(booking.vehicles)}` : booking.service}</h3>
        <StatusBadge status={booking.status} late={booking.cancelledLate} />
        <ConfirmationBadge booking={booking} />
      </div>
      <dl className="booking-facts">
        <Fact label="Reference" value={booking.reference} />
        <Fact label="Name" value={booking.name} />
        <Fact label="Email" value={booking.email} />
        <Fact label="Phone" value={booking.phone} />
        <Fact label="Date" value={cardDate(booking.date)} />
        <Fact label="Time" value={booking.time} />
        {booking.serviceType === 'onsite' && (
          <Fact label="Address" value={`${booking.houseNumber} ${booking.streetAddress}, ${booking.suburb}`} />
        )}
        {booking.outsideServiceArea && <Fact label="Service area" value={OUTSIDE_SERVICE_AREA} />}
        <Fact label="Total" value={formatNzd(booking.quote.totalCents)} />
      </dl>
      <div className="booking-card-actions">
        <button type="button" className="button button-primary button-small" aria-busy={opening} onClick={() => onView(booking)}>
          View Details<span className="visually-hidden">: {booking.name}, {booking.service}</span>
        </button>
        <StatusActions booking={booking} busy={busy} onChange={onStatus} />
      </div>
    </li>
  );
}
