/**
 * What the customer books (issue 41): one to four vehicles, each a package for its size (with its
 * coating term for Ceramic Coating) and add-ons, priced and timed line by line. Pure, so the
 * wizard shows the same lines, minutes and messages the server stores. On site one van does the
 * vehicles one after another, at drop-off one bay: the job's minutes are the sum of its lines'.
 */
import { ADD_ONS, findAddOn } from './add-ons.ts';
import { CERAMIC_COATING, VEHICLE_LABELS, durationFor, findPackage, isCoatingType, isVehicleType, packageForPeople, priceFor } from './catalogue.ts';
import { MESSAGES, tooLong, type FieldError } from './messages.ts';
import { quoteFor, type JobLine, type JobQuote } from './pricing.ts';
import { hasControlCharacters } from './text-rules.ts';

export const MAX_VEHICLES = 4;
/** NZ plates: 1 to 6 letters and digits (personalised plates included), stored upper case without spaces. */
export const PLATE_PATTERN = /^[A-Z0-9]{1,6}$/;
export const VEHICLE_TEXT_LIMITS = { make: 40, model: 40, colour: 30, plate: 10 } as const;

export const JOB_MESSAGES = {
  tooManyVehicles: `Please book at most ${MAX_VEHICLES} vehicles in one visit (call us for a fleet)`,
  noVehicles: 'Please add at least one vehicle',
  addOnUnknown: 'Please choose add-ons from our list',
  addOnDoesNotFit: "That add-on can't be done with this package",
  addOnTooMany: (max: number) => `This add-on can be added at most ${max === 1 ? 'once' : `${max} times`} per vehicle`,
  plateInvalid: 'Please enter the plate as 1 to 6 letters and digits',
  vehiclesWithTopLevel: 'Send the service fields inside each vehicle when you send vehicles',
} as const;

/** One vehicle of a job, as the API and the forms name its fields. */
export interface VehicleChoice {
  vehicleType: string;
  /** The size as chosen on the page (a ceramic body style), kept as the original client sent it. */
  selectedVehicleType: string;
  service: string;
  coatingType: string;
  addOns: string[];
  make: string;
  model: string;
  colour: string;
  plate: string;
}

export function emptyVehicle(): VehicleChoice {
  return { vehicleType: '', selectedVehicleType: '', service: '', coatingType: '', addOns: [], make: '', model: '', colour: '', plate: '' };
}

export type { JobLine } from './pricing.ts';

/** A line as a booking stores it (migrations/035): which vehicle, and whether a package or an add-on (its name or id). */
export interface StoredLine extends JobLine {
  vehicle: number;
  kind: 'package' | 'add-on';
  code: string;
}

/** A plate as stored: upper case, spaces and hyphens out ('abc 123' → 'ABC123'). */
export function normalisePlate(plate: string): string {
  return plate.replace(/[\s-]/g, '').toUpperCase();
}

/** How a vehicle is named on lines and pages: its plate, else make and model, else its position. */
export function vehicleName(vehicle: Pick<VehicleChoice, 'plate' | 'make' | 'model'>, index: number): string {
  const plate = normalisePlate(vehicle.plate);
  if (plate) return plate;
  const makeModel = [vehicle.make.trim(), vehicle.model.trim()].filter(Boolean).join(' ');
  return makeModel || `Vehicle ${index + 1}`;
}

/** Add-on ids with how many of each, in the order first chosen. */
function counted(addOns: readonly string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const id of addOns) counts.set(id, (counts.get(id) ?? 0) + 1);
  return [...counts];
}

/**
 * A vehicle's lines as a booking stores them: its package, then each add-on (quantity for one
 * taken more than once); undefined for a vehicle the catalogue cannot price. The vehicle is named
 * on a line only when shown (presentLines), so that erasing a plate leaves no copy of it here.
 */
export function vehicleLines(vehicle: VehicleChoice, index: number): StoredLine[] | undefined {
  const size = vehicle.vehicleType;
  const packageCents = priceFor(vehicle.service, size, vehicle.coatingType);
  const packageMinutes = durationFor(vehicle.service, size, vehicle.coatingType);
  if (packageCents === undefined || packageMinutes === undefined || !isVehicleType(size)) return undefined;
  const lines: StoredLine[] = [
    {
      vehicle: index,
      kind: 'package',
      code: vehicle.service,
      description: `${packageForPeople({ service: vehicle.service, coating_type: vehicle.coatingType })}, ${VEHICLE_LABELS[size]}`,
      quantity: 1,
      unitCents: packageCents * 100,
      totalCents: packageCents * 100,
      minutes: packageMinutes,
    },
  ];
  for (const [id, quantity] of counted(vehicle.addOns)) {
    const addOn = findAddOn(id);
    if (!addOn) return undefined;
    lines.push({ vehicle: index, kind: 'add-on', code: id, description: addOn.name, quantity, unitCents: addOn.prices[size], totalCents: addOn.prices[size] * quantity, minutes: addOn.minutes[size] * quantity });
  }
  return lines;
}

/** Every line of a job, vehicle by vehicle; undefined when a vehicle is not bookable. */
export function jobLines(vehicles: readonly VehicleChoice[]): StoredLine[] | undefined {
  const lines: StoredLine[] = [];
  for (const [i, vehicle] of vehicles.entries()) {
    const own = vehicleLines(vehicle, i);
    if (!own) return undefined;
    lines.push(...own);
  }
  return lines;
}

/** Lines as people read them: with the vehicle named first when the job has several ('ABC123: Pet hair removal'). */
export function presentLines(lines: readonly StoredLine[], vehicles: readonly Pick<VehicleChoice, 'plate' | 'make' | 'model'>[]): JobLine[] {
  return lines.map(({ vehicle, description, quantity, unitCents, totalCents, minutes }) => ({
    description: vehicles.length > 1 && vehicles[vehicle] ? `${vehicleName(vehicles[vehicle]!, vehicle)}: ${description}` : description,
    quantity,
    unitCents,
    totalCents,
    minutes,
  }));
}

export const linesCents = (lines: readonly JobLine[]): number => lines.reduce((sum, l) => sum + l.totalCents, 0);
export const linesMinutes = (lines: readonly JobLine[]): number => lines.reduce((sum, l) => sum + l.minutes, 0);

/** The quote of a job given line by line: the list price is the lines' sum, the discount applies once to it. */
export function quoteForJob(lines: readonly JobLine[], firstService: boolean, travelFeeCents = 0): JobQuote {
  return { ...quoteFor(linesCents(lines), firstService, travelFeeCents), lines: [...lines], durationMinutes: linesMinutes(lines) };
}

/**
 * What is wrong with one vehicle's add-ons and details, each error naming its field under
 * `prefix` ('vehicles[1].addOns[2]', or 'addOns[0]' for the single vehicle of the original body).
 * The package fields are checked by the booking rules (validateServiceStep) with the same prefix.
 */
export function vehicleExtrasErrors(vehicle: VehicleChoice, prefix: string): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Map<string, number>();
  vehicle.addOns.forEach((id, i) => {
    const field = `${prefix}addOns[${i}]`;
    const addOn = findAddOn(id);
    if (!addOn) return void errors.push({ field, message: JOB_MESSAGES.addOnUnknown });
    if (findPackage(vehicle.service) && !addOn.fits.includes(vehicle.service)) return void errors.push({ field, message: JOB_MESSAGES.addOnDoesNotFit });
    const count = (seen.get(id) ?? 0) + 1;
    seen.set(id, count);
    if (count > addOn.max) errors.push({ field, message: JOB_MESSAGES.addOnTooMany(addOn.max) });
  });
  for (const key of ['make', 'model', 'colour', 'plate'] as const) {
    const value = vehicle[key];
    if (value.length > VEHICLE_TEXT_LIMITS[key]) errors.push({ field: `${prefix}${key}`, message: tooLong(VEHICLE_TEXT_LIMITS[key]) });
    else if (hasControlCharacters(value)) errors.push({ field: `${prefix}${key}`, message: MESSAGES.controlCharacters });
  }
  const plate = normalisePlate(vehicle.plate);
  if (plate !== '' && vehicle.plate.length <= VEHICLE_TEXT_LIMITS.plate && !PLATE_PATTERN.test(plate)) {
    errors.push({ field: `${prefix}plate`, message: JOB_MESSAGES.plateInvalid });
  }
  return errors;
}

/** The coating a vehicle is booked with: the term for Ceramic Coating, nothing for any other package. */
export function coatingOf(vehicle: Pick<VehicleChoice, 'service' | 'coatingType'>): string {
  return vehicle.service === CERAMIC_COATING ? (isCoatingType(vehicle.coatingType) ? vehicle.coatingType : '') : '';
}

/** Every add-on id the catalogue has, for schemas and forms. */
export const ADD_ON_CHOICES = ADD_ONS.map((a) => ({ id: a.id, name: a.name }));
