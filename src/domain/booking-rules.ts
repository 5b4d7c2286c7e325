/**
 * The booking rules of spec sections 4, 5 and 9, as pure functions shared by the server (which
 * always enforces them) and the browser (which shows the same messages before sending).
 */
import {
  CERAMIC_COATING,
  CERAMIC_SIZES,
  DEFAULT_COATING,
  VEHICLE_TYPES,
  findPackage,
  isCoatingType,
  isVehicleType,
} from './catalogue.ts';
import { MESSAGES, type FieldError } from './messages.ts';
import { addOnsFor } from './add-ons.ts';
import { JOB_MESSAGES, MAX_VEHICLES, emptyVehicle, normalisePlate, vehicleExtrasErrors, type VehicleChoice } from './job.ts';
import { TIME_SLOTS } from './schedule.ts';
import { EMAIL_PATTERN, isBlank, validateText } from './text-rules.ts';

export { TIME_SLOTS } from './schedule.ts';

export const REGIONS = [
  'Auckland',
  'Wellington',
  'Canterbury',
  'Waikato',
  'Bay of Plenty',
  'Otago',
  'Northland',
  'Manawatu-Wanganui',
  "Hawke's Bay",
  'Taranaki',
  'Southland',
  'Gisborne',
  'Marlborough',
  'Nelson',
  'Tasman',
  'West Coast',
] as const;

export const SERVICE_TYPES = ['onsite', 'dropoff'] as const;
export type ServiceType = (typeof SERVICE_TYPES)[number];
export const DEFAULT_SERVICE_TYPE: ServiceType = 'onsite';
/** Where the work happens, in words staff and customers read (forms, edit histories, e-mails). */
export const SERVICE_TYPE_LABELS: Record<ServiceType, string> = { onsite: 'On-site (we come to you)', dropoff: 'Drop-off (at our service centre)' };

/** The booking form's phone rule: 7 to 15 of digits, plus, space, brackets or hyphen. */
export const BOOKING_PHONE_PATTERN = /^[0-9+\s()-]{7,15}$/;

/** Longest accepted value of each text field (the database enforces the same limits). */
export const BOOKING_LIMITS = {
  service: 60,
  coatingType: 10,
  date: 10,
  time: 5,
  houseNumber: 20,
  streetAddress: 120,
  suburb: 80,
  city: 80,
  postalCode: 10,
  region: 40,
  landmark: 200,
  serviceType: 10,
  name: 100,
  email: 254,
  phone: 20,
  vehicleType: 10,
  notes: 1000,
  selectedVehicleType: 20,
} as const;

/** The booking form state exactly as the original client sends it (spec section 3). */
export interface BookingInput {
  service: string;
  coatingType: string;
  date: string;
  time: string;
  houseNumber: string;
  streetAddress: string;
  suburb: string;
  city: string;
  postalCode: string;
  region: string;
  landmark: string;
  saveAddress: boolean;
  serviceType: string;
  name: string;
  email: string;
  phone: string;
  vehicleType: string;
  notes: string;
  selectedVehicleType: string;
  /** Issue 41: add-on ids for the single vehicle of the original body. */
  addOns?: string[];
  /** Issue 41: one to four vehicles, each with its own package fields (the top-level ones then left out). */
  vehicles?: VehicleInput[];
}

/** One vehicle as the API takes it: every key optional, so a missing one gets its own message. */
export interface VehicleInput {
  vehicleType?: string;
  selectedVehicleType?: string;
  service?: string;
  coatingType?: string;
  addOns?: string[];
  make?: string;
  model?: string;
  colour?: string;
  plate?: string;
}

export type BookingTextField = Exclude<keyof BookingInput, 'saveAddress' | 'addOns' | 'vehicles'>;

export const ADDRESS_FIELDS = [
  'houseNumber',
  'streetAddress',
  'suburb',
  'city',
  'postalCode',
  'region',
] as const satisfies readonly BookingTextField[];

const ADDRESS_MESSAGES: Record<(typeof ADDRESS_FIELDS)[number], string> = {
  houseNumber: MESSAGES.houseNumberRequired,
  streetAddress: MESSAGES.streetAddressRequired,
  suburb: MESSAGES.suburbRequired,
  city: MESSAGES.cityRequired,
  postalCode: MESSAGES.postalCodeRequired,
  region: MESSAGES.regionRequired,
};

export function emptyBooking(): BookingInput {
  return {
    service: '',
    coatingType: '',
    date: '',
    time: '',
    houseNumber: '',
    streetAddress: '',
    suburb: '',
    city: '',
    postalCode: '',
    region: '',
    landmark: '',
    saveAddress: false,
    serviceType: DEFAULT_SERVICE_TYPE,
    name: '',
    email: '',
    phone: '',
    vehicleType: '',
    notes: '',
    selectedVehicleType: '',
  };
}

/** The dates a booking may be made for (YYYY-MM-DD, Auckland), inclusive. */
export interface DateWindow {
  min: string;
  max: string;
  /**
   * On `min` only, the earliest start (HH:mm): staff may book today from the next whole hour
   * (issue 21); absent for the online window, which starts tomorrow.
   */
  earliestTime?: string;
}

/**
 * True for a real calendar date written as YYYY-MM-DD. Checked by a UTC round trip rather than
 * date-fns' parser, so that the browser bundle, which runs this rule, stays free of date-fns.
 */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export function isCeramic(service: string): boolean {
  return service === CERAMIC_COATING;
}

/** Vehicle type for a size chosen on step 1: the size key itself, or a ceramic body style. */
export function vehicleTypeForSize(size: string): string {
  if (isVehicleType(size)) return size;
  return CERAMIC_SIZES.find((s) => s.key === size)?.vehicleType ?? '';
}

const SELECTABLE_SIZES: readonly string[] = [...VEHICLE_TYPES, ...CERAMIC_SIZES.map((s) => s.key)];

/** Step 1: package, coating and vehicle size. */
export function validateServiceStep(input: Pick<BookingInput, 'service' | 'coatingType' | 'vehicleType' | 'selectedVehicleType'>): FieldError[] {
  const errors: FieldError[] = [];
  if (isBlank(input.service)) {
    errors.push({ field: 'service', message: MESSAGES.serviceRequired });
  } else if (!findPackage(input.service)) {
    errors.push({ field: 'service', message: MESSAGES.serviceUnknown });
  }
  if (isCeramic(input.service)) {
    if (!isCoatingType(input.coatingType)) {
      errors.push({ field: 'coatingType', message: MESSAGES.coatingRequired });
    }
  } else if (!isBlank(input.coatingType)) {
    errors.push({ field: 'coatingType', message: MESSAGES.coatingNotAllowed });
  }
  if (!isVehicleType(input.vehicleType)) {
    errors.push({ field: 'vehicleType', message: MESSAGES.vehicleTypeRequired });
  }
  if (input.selectedVehicleType !== '' && !SELECTABLE_SIZES.includes(input.selectedVehicleType)) {
    errors.push({ field: 'selectedVehicleType', message: MESSAGES.selectedVehicleTypeInvalid });
  }
  return errors;
}

/** What is wrong with a chosen day, if anything: given, a real date, inside the booking window. */
export function dateError(date: string, window: DateWindow): FieldError | undefined {
  if (isBlank(date)) return { field: 'date', message: MESSAGES.dateRequired };
  if (!isCalendarDate(date)) return { field: 'date', message: MESSAGES.dateInvalid };
  if (date < window.min) return { field: 'date', message: MESSAGES.datePast };
  if (date > window.max) return { field: 'date', message: MESSAGES.dateTooFar };
  return undefined;
}

/** What is wrong with a chosen time, if anything: given, and one of the slots. */
export function timeError(time: string): FieldError | undefined {
  if (isBlank(time)) return { field: 'time', message: MESSAGES.timeRequired };
  if (!TIME_SLOTS.includes(time)) return { field: 'time', message: MESSAGES.timeInvalid };
  return undefined;
}

/** Step 2: date, time and, for on-site service, the address. */
export function validateScheduleStep(
  input: Pick<BookingInput, 'date' | 'time' | 'serviceType' | (typeof ADDRESS_FIELDS)[number]>,
  window: DateWindow,
): FieldError[] {
  const errors = [dateError(input.date, window), timeError(input.time)].filter((error) => error !== undefined);
  if (!(SERVICE_TYPES as readonly string[]).includes(input.serviceType)) {
    errors.push({ field: 'serviceType', message: MESSAGES.serviceTypeRequired });
  }
  if (input.serviceType === 'onsite') {
    for (const field of ADDRESS_FIELDS) {
      if (isBlank(input[field])) errors.push({ field, message: ADDRESS_MESSAGES[field] });
    }
    if (!isBlank(input.postalCode) && !/^[0-9]{4}$/.test(input.postalCode.trim())) {
      errors.push({ field: 'postalCode', message: MESSAGES.postalCodeInvalid });
    }
    if (!isBlank(input.region) && !(REGIONS as readonly string[]).includes(input.region)) {
      errors.push({ field: 'region', message: MESSAGES.regionRequired });
    }
  }
  return errors;
}

/** Step 3: the customer's details. A booking taken by staff may have no e-mail (`emailOptional`); the phone is always required. */
export function validateDetailsStep(input: Pick<BookingInput, 'name' | 'email' | 'phone'>, emailOptional = false): FieldError[] {
  const errors: FieldError[] = [];
  if (isBlank(input.name)) errors.push({ field: 'name', message: MESSAGES.fullNameRequired });
  if (isBlank(input.email)) {
    if (!emailOptional) errors.push({ field: 'email', message: MESSAGES.emailRequired });
  } else if (!EMAIL_PATTERN.test(input.email.trim())) {
    errors.push({ field: 'email', message: MESSAGES.emailInvalid });
  }
  if (isBlank(input.phone)) {
    errors.push({ field: 'phone', message: MESSAGES.phoneRequired });
  } else if (!BOOKING_PHONE_PATTERN.test(input.phone.trim())) {
    errors.push({ field: 'phone', message: MESSAGES.phoneInvalid });
  }
  return errors;
}

const PACKAGE_FIELDS = ['service', 'coatingType', 'vehicleType', 'selectedVehicleType'] as const;

/** A vehicle of the API with every field given, trimmed, its size from the chosen one when not sent, its plate as stored. */
export function vehicleOf(v: VehicleInput): VehicleChoice {
  const selectedVehicleType = (v.selectedVehicleType ?? '').trim();
  return {
    service: (v.service ?? '').trim(),
    coatingType: (v.coatingType ?? '').trim(),
    vehicleType: (v.vehicleType ?? '').trim() || vehicleTypeForSize(selectedVehicleType),
    selectedVehicleType,
    addOns: (v.addOns ?? []).map((id) => id.trim()),
    make: (v.make ?? '').trim(),
    model: (v.model ?? '').trim(),
    colour: (v.colour ?? '').trim(),
    plate: normalisePlate(v.plate ?? ''),
  };
}

/**
 * The vehicles of a booking (issue 41): `vehicles` when sent, else the one vehicle of the original
 * body with its `addOns`; and what is wrong with them, each error naming its field with its index
 * (`vehicles[1].service`, `vehicles[0].addOns[2]`; `addOns[0]` for the original body's vehicle,
 * whose package fields keep their own names).
 */
export function jobOf(input: BookingInput): { vehicles: VehicleChoice[]; errors: FieldError[] } {
  if (input.vehicles === undefined) {
    const vehicle = vehicleOf({ ...input, vehicleType: input.vehicleType, addOns: input.addOns ?? [] });
    return { vehicles: [vehicle], errors: [...validateServiceStep(input), ...vehicleExtrasErrors(vehicle, '')] };
  }
  const errors: FieldError[] = [];
  for (const field of PACKAGE_FIELDS) {
    if (!isBlank(input[field])) errors.push({ field, message: JOB_MESSAGES.vehiclesWithTopLevel });
  }
  if (input.addOns !== undefined && input.addOns.length > 0) errors.push({ field: 'addOns', message: JOB_MESSAGES.vehiclesWithTopLevel });
  if (input.vehicles.length === 0) errors.push({ field: 'vehicles', message: JOB_MESSAGES.noVehicles });
  if (input.vehicles.length > MAX_VEHICLES) errors.push({ field: 'vehicles', message: JOB_MESSAGES.tooManyVehicles });
  const vehicles = input.vehicles.slice(0, MAX_VEHICLES).map(vehicleOf);
  vehicles.forEach((vehicle, i) => {
    const prefix = `vehicles[${i}].`;
    errors.push(...validateServiceStep(vehicle).map((e) => ({ ...e, field: prefix + e.field })), ...vehicleExtrasErrors(vehicle, prefix));
  });
  return { vehicles, errors };
}

/**
 * All rules of the three steps, in the order the wizard checks them; the server's final word.
 * A field reported as too long or holding control characters is not reported again by the step
 * rules.
 */
export function validateBooking(input: BookingInput, window: DateWindow, options: { emailOptional?: boolean } = {}): FieldError[] {
  const lengthErrors = validateText(input, BOOKING_LIMITS, ['notes']);
  const tooLongFields = new Set(lengthErrors.map((e) => e.field));
  const ruleErrors = [
    ...jobOf(input).errors,
    ...validateScheduleStep(input, window),
    ...validateDetailsStep(input, options.emailOptional),
  ].filter((e) => !tooLongFields.has(e.field));
  return [...ruleErrors, ...lengthErrors];
}

/**
 * The choice made on step 1, completed as the wizard leaves it (spec section 4): vehicleType from
 * the chosen size, the coating defaulted to 1 year for Ceramic Coating and cleared for any other
 * package. (The original compared against the misspelt 'Cerimic Coating', so for the real package
 * neither the default nor the coating rule ever applied; here they do.)
 */
export function completeServiceChoice<T extends Pick<BookingInput, 'service' | 'coatingType' | 'vehicleType' | 'selectedVehicleType'>>(input: T): T {
  return {
    ...input,
    vehicleType: vehicleTypeForSize(input.selectedVehicleType),
    coatingType: isCeramic(input.service) ? input.coatingType || DEFAULT_COATING : '',
  };
}

export type WizardStepNumber = 1 | 2 | 3;

const STEP_ONE_FIELDS: readonly string[] = ['service', 'coatingType', 'vehicleType', 'selectedVehicleType', 'make', 'model', 'colour', 'plate', 'vehicles'];
const STEP_TWO_FIELDS: readonly string[] = ['date', 'time', 'serviceType', ...ADDRESS_FIELDS, 'landmark', 'saveAddress'];

/** The wizard step on which a payload key is filled in. */
export function stepOfField(field: string): WizardStepNumber {
  if (STEP_ONE_FIELDS.includes(field) || /^(vehicles|addOns)\[/.test(field)) return 1;
  if (STEP_TWO_FIELDS.includes(field)) return 2;
  return 3;
}

/**
 * The wizard's state (issue 41): the original fields but the package ones, which each vehicle of
 * `vehicles` (one to four) holds. The first vehicle's controls keep the original names (`service`,
 * `addOns`, `plate`) and its errors theirs, so a single vehicle's form and messages are as before;
 * a later vehicle's are named `vehicles[1][service]` in forms and `vehicles[1].service` in errors.
 */
export type WizardInput = Omit<BookingInput, (typeof PACKAGE_FIELDS)[number] | 'addOns' | 'vehicles'> & { vehicles: VehicleChoice[] };

export function emptyWizard(): WizardInput {
  const { service, coatingType, vehicleType, selectedVehicleType, ...rest } = emptyBooking();
  return { ...rest, vehicles: [emptyVehicle()] };
}

/** A vehicle's field in the wizard's forms and errors (see WizardInput). */
export const vehicleFormName = (i: number, field: string) => (i === 0 ? field : `vehicles[${i}][${field}]`);
export const vehicleErrorField = (i: number, field: string) => (i === 0 ? field : `vehicles[${i}].${field}`);

/** An error of a body sent with `vehicles`, named as the wizard names it. */
export const wizardField = (error: FieldError): FieldError => ({ ...error, field: error.field.replace(/^vehicles\[0\]\./, '') });

/**
 * What the wizard sends: the original body for one vehicle without details (with `addOns` when it
 * has some), else `vehicles`, which alone can say more.
 */
export function jobBody(input: WizardInput): BookingInput {
  const { vehicles, ...rest } = input;
  const [first] = vehicles;
  if (vehicles.length === 1 && first && !first.make && !first.model && !first.colour && !first.plate) {
    const { service, coatingType, vehicleType, selectedVehicleType, addOns } = first;
    return { ...rest, service, coatingType, vehicleType, selectedVehicleType, ...(addOns.length > 0 ? { addOns } : {}) };
  }
  return { ...rest, service: '', coatingType: '', vehicleType: '', selectedVehicleType: '', vehicles };
}

/**
 * A vehicle as the wizard leaves step 1: its choice completed (completeServiceChoice) and its
 * add-ons those that fit the package, each once: a package changed without JavaScript leaves the
 * boxes ticked under the other one.
 */
export function completeVehicle(vehicle: VehicleChoice): VehicleChoice {
  const fits = addOnsFor(vehicle.service);
  return completeServiceChoice({ ...vehicle, addOns: [...new Set(vehicle.addOns)].filter((id) => fits.some((addOn) => addOn.id === id)) });
}

/** Step 1 of the wizard: every vehicle's rules, named as the wizard names its fields. */
export function validateVehiclesStep(input: WizardInput): FieldError[] {
  return jobOf(jobBody(input)).errors.map(wizardField);
}
