/**
 * The scheduling engine: the one place that decides whether a job fits at a time and which van or
 * bay it gets. Availability (the wizard, the no-JavaScript form, the manage page, the date
 * picker) asks it what to offer; every writer that puts a booking in a place (a new booking, a
 * customer's move, a staff move, a reopened booking) asks it under the kind's day lock
 * (lockPlacement) and writes what it answers. The database's exclusion constraint refuses
 * anything that would still overlap.
 */
import type { Kysely } from 'kysely';
import { aucklandInstant, aucklandTime, addDaysToDay, bookingWindow, daysBetween, slotStartsAt } from '../domain/booking-dates.ts';
import { unavailableMessage, weekdayOf, type DayAvailability, type DaySummary, type SlotState } from '../domain/availability.ts';
import { CERAMIC_COATING, DEFAULT_COATING, PACKAGES, durationFor, findPackage, isVehicleType } from '../domain/catalogue.ts';
import { MESSAGES } from '../domain/messages.ts';
import { JOB_MESSAGES, MAX_VEHICLES, emptyVehicle, jobLines, linesMinutes, vehicleExtrasErrors, type VehicleChoice } from '../domain/job.ts';
import type { DateWindow } from '../domain/booking-rules.ts';
import { startInWindow } from '../domain/staff-booking-rules.ts';
import { TIME_SLOTS, WEEKDAYS } from '../domain/schedule.ts';
import {
  RESOURCE_KINDS,
  combineFits,
  fitJob,
  freeLanes,
  type Fit,
  type Interval,
  type KindDay,
  type ResourceKind,
  type UnavailableReason,
} from '../domain/scheduling.ts';
import { TravelTable, rangesOfMultirange, zoneForPostcode, type ServiceZone } from '../domain/service-area.ts';
import { outsideServiceArea } from '../domain/messages.ts';
import type { BusinessInfo } from '../domain/business.ts';
import type { Database } from '../db/database.ts';
import { scheduleFacts, type ScheduleFacts } from '../db/availability.repository.ts';
import { listZones } from '../db/service-zones.repository.ts';
import { AppError, validationFailed } from '../errors.ts';

/** The least gap between two jobs of one van (an on-site job holds its van that long after the work), unless staff set otherwise; the zones' driving minutes ask for more where they must. */
export const DEFAULT_MIN_GAP_MINUTES = 15;
export const MIN_GAP_MAX_MINUTES = 240;

const MINUTE = 60_000;
/** How far past a date's midnight a job of that date can hold a resource (a late job and its buffer). */
const SPILL_MS = 12 * 60 * MINUTE;

/**
 * The shortest job in the catalogue: what availability answers for when no job is named. Here,
 * on the server, rather than in the catalogue: every page's bundle carries the catalogue.
 */
export const SHORTEST_DURATION_MINUTES = Math.min(
  ...PACKAGES.flatMap((p) => [...Object.values(p.durations), ...Object.values(p.coatingDurations ?? {}).flatMap((d) => Object.values(d))]),
);

/**
 * Where an on-site job is, as a question names it: a booking's own zone (a move keeps the zone it
 * was placed in), or a postcode to look up in the active zones ('' for the service centre's own:
 * the zone of the business's postcode, or none when that is in no zone).
 */
export type WhereAsked = { zoneId: string | null } | { postalCode: string; business: Pick<BusinessInfo, 'postcode' | 'phone' | 'suburb'> };

/** The job a question is about: how long it takes, which kinds of resource may take it, and where. */
export interface JobQuery {
  durationMinutes: number;
  kinds: readonly ResourceKind[];
  /** A booking being moved: its own place never counts against it. */
  bookingId?: string;
  /** On-site: where (absent: no zone, only the least gap between jobs). */
  where?: WhereAsked;
}

/** The job a booking is, for offering it other times: its kind, the duration it was booked with and its zone. */
export function jobOfBooking(booking: { id: string; service_type: string; starts_at: Date; ends_at: Date; zone_id: string | null }): JobQuery {
  return { durationMinutes: bookedDuration(booking), kinds: [kindOf(booking.service_type)], bookingId: booking.id, where: { zoneId: booking.zone_id } };
}

/** Every zone of the facts, active or not, with its postcodes as ranges. */
export function zonesOf(facts: Pick<ScheduleFacts, 'zones'>): ServiceZone[] {
  return facts.zones.map((z) => ({ ...z, postcodes: rangesOfMultirange(z.postcodes) }));
}

/** The 400 of an on-site job whose postcode is in no active zone. */
export function outsideAreaError(business: Pick<BusinessInfo, 'phone' | 'suburb'>): AppError {
  return validationFailed([{ field: 'postalCode', message: outsideServiceArea(business) }]);
}

/**
 * The zone a job is in: a booking's own, the active zone of the postcode asked (a 400 naming
 * postalCode when it is in none), or the service centre's for no postcode (null when that is in no
 * zone). Null also when nothing is asked.
 */
export function zoneOfJob(zones: readonly ServiceZone[], where: WhereAsked | undefined): ServiceZone | null {
  if (!where) return null;
  if ('zoneId' in where) return zones.find((z) => z.id === where.zoneId) ?? null;
  if (where.postalCode.trim() === '') return zoneForPostcode(zones, where.business.postcode) ?? null;
  const zone = zoneForPostcode(zones, where.postalCode);
  if (!zone) throw outsideAreaError(where.business);
  return zone;
}

/** What GET /v1/availability and its days summary are asked, before validation. */
export interface JobParams {
  /** One per vehicle (issue 41: repeated, one to four), each vehicle's fields at the same place in their lists. */
  service?: string | string[];
  vehicleType?: string | string[];
  coatingType?: string | string[];
  /** Per vehicle, its add-on ids separated by commas ('' for none). */
  addOns?: string | string[];
  serviceType?: string;
  postalCode?: string;
}

const listOf = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/**
 * The job named by availability parameters: each vehicle's package for its size (and coating)
 * with its add-ons, their minutes summed, on the kind asked, or both kinds, at the postcode asked
 * (on-site; without one, as for the service centre's own zone). Without a service: the shortest
 * job in the catalogue, on either kind, so that a start is offered when anything at all could be
 * booked then. Errors name the parameter, with the vehicle's index when there are several
 * (`vehicleType[1]`).
 */
export function jobQuery(params: JobParams, business: Pick<BusinessInfo, 'postcode' | 'phone' | 'suburb'>): JobQuery {
  const kinds = params.serviceType ? [params.serviceType as ResourceKind] : RESOURCE_KINDS;
  if (params.serviceType !== undefined && !(RESOURCE_KINDS as readonly string[]).includes(params.serviceType)) {
    throw validationFailed([{ field: 'serviceType', message: MESSAGES.serviceTypeRequired }]);
  }
  const where = { where: { postalCode: params.postalCode ?? '', business } };
  const services = listOf(params.service).filter((service, i) => service !== '' || i > 0);
  if (services.length === 0) return { durationMinutes: SHORTEST_DURATION_MINUTES, kinds, ...where };
  if (services.length > MAX_VEHICLES) throw validationFailed([{ field: 'service', message: JOB_MESSAGES.tooManyVehicles }]);
  const [sizes, coatings, addOns] = [listOf(params.vehicleType), listOf(params.coatingType), listOf(params.addOns)];
  const name = (field: string, i: number) => (services.length > 1 ? `${field}[${i}]` : field);
  const vehicles = services.map((service, i): VehicleChoice => {
    const vehicleType = sizes[i] ?? '';
    if (!findPackage(service)) throw validationFailed([{ field: name('service', i), message: MESSAGES.serviceUnknown }]);
    if (!isVehicleType(vehicleType)) throw validationFailed([{ field: name('vehicleType', i), message: MESSAGES.vehicleTypeRequired }]);
    const coatingType = service === CERAMIC_COATING ? coatings[i] || DEFAULT_COATING : '';
    if (durationFor(service, vehicleType, coatingType) === undefined) throw validationFailed([{ field: name('coatingType', i), message: MESSAGES.coatingRequired }]);
    const vehicle = { ...emptyVehicle(), service, vehicleType, coatingType, addOns: (addOns[i] ?? '').split(',').map((id) => id.trim()).filter(Boolean) };
    const wrong = vehicleExtrasErrors(vehicle, '')[0];
    if (wrong) throw validationFailed([{ field: name('addOns', i), message: wrong.message }]);
    return vehicle;
  });
  return { durationMinutes: linesMinutes(jobLines(vehicles)!), kinds, ...where };
}

function minGapOf(facts: ScheduleFacts): number {
  const stored = facts.minGap === null ? NaN : Number(facts.minGap);
  return Number.isInteger(stored) && stored >= 0 && stored <= MIN_GAP_MAX_MINUTES ? stored : DEFAULT_MIN_GAP_MINUTES;
}

/** The buffer a job of this kind is given: on-site jobs drive on to the next, drop-offs do not. */
export function bufferMinutesFor(kind: ResourceKind, facts: ScheduleFacts): number {
  return kind === 'onsite' ? minGapOf(facts) : 0;
}

function weeklyClosed(facts: ScheduleFacts, date: string): boolean {
  if (facts.weeklyClosedDays === null) return false;
  const days: unknown = JSON.parse(facts.weeklyClosedDays);
  return Array.isArray(days) && days.includes(weekdayOf(date));
}

/** The facts of one kind's day, as instants, for the rule (src/domain/scheduling.ts); on-site with the travel between zones. */
export function kindDay(facts: ScheduleFacts, kind: ResourceKind, date: string, zones: readonly ServiceZone[] = zonesOf(facts)): KindDay {
  const isoWeekday = WEEKDAYS.indexOf(weekdayOf(date)) + 1;
  const row = facts.hours.find((h) => h.kind === kind && h.weekday === isoWeekday);
  const appliesToKind = (c: ScheduleFacts['closures'][number]) => c.resourceId === null && (c.kind === null || c.kind === kind);
  const dayClosed = weeklyClosed(facts, date) || facts.closures.some((c) => appliesToKind(c) && c.wholeDay && c.date === date);
  const interval = (c: { start: number; end: number }): Interval => ({ start: Number(c.start), end: Number(c.end) });
  return {
    hours: row ? { start: aucklandInstant(date, row.opens), end: aucklandInstant(date, row.closes) } : null,
    dayClosed,
    kindClosures: facts.closures.filter(appliesToKind).map(interval),
    lanes: facts.resources
      .filter((r) => r.kind === kind)
      .map((r) => ({
        id: r.id,
        position: r.position,
        busy: [
          ...facts.busy.filter(([id]) => id === r.id).map(([, start, end, workEnd, zoneId]) => ({ start, end, workEnd, zoneId })),
          ...facts.closures.filter((c) => c.resourceId === r.id).map(interval),
        ],
      })),
    ...(kind === 'onsite'
      ? { travel: new TravelTable(zones, facts.travel), date: { start: aucklandInstant(date, '00:00'), end: aucklandInstant(addDaysToDay(date, 1), '00:00') } }
      : {}),
  };
}

function daySpan(from: string, to: string): [number, number] {
  return [aucklandInstant(from, '00:00'), aucklandInstant(addDaysToDay(to, 1), '00:00') + SPILL_MS];
}

/** The instants whose schedule facts placing a job on `date` reads (for a caller reading them with more: placeJob's `known`). */
export const placementSpan = (date: string): [number, number] => daySpan(date, date);

/** One date's facts out of a range's: only the jobs and closures of that date's span, so its lanes stay short. */
function factsOfDay(facts: ScheduleFacts, date: string): ScheduleFacts {
  const [from, to] = daySpan(date, date);
  return {
    ...facts,
    busy: facts.busy.filter(([, start, end]) => start < to && end > from),
    closures: facts.closures.filter((c) => Number(c.start) < to && Number(c.end) > from),
  };
}

/**
 * The kinds a job may take, each with where it is: on-site at its zone (a postcode in no zone
 * takes on-site out when drop-off may take the job, and is a 400 when only on-site may).
 */
function kindsWithZones(facts: ScheduleFacts, job: JobQuery, zones: readonly ServiceZone[]): { kind: ResourceKind; zoneId: string | null }[] {
  return job.kinds.flatMap((kind): { kind: ResourceKind; zoneId: string | null }[] => {
    if (kind !== 'onsite') return [{ kind, zoneId: null }];
    try {
      return [{ kind, zoneId: zoneOfJob(zones, job.where)?.id ?? null }];
    } catch (outside) {
      if (job.kinds.length > 1) return [];
      throw outside;
    }
  });
}

/** How each start of a date fits for the job asked, over every kind it may take: each kind's day is built once, not once per start. */
function fitsOn(facts: ScheduleFacts, date: string, job: JobQuery, zones: readonly ServiceZone[] = zonesOf(facts)): { time: string; fit: Fit; start: number }[] {
  const kinds = kindsWithZones(facts, job, zones).map(({ kind, zoneId }) => ({ day: kindDay(facts, kind, date, zones), bufferMs: bufferMinutesFor(kind, facts) * MINUTE, zoneId }));
  return TIME_SLOTS.map((time) => {
    const start = aucklandInstant(date, time);
    const fits = kinds.map((k) => fitJob({ start, durationMs: job.durationMinutes * MINUTE, bufferMs: k.bufferMs, zoneId: k.zoneId }, k.day));
    return { time, fit: fits.length === 1 ? fits[0]! : combineFits(fits), start };
  });
}

function slotOf(date: string, time: string, start: number, job: JobQuery, fit: Pick<Fit, 'reason'> & { free: readonly unknown[] }): SlotAvailability {
  return {
    time,
    end: aucklandTime(start + job.durationMinutes * MINUTE),
    startsAt: slotStartsAt(date, time),
    remaining: fit.free.length,
    available: fit.reason === null,
    reason: fit.reason,
  };
}

export type SlotAvailability = SlotState & { startsAt: string };

/** Every start of a calendar date for the job asked. A date outside the booking window is all unavailable, without asking the database. */
export async function availabilityOn(
  db: Kysely<Database>,
  date: string,
  job: JobQuery,
  now: Date,
  /** The online window unless given (staff book from the next hour today: staffBookingWindow). */
  window: DateWindow = bookingWindow(now),
): Promise<DayAvailability & { slots: SlotAvailability[] }> {
  const bookable = date >= window.min && date <= window.max;
  const facts = bookable ? await scheduleFacts(db, ...daySpan(date, date), job.bookingId) : undefined;
  if (!facts && job.kinds.length === 1 && job.kinds[0] === 'onsite') await zoneWhenNoFacts(db, job);
  const slots = facts
    ? fitsOn(facts, date, job).map(({ time, fit, start }) =>
        slotOf(date, time, start, job, startInWindow(date, time, window) ? fit : { free: [], reason: 'outside-window' }),
      )
    : TIME_SLOTS.map((time) => slotOf(date, time, aucklandInstant(date, time), job, { free: [], reason: 'outside-window' }));
  return { date, durationMinutes: job.durationMinutes, slots };
}

/** A date outside the window reads no schedule, but a postcode in no zone is still a 400 for an on-site job. */
async function zoneWhenNoFacts(db: Kysely<Database>, job: JobQuery): Promise<void> {
  if (job.where && 'postalCode' in job.where && job.where.postalCode.trim() !== '') zoneOfJob(await listZones(db), job.where);
}

/** The most days the date picker's summary answers at once. */
export const SUMMARY_MAX_DAYS = 62;

/** Each date's number of starts at which the job fits, from `from` to `to` (both included). */
export async function availabilitySummary(db: Kysely<Database>, from: string, to: string, job: JobQuery, now: Date): Promise<DaySummary[]> {
  if (to < from) throw validationFailed([{ field: 'to', message: 'The end of the range must not be before its start' }]);
  const dates = daysBetween(from, to);
  if (dates.length > SUMMARY_MAX_DAYS) throw validationFailed([{ field: 'to', message: `Please ask for at most ${SUMMARY_MAX_DAYS} days at once` }]);
  const window = bookingWindow(now);
  const inWindow = dates.filter((d) => d >= window.min && d <= window.max);
  const facts = inWindow.length > 0 ? await scheduleFacts(db, ...daySpan(inWindow[0]!, inWindow.at(-1)!), job.bookingId) : undefined;
  const zones = facts ? zonesOf(facts) : [];
  // A postcode in no zone is a 400 even when no date of the range is bookable.
  if (!facts && job.kinds.length === 1 && job.kinds[0] === 'onsite') await zoneWhenNoFacts(db, job);
  return dates.map((date) => ({
    date,
    availableStarts:
      facts && date >= window.min && date <= window.max ? fitsOn(factsOfDay(facts, date), date, job, zones).filter((s) => s.fit.reason === null).length : 0,
  }));
}

/** Where a job was placed: what the booking row stores. */
export interface Placement {
  resource_id: string;
  starts_at: Date;
  ends_at: Date;
  buffer_minutes: number;
  /** On-site: the zone it was placed in (null: none known); drop-off: null. */
  zone_id: string | null;
}

export interface PlacementRequest {
  kind: ResourceKind;
  date: string;
  time: string;
  durationMinutes: number;
  /** On-site: the zone the job is in (see zoneOfJob); null or absent: only the least gap applies. */
  zoneId?: string | null;
  /** The booking being moved or reopened: its own place never counts against it. */
  bookingId?: string;
  /** Staff may name the resource; otherwise the engine chooses. */
  resourceId?: string;
}

/** 409 with the reason a job does not fit, in the customer's words. */
export class PlacementRefusedError extends AppError {
  constructor(readonly reason: UnavailableReason, message = unavailableMessage(reason)) {
    super(409, 'PLACEMENT_REFUSED', message, [{ field: 'time', message }]);
  }
}

export const RESOURCE_BUSY_MESSAGE = 'That van or bay is busy for part of this job. Choose another, or leave the choice to the schedule.';
export const RESOURCE_TOO_FAR_MESSAGE = 'That van cannot drive between this job and its job before or after in time. Choose another, or leave the choice to the schedule.';

/**
 * Places a job: the resource it gets and its instants, or a PlacementRefusedError saying why not.
 * The caller holds the kind's day lock (lockPlacement or lockEmailAndPlacement) and writes the
 * answer in the same transaction. `known`: the schedule facts of placementSpan(request.date), read
 * under that lock by the caller with more of its own (otherwise placeJob reads them).
 */
export async function placeJob(trx: Kysely<Database>, request: PlacementRequest, known?: ScheduleFacts): Promise<Placement> {
  const facts = known ?? (await scheduleFacts(trx, ...placementSpan(request.date), request.bookingId));
  const bufferMinutes = bufferMinutesFor(request.kind, facts);
  const start = aucklandInstant(request.date, request.time);
  const day = kindDay(facts, request.kind, request.date);
  if (request.resourceId !== undefined && !day.lanes.some((lane) => lane.id === request.resourceId)) {
    throw validationFailed([{ field: 'resourceId', message: `Please choose an active ${request.kind === 'onsite' ? 'van' : 'bay'}` }]);
  }
  const zoneId = request.kind === 'onsite' ? (request.zoneId ?? null) : null;
  const fit = fitJob({ start, durationMs: request.durationMinutes * MINUTE, bufferMs: bufferMinutes * MINUTE, zoneId }, day);
  if (fit.reason !== null) throw new PlacementRefusedError(fit.reason);
  const lane = request.resourceId === undefined ? fit.free[0]! : fit.free.find((l) => l.id === request.resourceId);
  if (!lane) {
    if (fit.tooFar.some((l) => l.id === request.resourceId)) throw new PlacementRefusedError('travel', RESOURCE_TOO_FAR_MESSAGE);
    throw new PlacementRefusedError('full', RESOURCE_BUSY_MESSAGE);
  }
  return { resource_id: lane.id, starts_at: new Date(start), ends_at: new Date(start + request.durationMinutes * MINUTE), buffer_minutes: bufferMinutes, zone_id: zoneId };
}

/**
 * A resource for a booking taken before scheduling by resource (the first start after the
 * migration): the best free one of its kind for its held interval, whatever the hours and
 * closures (it was accepted under the old rule); undefined when every one is taken (an overbooking
 * of the old rule, left for staff).
 */
export async function legacyResourceFor(
  db: Kysely<Database>,
  booking: { id: string; service_type: string; starts_at: Date; ends_at: Date; buffer_minutes: number },
): Promise<string | undefined> {
  const held = { start: booking.starts_at.getTime(), end: booking.ends_at.getTime() + booking.buffer_minutes * MINUTE };
  const facts = await scheduleFacts(db, held.start, held.end, booking.id);
  const lanes = facts.resources
    .filter((r) => r.kind === booking.service_type)
    .map((r) => ({ id: r.id, position: r.position, busy: facts.busy.filter(([id]) => id === r.id).map(([, start, end]) => ({ start, end })) }));
  return freeLanes(held, lanes, null).free[0]?.id;
}

/** The duration a booking was placed with, in minutes: a move keeps it, whatever the catalogue says now. */
export function bookedDuration(booking: { starts_at: Date; ends_at: Date }): number {
  return Math.round((booking.ends_at.getTime() - booking.starts_at.getTime()) / MINUTE);
}

/** The kind of resource a booking's service type needs (validated before it gets here). */
export function kindOf(serviceType: string): ResourceKind {
  if (!(RESOURCE_KINDS as readonly string[]).includes(serviceType)) throw validationFailed([{ field: 'serviceType', message: MESSAGES.serviceTypeRequired }]);
  return serviceType as ResourceKind;
}
