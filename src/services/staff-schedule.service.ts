/**
 * The staff's schedule: a day as lanes (one per van or bay, with its jobs and closures), the
 * jobs that hold no van or bay, a week of each resource's booked hours, and the staff move of a
 * job to another time and/or resource. A move goes through the scheduling engine under the
 * kind's day lock, as every writer does (src/services/scheduling.service.ts): it keeps the
 * duration the job was booked with, and is refused with the engine's reason when it does not fit.
 */
import type { Kysely } from 'kysely';
import { addDaysToDay, daysBetween, latestBookingDate, todayInAuckland } from '../domain/booking-dates.ts';
import { weekdayOf } from '../domain/availability.ts';
import { isCalendarDate, timeError } from '../domain/booking-rules.ts';
import type { FieldError } from '../domain/messages.ts';
import { holdsSlot } from '../domain/booking-status.ts';
import type { ResourceKind } from '../domain/scheduling.ts';
import type { Booking, BookingStatusChange, Closure, Database, Resource } from '../db/database.ts';
import { findBooking, insertStatusChange, lockPlacement, moveIfVersion, statusHistory } from '../db/bookings.repository.ts';
import { listResources } from '../db/resources.repository.ts';
import { assignedJobsOn, bookedTimeBetween, closuresOfDate, unassignedCountBetween, unassignedJobsFrom } from '../db/schedule.repository.ts';
import { conflict, validationFailed } from '../errors.ts';
import { queueBookingMail } from '../mail/booking-mail.ts';
import type { MailContext } from '../mail/mail-context.ts';
import { workingHours, type DayHours } from './resources.service.ts';
import { weeklyClosedDays } from './schedule.service.ts';
import { bookedDuration, kindOf, placeJob } from './scheduling.service.ts';
import { bookingAtVersion, StaleBookingError } from './staff-bookings.service.ts';
import { listTravelOverrides, listZones } from '../db/service-zones.repository.ts';
import { TravelTable, vanGaps } from '../domain/service-area.ts';
import { vanRoute, type VanRoute } from './today.service.ts';

/** Most jobs listed under "Needs a van or bay". */
export const UNASSIGNED_LIMIT = 200;

export const SCHEDULE_MESSAGES = {
  dateInvalid: 'Please enter a real date as YYYY-MM-DD',
  datePast: 'A job cannot be moved to a date that has passed',
  dateTooFar: 'Please choose a date within the next 12 months',
  notPlaced: 'Only a pending or confirmed booking can be moved. Reopen it first.',
  nothingChanged: 'That is where the job is already. Choose another time, date, van or bay.',
} as const;

function checkedDate(date: string, field = 'date'): string {
  if (!isCalendarDate(date)) throw validationFailed([{ field, message: SCHEDULE_MESSAGES.dateInvalid }]);
  return date;
}

/** The gap between two consecutive jobs of a van, with the drive it needs between their zones. */
export interface ScheduleGap {
  fromBookingId: string;
  toBookingId: string;
  gapMinutes: number;
  /** Null when either job has no zone (outside the service area): the drive is not known. */
  driveMinutes: number | null;
  fromZone: string | null;
  toZone: string | null;
  tooShort: boolean;
}

export interface ScheduleLane {
  resource: Resource;
  jobs: Booking[];
  closures: Closure[];
  /** A van's gaps between consecutive jobs; none for a bay (its customers come to it). */
  gaps: ScheduleGap[];
  /** A van's route of the day; null for a bay. */
  route: VanRoute | null;
}

export interface ScheduleDay {
  date: string;
  /** Each kind's working hours that day, null when it does not work (weekly closed days included). */
  hours: Record<ResourceKind, DayHours>;
  /** The date is one of the weekly closed days. */
  weeklyClosed: boolean;
  /** Active resources in order, then inactive ones that still hold jobs that day. */
  lanes: ScheduleLane[];
  /** Closures of every resource of a kind, or of both kinds. */
  closures: Closure[];
  /** Place-holding jobs from today on with no van or bay. */
  unassigned: Booking[];
}

/** One date of the schedule as the day timeline draws it. */
export async function scheduleDay(db: Kysely<Database>, date: string, now: Date): Promise<ScheduleDay> {
  checkedDate(date);
  const [resources, jobs, closures, unassigned, hours, weekly, zones, overrides] = await Promise.all([
    listResources(db),
    assignedJobsOn(db, date),
    closuresOfDate(db, date),
    unassignedJobsFrom(db, todayInAuckland(now), UNASSIGNED_LIMIT),
    workingHours(db),
    weeklyClosedDays(db),
    listZones(db),
    listTravelOverrides(db),
  ]);
  const weekday = weekdayOf(date);
  const weeklyClosed = weekly.includes(weekday);
  // Today's zones and travel, not those the jobs were placed under: a gap that was enough then
  // and is too short now is what staff need to see.
  const table = new TravelTable(zones, overrides);
  const zoneNames = new Map(zones.map((z) => [z.id, z.name]));
  const nameOf = (zoneId: string | null) => (zoneId === null ? null : (zoneNames.get(zoneId) ?? null));
  const lanes = resources
    .filter((r) => r.active || jobs.some((j) => j.resource_id === r.id))
    .map((resource) => {
      const laneJobs = jobs.filter((j) => j.resource_id === resource.id);
      const van = resource.kind !== 'dropoff';
      const zoneOf = new Map(laneJobs.map((j) => [j.id, j.zone_id]));
      const gaps = van
        ? vanGaps(
            laneJobs.map((j) => ({ id: j.id, start: j.starts_at.getTime(), end: j.ends_at.getTime(), zoneId: j.zone_id })),
            table,
          ).map((gap) => ({
            fromBookingId: gap.fromId,
            toBookingId: gap.toId,
            gapMinutes: gap.gapMinutes,
            driveMinutes: gap.driveMinutes ?? null,
            fromZone: nameOf(zoneOf.get(gap.fromId) ?? null),
            toZone: nameOf(zoneOf.get(gap.toId) ?? null),
            tooShort: gap.tooShort,
          }))
        : [];
      return {
        resource,
        jobs: laneJobs,
        closures: closures.filter((c) => c.resource_id === resource.id),
        gaps,
        route: van ? vanRoute(laneJobs, zoneNames, table) : null,
      };
    });
  return {
    date,
    hours: { onsite: weeklyClosed ? null : hours.onsite[weekday], dropoff: weeklyClosed ? null : hours.dropoff[weekday] },
    weeklyClosed,
    lanes,
    closures: closures.filter((c) => c.resource_id === null),
    unassigned,
  };
}

export interface WeekCell {
  date: string;
  jobs: number;
  bookedMinutes: number;
  /** The kind's working minutes that date (0 when it does not work). */
  openMinutes: number;
}

export interface ScheduleWeek {
  from: string;
  to: string;
  dates: string[];
  rows: { resource: Resource; days: WeekCell[] }[];
  /** Jobs holding no van or bay, per date. */
  unassigned: { date: string; jobs: number }[];
}

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** Seven days from `from`: each resource's jobs and booked hours per day, beside its kind's working hours. */
export async function scheduleWeek(db: Kysely<Database>, from: string): Promise<ScheduleWeek> {
  checkedDate(from, 'from');
  const to = addDaysToDay(from, 6);
  const dates = daysBetween(from, to);
  const [resources, booked, unassigned, hours, weekly] = await Promise.all([
    listResources(db),
    bookedTimeBetween(db, from, to),
    unassignedCountBetween(db, from, to),
    workingHours(db),
    weeklyClosedDays(db),
  ]);
  const open = (kind: ResourceKind, date: string) => {
    const weekday = weekdayOf(date);
    const day = hours[kind][weekday];
    return !day || weekly.includes(weekday) ? 0 : minutesOf(day.closes) - minutesOf(day.opens);
  };
  const rows = resources
    .filter((r) => r.active || booked.some((b) => b.resource_id === r.id))
    .map((resource) => {
      const kind: ResourceKind = resource.kind === 'dropoff' ? 'dropoff' : 'onsite';
      return {
        resource,
        days: dates.map((date) => {
          const cell = booked.find((b) => b.resource_id === resource.id && b.date === date);
          return { date, jobs: cell?.jobs ?? 0, bookedMinutes: cell?.booked_minutes ?? 0, openMinutes: open(kind, date) };
        }),
      };
    });
  return { from, to, dates, rows, unassigned: dates.map((date) => ({ date, jobs: unassigned.find((u) => u.date === date)?.jobs ?? 0 })) };
}

export interface StaffMoveRequest {
  id: string;
  /** The version the staff member was looking at. */
  version: number;
  date: string;
  time: string;
  /** A van or bay of the job's kind; undefined lets the schedule choose. */
  resourceId?: string;
  by: string;
}

/**
 * Moves a job to another date, time and/or van or bay, as staff: any date from today to the end
 * of the booking window (not only the customer's), inside the hours, clear of closures and of
 * other jobs, as the engine decides. Compare-and-set on the version; recorded in the history with
 * the resources left and taken; the customer is e-mailed when the appointment itself changed. A
 * job holding no van or bay may be "moved" to its own time to be given one.
 */
export async function moveByStaff(
  db: Kysely<Database>,
  request: StaffMoveRequest,
  options: { now: Date; mail: MailContext },
): Promise<{ booking: Booking; history: BookingStatusChange[] }> {
  const errors: FieldError[] = [];
  if (!isCalendarDate(request.date)) errors.push({ field: 'date', message: SCHEDULE_MESSAGES.dateInvalid });
  else if (request.date < todayInAuckland(options.now)) errors.push({ field: 'date', message: SCHEDULE_MESSAGES.datePast });
  else if (request.date > latestBookingDate(options.now)) errors.push({ field: 'date', message: SCHEDULE_MESSAGES.dateTooFar });
  const badTime = timeError(request.time);
  if (badTime) errors.push(badTime);
  if (errors.length > 0) throw validationFailed(errors);

  return db.transaction().execute(async (trx) => {
    const current = await bookingAtVersion(trx, request.id, request.version);
    if (!holdsSlot(current.status) || current.status === 'completed' || current.status === 'no-show') {
      throw conflict(SCHEDULE_MESSAGES.notPlaced, [{ field: 'status', message: SCHEDULE_MESSAGES.notPlaced }]);
    }
    const sameTime = current.date === request.date && current.time === request.time;
    if (sameTime && current.resource_id !== null && (request.resourceId === undefined || request.resourceId === current.resource_id)) {
      throw validationFailed([{ field: request.resourceId === undefined ? 'time' : 'resourceId', message: SCHEDULE_MESSAGES.nothingChanged }]);
    }
    const kind = kindOf(current.service_type);
    await lockPlacement(trx, request.date, [kind]);
    const placement = await placeJob(trx, {
      kind,
      date: request.date,
      time: request.time,
      durationMinutes: bookedDuration(current),
      zoneId: current.zone_id,
      bookingId: current.id,
      ...(request.resourceId === undefined ? {} : { resourceId: request.resourceId }),
    });
    const updated = await moveIfVersion(trx, current.id, request.version, request.date, request.time, placement);
    if (!updated) throw new StaleBookingError((await findBooking(trx, current.id))!);
    await insertStatusChange(trx, {
      booking_id: current.id,
      from_status: current.status,
      to_status: current.status,
      changed_by: request.by,
      from_date: current.date,
      from_time: current.time,
      to_date: request.date,
      to_time: request.time,
      from_resource_id: current.resource_id,
      to_resource_id: placement.resource_id,
    });
    if (!sameTime) {
      await queueBookingMail(trx, { type: 'moved', bookingId: current.id, booking: updated, by: 'staff', from: { date: current.date, time: current.time } }, options.mail);
    }
    return { booking: updated, history: await statusHistory(trx, current.id) };
  });
}
