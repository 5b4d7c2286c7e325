/**
 * A customer's vehicles (issue 41), from their bookings: each vehicle known by its plate, or else
 * by its make and model (a vehicle with neither cannot be told from another, so it is not listed
 * as its own), with the jobs done on it. Pure, so the server answers with it and the tests model it.
 */
import { normalisePlate, type VehicleChoice } from './job.ts';

export interface VehicleJob {
  bookingId: string;
  reference: string;
  date: string;
  service: string;
  coatingType: string;
  addOns: string[];
}

export interface CustomerVehicle {
  /** The plate, or make and model: how it is named and told apart. */
  name: string;
  /** As on its latest booking: its size, details and package, for booking it again. */
  vehicle: VehicleChoice;
  /** Its completed jobs, the latest first. */
  jobs: VehicleJob[];
}

export interface BookingOfVehicles {
  id: string;
  reference: string;
  date: string;
  status: string;
  vehicles: VehicleChoice[];
}

/** How a vehicle is told apart from another of the customer's: 'p:ABC123', or 'm:toyota corolla'; undefined without either. */
export function vehicleKey(vehicle: Pick<VehicleChoice, 'plate' | 'make' | 'model'>): string | undefined {
  const plate = normalisePlate(vehicle.plate);
  if (plate) return `p:${plate}`;
  const makeModel = [vehicle.make.trim(), vehicle.model.trim()].filter(Boolean).join(' ');
  return makeModel ? `m:${makeModel.toLowerCase()}` : undefined;
}

/**
 * The vehicles of bookings given the latest first (as a customer's page lists them), the latest
 * booked first; cancelled bookings name no vehicle of theirs.
 */
export function customerVehicles(bookings: readonly BookingOfVehicles[]): CustomerVehicle[] {
  const byKey = new Map<string, CustomerVehicle>();
  for (const booking of bookings) {
    if (booking.status === 'cancelled') continue;
    for (const vehicle of booking.vehicles) {
      const key = vehicleKey(vehicle);
      if (!key) continue;
      let known = byKey.get(key);
      if (!known) {
        const plate = normalisePlate(vehicle.plate);
        known = { name: plate || [vehicle.make.trim(), vehicle.model.trim()].filter(Boolean).join(' '), vehicle, jobs: [] };
        byKey.set(key, known);
      }
      if (booking.status === 'completed') {
        known.jobs.push({ bookingId: booking.id, reference: booking.reference, date: booking.date, service: vehicle.service, coatingType: vehicle.coatingType, addOns: vehicle.addOns });
      }
    }
  }
  return [...byKey.values()];
}
