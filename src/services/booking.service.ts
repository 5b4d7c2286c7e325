/**
 * Taking a booking: the server's final check of every rule, the slot capacity, and the write.
 * The capacity check and the insert share one transaction holding the slot's lock, so two
 * customers racing for the last place cannot both get it. Given a transaction (an idempotent
 * request's, which stores its answer beside the booking), it runs in that one.
 */
import type { Kysely } from 'kysely';
import { priceFor } from '../domain/catalogue.ts';
import { validateBooking, type BookingInput } from '../domain/booking-rules.ts';
import { bookingWindow } from '../domain/booking-dates.ts';
import { MESSAGES } from '../domain/messages.ts';
import type { Booking, Database } from '../db/database.ts';
import { countActiveInSlot, insertBooking, listAllBookings, lockSlot } from '../db/bookings.repository.ts';
import { inTransaction } from '../db/transaction.ts';
import { conflict, validationFailed } from '../errors.ts';

export interface BookingOptions {
  now: Date;
  slotCapacity: number;
}

/** Text fields are stored without surrounding spaces; everything else as sent. */
function normalise(input: BookingInput): BookingInput {
  const trimmed = { ...input };
  for (const [key, value] of Object.entries(trimmed)) {
    if (typeof value === 'string') (trimmed as Record<string, unknown>)[key] = value.trim();
  }
  return trimmed;
}

export async function createBooking(db: Kysely<Database>, raw: BookingInput, options: BookingOptions): Promise<Booking> {
  const input = normalise(raw);
  const errors = validateBooking(input, bookingWindow(options.now));
  if (errors.length > 0) throw validationFailed(errors);
  const price = priceFor(input.service, input.vehicleType, input.coatingType);
  if (price === undefined) throw validationFailed([{ field: 'service', message: MESSAGES.serviceUnknown }]);

  return inTransaction(db, async (trx) => {
    await lockSlot(trx, input.date, input.time);
    if ((await countActiveInSlot(trx, input.date, input.time)) >= options.slotCapacity) {
      throw conflict(MESSAGES.slotFull, [{ field: 'time', message: MESSAGES.slotFull }]);
    }
    return insertBooking(trx, {
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
      price_nzd: price,
    });
  });
}

export function listBookings(db: Kysely<Database>): Promise<Booking[]> {
  return listAllBookings(db);
}
