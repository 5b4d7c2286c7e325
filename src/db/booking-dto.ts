/**
 * A booking as the staff API shows it (BookingDto): shared by the routes and by the webhooks'
 * payloads (issue 44), which are composed in the service layer and must not import the routes.
 * Never the manage link's secrets.
 */
import type { BookingDto } from '#api/schemas.ts';
import { bookingInputOf, storedQuote } from './booking-input.ts';
import type { Booking } from './database.ts';
import type { JobQuote } from '../domain/pricing.ts';

/** The quote a booking stored when it was made. */
export const toQuoteDto = (row: Booking): JobQuote => storedQuote(row);

export function toBookingDto(row: Booking): BookingDto {
  return {
    _id: row.id,
    reference: row.reference,
    ...bookingInputOf(row),
    quote: toQuoteDto(row),
    vehicles: row.vehicles,
    resourceId: row.resource_id,
    startsAt: row.starts_at.toISOString(),
    endsAt: row.ends_at.toISOString(),
    bufferMinutes: row.buffer_minutes,
    zoneId: row.zone_id,
    outsideServiceArea: row.service_type === 'onsite' && row.zone_id === null,
    status: row.status,
    cancelledLate: row.cancelled_late,
    version: row.version,
    createdAt: row.created_at.toISOString(),
    source: row.source === 'staff' ? 'staff' : 'online',
    createdBy: row.created_by,
    awaitingEmailUntil: row.awaiting_email_until?.toISOString() ?? null,
    lapsedAt: row.lapsed_at?.toISOString() ?? null,
    onTheWayAt: row.on_the_way_at?.toISOString() ?? null,
    arrivingAt: row.arriving_at?.toISOString() ?? null,
    startedAt: row.started_at?.toISOString() ?? null,
  };
}

