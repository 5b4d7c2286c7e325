/** A booking's facts written for people, as every e-mail about it shows them. */
import { HOURS, type BusinessInfo } from '../domain/business.ts';
import { appointmentText, aucklandClockText } from '../domain/booking-dates.ts';
import { durationText } from '../domain/catalogue.ts';
import { adjustmentLabel, discountLabel, discountOf, formatNzd, lineLabel, TRAVEL_FEE_LABEL } from '../domain/pricing.ts';
import type { Booking } from '../db/database.ts';
import { presentLines } from '../domain/job.ts';

/**
 * When an appointment starts and ends, as instants: what the booking stored when it was placed,
 * so a later change of the catalogue's durations never changes what a customer was told.
 */
export function appointmentTimes(booking: Pick<Booking, 'starts_at' | 'ends_at'>): { start: Date; end: Date } {
  return { start: new Date(booking.starts_at), end: new Date(booking.ends_at) };
}

/**
 * When the work happens, for people: 'Saturday 5 December 2026, 9:00 am to 5:00 pm (about 8
 * hours)', from the instants the booking stored.
 */
export function whenForPeople(booking: Pick<Booking, 'date' | 'time' | 'starts_at' | 'ends_at'>): string {
  const { start, end } = appointmentTimes(booking);
  const minutes = Math.round((end.getTime() - start.getTime()) / 60_000);
  return `${appointmentText(booking.date, booking.time)} to ${aucklandClockText(end)} (${durationText(minutes)})`;
}

export function isDropOff(booking: Pick<Booking, 'service_type'>): boolean {
  return booking.service_type === 'dropoff';
}

/** The customer's address for an on-site valet, on one line. */
export function onSiteAddress(booking: Booking): string {
  const street = [booking.house_number, booking.street_address].filter(Boolean).join(' ');
  return [street, booking.suburb, `${booking.city} ${booking.postal_code}`.trim(), booking.region].filter((p) => p.trim() !== '').join(', ');
}

export function serviceCentreAddress(business: BusinessInfo): string {
  return `${business.streetAddress}, ${business.suburb}, ${business.city} ${business.postcode}`;
}

/** Where the work happens, with what the customer needs to know to be there. */
export function whereForPeople(booking: Booking, business: BusinessInfo): { place: string; note: string } {
  if (isDropOff(booking)) {
    return {
      place: `Drop-off at our service centre: ${serviceCentreAddress(business)}`,
      note: `${HOURS.dropOffGuidance} Drop-off hours: ${HOURS.dropOff.join('; ')}.`,
    };
  }
  const landmark = booking.landmark.trim() ? ` (${booking.landmark.trim()})` : '';
  return { place: `At your address: ${onSiteAddress(booking)}${landmark}`, note: 'Our valeter comes to you; please have the car accessible.' };
}

/** The quote the booking stored, line by line. */
export function quoteLines(booking: Booking): [string, string][] {
  // One line: the package is named beside the price already ('List price'); several: each line.
  const lines: [string, string][] =
    booking.lines.length > 1
      ? presentLines(booking.lines, booking.vehicles).map((l) => [lineLabel(l), formatNzd(l.totalCents)])
      : [['List price', formatNzd(booking.list_price_cents)]];
  if (booking.discount_cents > 0 && booking.discount_percent !== null) {
    lines.push([discountLabel(discountOf(booking.discount_kind, booking.discount_percent) ?? { kind: 'first-service', percent: booking.discount_percent }), formatNzd(-booking.discount_cents)]);
  }
  if (booking.travel_fee_cents > 0) lines.push([TRAVEL_FEE_LABEL, formatNzd(booking.travel_fee_cents)]);
  if (booking.price_adjustment_cents !== 0 && booking.price_adjustment_reason !== null) {
    lines.push([adjustmentLabel({ cents: booking.price_adjustment_cents, reason: booking.price_adjustment_reason }), formatNzd(booking.price_adjustment_cents)]);
  }
  lines.push(['Total', `${formatNzd(booking.total_cents)}, pay on completion`]);
  return lines;
}
