/**
 * Staff edits of a booking (issue 21): contact details, address, notes, on-site or drop-off,
 * package, vehicle size, coating, the vehicles with their add-ons (issue 41), date, time, van or bay,
 * and the price adjustment, in one compare-and-set on the version. The same rules as a booking taken by staff (src/domain/booking-rules.ts with the
 * staff window); a change of package, size, coating or vehicles is re-quoted line by line by the
 * same pricing code (the first-service discount the booking was given is kept, at its percentage,
 * and so is the travel fee); a new date,
 * time, van or bay, or a new duration, goes through the scheduling engine under the kind's day
 * lock and is refused with its reason when it does not fit. Every edit is written to the
 * booking's history (what changed, from what, to what, by whom); the customer is told by e-mail
 * (with the updated invitation: same UID, higher SEQUENCE) through the outbox in the same
 * transaction, and the reminder is queued again from the new facts.
 *
 * `dryRun` does all of it but the writes: the dashboard shows the new quote and whether the move
 * fits before saving.
 */
import type { Kysely } from 'kysely';
import {
  ADDRESS_FIELDS,
  completeServiceChoice,
  emptyBooking,
  isCeramic,
  jobOf,
  SERVICE_TYPE_LABELS,
  validateBooking,
  vehicleTypeForSize,
  type BookingInput,
  type ServiceType,
  type VehicleInput,
} from '../domain/booking-rules.ts';
import { appointmentText, staffBookingWindow } from '../domain/booking-dates.ts';
import { DEFAULT_COATING, packageForPeople, vehicleForPeople } from '../domain/catalogue.ts';
import { MESSAGES, type FieldError } from '../domain/messages.ts';
import { formatNzd, percentOf, type JobQuote } from '../domain/pricing.ts';
import { JOB_MESSAGES, jobLines, linesCents, linesMinutes, vehicleExtrasErrors, type VehicleChoice } from '../domain/job.ts';
import { jobText } from '../domain/vehicle-text.ts';
import { adjustmentErrors, STAFF_BOOKING_MESSAGES, staffStartErrors } from '../domain/staff-booking-rules.ts';
import type { Booking, BookingFieldChange, BookingStatusChange, BookingUpdate, Database } from '../db/database.ts';
import { bookingColumnsOf, bookingInputOf, storedQuote } from '../db/booking-input.ts';
import { findBooking, insertStatusChange, lockPlacement, statusHistory } from '../db/bookings.repository.ts';
import { listResources } from '../db/resources.repository.ts';
import { AppError, conflict, validationFailed } from '../errors.ts';
import { onSiteAddress } from '../mail/booking-facts.ts';
import { queueBookingMail } from '../mail/booking-mail.ts';
import type { MailContext } from '../mail/mail-context.ts';
import { bookedDuration, kindOf, placeJob, zoneOfJob, type Placement } from './scheduling.service.ts';
import { listZones } from '../db/service-zones.repository.ts';
import { bookingAtVersion, StaleBookingError } from './staff-bookings.service.ts';

/** The fields staff may change; each absent one stays as it is. */
export interface BookingEdit {
  name?: string;
  email?: string;
  phone?: string;
  houseNumber?: string;
  streetAddress?: string;
  suburb?: string;
  city?: string;
  postalCode?: string;
  region?: string;
  landmark?: string;
  notes?: string;
  /** 'onsite' or 'dropoff': placed again through the engine on a van or a bay; a drop-off keeps no address. */
  serviceType?: string;
  service?: string;
  selectedVehicleType?: string;
  vehicleType?: string;
  coatingType?: string;
  /**
   * The job's vehicles from now on (issue 41), each with its package and add-ons, as
   * create-booking takes them; the single-vehicle fields (service, sizes, coating) are then left out.
   */
  vehicles?: VehicleInput[];
  date?: string;
  time?: string;
  /** A van or bay of the job's kind; null: let the schedule choose. */
  resourceId?: string | null;
  /** The adjustment as it should be from now on (0: none), with its reason. */
  priceAdjustmentCents?: number;
  priceAdjustmentReason?: string;
}

export interface EditRequest {
  id: string;
  /** The version the staff member was looking at. */
  version: number;
  edit: BookingEdit;
  /** E-mail the customer "Your booking has changed"; default: when the booking has an address. */
  notifyCustomer?: boolean;
  /** Work everything out (the quote, the placement) but write nothing. */
  dryRun?: boolean;
  by: string;
}

export interface EditResult {
  booking: Booking;
  history: BookingStatusChange[];
  changes: BookingFieldChange[];
  quote: JobQuote;
  /** Whether the customer was (or, for a dry run, would be) e-mailed. */
  customerNotified: boolean;
  dryRun: boolean;
}

/** The history's and the e-mail's names of the fields, as people read them. */
export const CHANGE_LABELS = {
  name: 'Name',
  email: 'E-mail',
  phone: 'Phone',
  address: 'Address',
  notes: 'Notes',
  package: 'Package',
  vehicle: 'Vehicle size',
  vehicles: 'Vehicles',
  when: 'When',
  where: 'Where',
  resource: 'Van or bay',
  adjustment: 'Price adjustment',
  total: 'Total',
} as const;

/** Changes staff make that the customer is not told of (which van comes is the business's affair). */
const STAFF_ONLY_CHANGES: readonly string[] = [CHANGE_LABELS.resource];

const SERVICE_FIELDS = ['service', 'selectedVehicleType', 'vehicleType', 'coatingType'] as const;

const TEXT_FIELDS = [
  'name',
  'email',
  'phone',
  'houseNumber',
  'streetAddress',
  'suburb',
  'city',
  'postalCode',
  'region',
  'landmark',
  'notes',
  'serviceType',
  'service',
  'selectedVehicleType',
  'vehicleType',
  'coatingType',
  'date',
  'time',
] as const;

/** The booking's input with the edit applied, the service choice completed as the wizard completes it. */
function applyEdit(current: BookingInput, edit: BookingEdit): BookingInput {
  const next: BookingInput = { ...current };
  for (const field of TEXT_FIELDS) {
    const value = edit[field];
    if (value !== undefined) next[field] = value.trim();
  }
  if (next.serviceType === 'dropoff' && current.serviceType !== 'dropoff') {
    // The car comes to a bay: the address it was to be washed at is no longer the booking's.
    for (const field of [...ADDRESS_FIELDS, 'landmark'] as const) next[field] = '';
    next.saveAddress = false;
  }
  const serviceEdited = SERVICE_FIELDS.some((field) => edit[field] !== undefined);
  if (!serviceEdited) return next;
  if (edit.selectedVehicleType !== undefined && edit.vehicleType === undefined) {
    return { ...completeServiceChoice(next), coatingType: isCeramic(next.service) ? next.coatingType || DEFAULT_COATING : '' };
  }
  if (edit.selectedVehicleType === undefined && edit.vehicleType !== undefined && vehicleTypeForSize(next.selectedVehicleType) !== next.vehicleType) {
    // A size sent as vehicleType alone replaces the body style chosen before.
    next.selectedVehicleType = next.vehicleType;
  }
  next.coatingType = isCeramic(next.service) ? next.coatingType || DEFAULT_COATING : '';
  return next;
}

export const addressOf = (row: Booking) => [onSiteAddress(row), row.landmark.trim() ? `(${row.landmark.trim()})` : ''].filter(Boolean).join(' ');
const whereText = (row: Booking) => SERVICE_TYPE_LABELS[row.service_type as ServiceType] ?? row.service_type;
const adjustmentText = (row: Booking) => (row.price_adjustment_cents === 0 ? '' : `${formatNzd(row.price_adjustment_cents)} (${row.price_adjustment_reason ?? ''})`);

const VEHICLE_KEYS = ['vehicleType', 'selectedVehicleType', 'service', 'coatingType', 'make', 'model', 'colour', 'plate'] as const;

function sameVehicles(a: readonly VehicleChoice[], b: readonly VehicleChoice[]): boolean {
  return a.length === b.length && a.every((v, i) => VEHICLE_KEYS.every((key) => v[key] === b[i]![key]) && v.addOns.join() === b[i]!.addOns.join());
}

/** One vehicle without add-ons or details: its package and size say all there is (their own lines of the history). */
const plainJob = (vehicles: readonly VehicleChoice[]) => vehicles.length === 1 && vehicles[0]!.addOns.length === 0 && !vehicles[0]!.plate && !vehicles[0]!.make && !vehicles[0]!.model;

/** What differs between two versions of a booking, field by field, in people's words. */
function changesBetween(before: Booking, after: Booking, resourceName: (id: string | null) => string): BookingFieldChange[] {
  const pairs: [string, string, string][] = [
    [CHANGE_LABELS.name, before.name, after.name],
    [CHANGE_LABELS.email, before.email, after.email],
    [CHANGE_LABELS.phone, before.phone, after.phone],
    [CHANGE_LABELS.where, whereText(before), whereText(after)],
    [CHANGE_LABELS.address, addressOf(before), addressOf(after)],
    [CHANGE_LABELS.notes, before.notes, after.notes],
    [CHANGE_LABELS.package, packageForPeople(before), packageForPeople(after)],
    [CHANGE_LABELS.vehicle, vehicleForPeople(before), vehicleForPeople(after)],
    ...(plainJob(before.vehicles) && plainJob(after.vehicles) ? [] : [[CHANGE_LABELS.vehicles, jobText(before.vehicles), jobText(after.vehicles)] as [string, string, string]]),
    [CHANGE_LABELS.when, appointmentText(before.date, before.time), appointmentText(after.date, after.time)],
    [CHANGE_LABELS.resource, resourceName(before.resource_id), resourceName(after.resource_id)],
    [CHANGE_LABELS.adjustment, adjustmentText(before), adjustmentText(after)],
    [CHANGE_LABELS.total, formatNzd(before.total_cents), formatNzd(after.total_cents)],
  ];
  return pairs.filter(([, from, to]) => from !== to).map(([field, from, to]) => ({ field, from, to }));
}

/** The bounds a stored date already has: only a new date or time is held to the staff window. */
const ANY_DATE = { min: '0000-01-01', max: '9999-12-31' };

export async function editBooking(db: Kysely<Database>, request: EditRequest, options: { now: Date; mail: MailContext }): Promise<EditResult> {
  const { edit } = request;
  if (edit.priceAdjustmentCents !== undefined && edit.priceAdjustmentCents !== 0 && edit.priceAdjustmentReason === undefined) {
    throw validationFailed([{ field: 'priceAdjustmentReason', message: STAFF_BOOKING_MESSAGES.adjustmentReasonRequired }]);
  }
  if (edit.vehicles !== undefined) {
    const mixed = SERVICE_FIELDS.filter((field) => edit[field] !== undefined);
    if (mixed.length > 0) throw validationFailed(mixed.map((field) => ({ field, message: JOB_MESSAGES.vehiclesWithTopLevel })));
  }
  const run = async (trx: Kysely<Database>): Promise<EditResult> => {
    const current = await bookingAtVersion(trx, request.id, request.version);

    const before = bookingInputOf(current);
    const next = applyEdit(before, edit);
    // The vehicles asked for, checked as create-booking checks them (indexed fields); the
    // single-vehicle columns then hold the first one's package, as when the booking was taken.
    const asked = edit.vehicles === undefined ? undefined : jobOf({ ...emptyBooking(), vehicles: edit.vehicles });
    if (asked && asked.errors.length === 0) {
      const first = asked.vehicles[0]!;
      Object.assign(next, { service: first.service, vehicleType: first.vehicleType, selectedVehicleType: first.selectedVehicleType, coatingType: first.coatingType });
    }
    const moved = next.date !== before.date || next.time !== before.time;
    const kindChanged = next.serviceType !== before.serviceType;
    const serviceChanged = asked ? !sameVehicles(asked.vehicles, current.vehicles) : next.service !== before.service || next.vehicleType !== before.vehicleType || next.coatingType !== before.coatingType;
    const adjustment =
      edit.priceAdjustmentCents === undefined
        ? storedQuote(current).adjustment ?? null
        : edit.priceAdjustmentCents === 0
          ? null
          : { cents: edit.priceAdjustmentCents, reason: (edit.priceAdjustmentReason ?? '').trim() };
    const window = moved ? staffBookingWindow(options.now) : ANY_DATE;
    const ruleErrors = validateBooking(next, window, { emailOptional: true });
    const errors: FieldError[] = [...(asked?.errors ?? []), ...ruleErrors, ...staffStartErrors(next, window, ruleErrors), ...adjustmentErrors(adjustment)];
    if (errors.length > 0) throw validationFailed(errors);

    const resourceAsked = edit.resourceId !== undefined && edit.resourceId !== null && edit.resourceId !== current.resource_id;
    const adjustmentChanged = (adjustment?.cents ?? 0) !== current.price_adjustment_cents || (adjustment?.reason ?? null) !== current.price_adjustment_reason;
    if ((moved || kindChanged || serviceChanged || resourceAsked || adjustmentChanged) && current.status !== 'pending' && current.status !== 'confirmed') {
      throw conflict(STAFF_BOOKING_MESSAGES.notPlaced, [{ field: 'status', message: STAFF_BOOKING_MESSAGES.notPlaced }]);
    }

    // The price: re-quoted from the catalogue when the choice changed, the discount kept at its
    // percentage. Either the vehicles are sent whole, or the package edited is the first
    // vehicle's; its add-ons and the other vehicles stay, each line priced and timed again (an
    // add-on that no longer fits is a 400).
    let listCents = current.list_price_cents;
    let durationMinutes = bookedDuration(current);
    let vehicles = current.vehicles;
    let lines = current.lines;
    if (serviceChanged) {
      if (asked) vehicles = asked.vehicles;
      else {
        const first = { ...current.vehicles[0]!, service: next.service, vehicleType: next.vehicleType, selectedVehicleType: next.selectedVehicleType, coatingType: next.coatingType };
        const extras = vehicleExtrasErrors(first, current.vehicles.length > 1 ? 'vehicles[0].' : '');
        if (extras.length > 0) throw validationFailed(extras);
        vehicles = [first, ...current.vehicles.slice(1)];
      }
      const priced = jobLines(vehicles);
      if (!priced) throw validationFailed([{ field: 'service', message: MESSAGES.serviceUnknown }]);
      lines = priced;
      listCents = linesCents(lines);
      durationMinutes = linesMinutes(lines);
    }
    // Where: a job still to do, on site at a new postcode (or newly on site), takes the zone of the
    // postcode and its travel fee (a 400 when it is in none); otherwise the zone and fee it was
    // booked with (a correction of a done job's address re-prices nothing).
    const open = current.status === 'pending' || current.status === 'confirmed';
    const whereChanged = kindChanged || (open && next.serviceType === 'onsite' && next.postalCode.trim() !== before.postalCode.trim());
    let zoneId = current.zone_id;
    let travelFeeCents = current.travel_fee_cents;
    if (next.serviceType !== 'onsite') [zoneId, travelFeeCents] = [null, 0];
    else if (whereChanged) {
      const zone = zoneOfJob(await listZones(trx), { postalCode: next.postalCode, business: options.mail.business });
      [zoneId, travelFeeCents] = [zone?.id ?? null, zone?.travelFeeCents ?? 0];
    }
    const discountCents = current.discount_percent !== null && current.discount_kind !== null ? percentOf(listCents, current.discount_percent) : 0;
    const totalCents = listCents - discountCents + travelFeeCents + (adjustment?.cents ?? 0);
    if (totalCents < 0) throw validationFailed([{ field: 'priceAdjustmentCents', message: STAFF_BOOKING_MESSAGES.totalNegative }]);

    // The place: through the engine when the time, the van or bay, the zone or the duration changed.
    let placement: Placement | undefined;
    if (moved || whereChanged || resourceAsked || durationMinutes !== bookedDuration(current)) {
      const kind = kindOf(next.serviceType);
      await lockPlacement(trx, next.date, [kind]);
      const job = { kind, date: next.date, time: next.time, durationMinutes, zoneId, bookingId: current.id };
      if (resourceAsked) placement = await placeJob(trx, { ...job, resourceId: edit.resourceId! });
      else if (edit.resourceId === undefined && current.resource_id !== null && !kindChanged) {
        // Staying on its van or bay when it still fits there; otherwise wherever the engine finds room.
        try {
          placement = await placeJob(trx, { ...job, resourceId: current.resource_id });
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          placement = await placeJob(trx, job);
        }
      } else placement = await placeJob(trx, job);
    }

    const update: BookingUpdate = {
      ...bookingColumnsOf(next),
      list_price_cents: listCents,
      discount_cents: discountCents,
      travel_fee_cents: travelFeeCents,
      zone_id: zoneId,
      total_cents: totalCents,
      price_adjustment_cents: adjustment?.cents ?? 0,
      price_adjustment_reason: adjustment?.reason ?? null,
      ...(serviceChanged ? { vehicles: JSON.stringify(vehicles), lines: JSON.stringify(lines) } : {}),
      ...placement,
    };
    const proposed: Booking = { ...current, ...(update as Partial<Booking>), vehicles, lines, version: current.version + 1 };
    const resources = await listResources(trx);
    const resourceName = (id: string | null) => (id === null ? '' : (resources.find((r) => r.id === id)?.name ?? id));
    const changes = changesBetween(current, proposed, resourceName);
    if (changes.length === 0) throw validationFailed([{ field: 'version', message: STAFF_BOOKING_MESSAGES.nothingToChange }]);
    const customerChanges = changes.filter((c) => !STAFF_ONLY_CHANGES.includes(c.field));
    const notify = (request.notifyCustomer ?? true) && proposed.email !== '' && customerChanges.length > 0;

    if (request.dryRun) {
      return { booking: { ...proposed, version: current.version }, history: await statusHistory(trx, current.id), changes, quote: storedQuote(proposed), customerNotified: notify, dryRun: true };
    }

    const updated = await trx
      .updateTable('bookings')
      .set((eb) => ({ ...update, version: eb('version', '+', 1) }))
      .where('id', '=', current.id)
      .where('version', '=', request.version)
      .returningAll()
      .executeTakeFirst();
    if (!updated) throw new StaleBookingError((await findBooking(trx, current.id))!);
    await insertStatusChange(trx, {
      booking_id: current.id,
      from_status: current.status,
      to_status: current.status,
      changed_by: request.by,
      changes: JSON.stringify(changes),
      ...(placement && (moved || placement.resource_id !== current.resource_id)
        ? { from_date: current.date, from_time: current.time, to_date: updated.date, to_time: updated.time, from_resource_id: current.resource_id, to_resource_id: updated.resource_id }
        : {}),
    });
    // The reminder is composed from the booking's facts: any change the customer would see queues it again.
    const retimeReminder = customerChanges.length > 0 && (updated.status === 'pending' || updated.status === 'confirmed');
    if (notify || retimeReminder) {
      await queueBookingMail(trx, { type: 'changed', bookingId: updated.id, booking: updated, changes: customerChanges, notify, retimeReminder }, options.mail);
    }
    return { booking: updated, history: await statusHistory(trx, current.id), changes, quote: storedQuote(updated), customerNotified: notify, dryRun: false };
  };
  return db.transaction().execute(run);
}
