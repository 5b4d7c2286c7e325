/**
 * A booking's form fields (src/domain/booking-rules.ts, BookingInput) and its columns, both ways,
 * and the quote its price columns hold: the one place that knows which column holds what, for
 * taking a booking, editing it and answering with it.
 */
import type { BookingInput } from '../domain/booking-rules.ts';
import { CURRENCY, discountOf, type JobQuote } from '../domain/pricing.ts';
import { presentLines } from '../domain/job.ts';
import { packageForPeople } from '../domain/catalogue.ts';
import type { Booking } from './database.ts';

/** The booking's fields as the forms and the API name them. */
export function bookingInputOf(row: Booking): BookingInput {
  return {
    service: row.service,
    coatingType: row.coating_type,
    vehicleType: row.vehicle_type,
    selectedVehicleType: row.selected_vehicle_type,
    date: row.date,
    time: row.time,
    serviceType: row.service_type,
    houseNumber: row.house_number,
    streetAddress: row.street_address,
    suburb: row.suburb,
    city: row.city,
    postalCode: row.postal_code,
    region: row.region,
    landmark: row.landmark,
    saveAddress: row.save_address,
    name: row.name,
    email: row.email,
    phone: row.phone,
    notes: row.notes,
  };
}

/** The columns that hold a booking's fields. */
export function bookingColumnsOf(input: BookingInput) {
  return {
    service: input.service,
    coating_type: input.coatingType,
    vehicle_type: input.vehicleType,
    selected_vehicle_type: input.selectedVehicleType,
    date: input.date,
    time: input.time,
    service_type: input.serviceType,
    house_number: input.houseNumber,
    street_address: input.streetAddress,
    suburb: input.suburb,
    city: input.city,
    postal_code: input.postalCode,
    region: input.region,
    landmark: input.landmark,
    save_address: input.saveAddress,
    name: input.name,
    email: input.email,
    phone: input.phone,
    notes: input.notes,
  } satisfies Partial<Booking>;
}

/** The quote a booking stored; the adjustment only when staff adjusted it, so every other quote keeps its shape. */
export function storedQuote(
  row: Pick<
    Booking,
    'list_price_cents' | 'discount_cents' | 'travel_fee_cents' | 'total_cents' | 'discount_kind' | 'discount_percent' | 'price_adjustment_cents' | 'price_adjustment_reason' | 'lines' | 'vehicles' | 'starts_at' | 'ends_at'
  >,
): JobQuote {
  return {
    currency: CURRENCY,
    listPriceCents: row.list_price_cents,
    discountCents: row.discount_cents,
    travelFeeCents: row.travel_fee_cents,
    totalCents: row.total_cents,
    discount: discountOf(row.discount_kind, row.discount_percent),
    ...(row.price_adjustment_cents !== 0 && row.price_adjustment_reason !== null ? { adjustment: { cents: row.price_adjustment_cents, reason: row.price_adjustment_reason } } : {}),
    lines: presentLines(row.lines, row.vehicles),
    durationMinutes: Math.round((new Date(row.ends_at).getTime() - new Date(row.starts_at).getTime()) / 60_000),
  };
}

/**
 * A booking as written before migrations/034 and 035 (an outbox snapshot queued before them): with
 * no zone or travel fee, and its one vehicle and line from the single-vehicle columns, as the
 * migrations gave the rows themselves. A row written since is returned as it is.
 */
export function withJob(row: Booking): Booking {
  if (row.vehicles !== undefined && row.lines !== undefined && row.travel_fee_cents !== undefined) return row;
  const minutes = Math.round((new Date(row.ends_at).getTime() - new Date(row.starts_at).getTime()) / 60_000);
  return {
    ...row,
    zone_id: row.zone_id ?? null,
    travel_fee_cents: row.travel_fee_cents ?? 0,
    vehicles: row.vehicles ?? [
      { vehicleType: row.vehicle_type, selectedVehicleType: row.selected_vehicle_type, service: row.service, coatingType: row.coating_type, addOns: [], make: '', model: '', colour: '', plate: '' },
    ],
    lines: row.lines ?? [
      { vehicle: 0, kind: 'package', code: row.service, description: packageForPeople(row), quantity: 1, unitCents: row.list_price_cents, totalCents: row.list_price_cents, minutes },
    ],
  };
}
