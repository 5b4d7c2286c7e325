/**
 * A job's vehicles in words (issue 41), one way for the edit history, the dashboard's booking
 * details and the customer's page: "ABC123 (Small car): Deluxe Clean + Pet hair removal".
 */
import { findAddOn } from './add-ons.ts';
import { packageForPeople, vehicleForPeople } from './catalogue.ts';
import { vehicleName, type VehicleChoice } from './job.ts';

/** The add-ons' names, one taken twice named twice ('Pet hair removal, Odour treatment'). */
export function addOnNames(addOns: readonly string[]): string {
  return addOns.map((id) => findAddOn(id)?.name ?? id).join(', ');
}

/** One vehicle: its name, size, package (with its coating term) and add-ons. */
export function vehicleText(vehicle: VehicleChoice, index: number): string {
  const size = vehicleForPeople({ vehicle_type: vehicle.vehicleType, selected_vehicle_type: vehicle.selectedVehicleType });
  const work = packageForPeople({ service: vehicle.service, coating_type: vehicle.coatingType });
  return `${vehicleName(vehicle, index)} (${size}): ${work}${vehicle.addOns.length > 0 ? ` + ${addOnNames(vehicle.addOns)}` : ''}`;
}

/** Every vehicle of a job, one after another. */
export function jobText(vehicles: readonly VehicleChoice[]): string {
  return vehicles.map(vehicleText).join('; ');
}
