/**
 * The staff's schedule: closing a date or some of its hours (public holiday, van in the
 * workshop), for every resource or one, reopening it, and the weekly closed days. A closure never cancels anything: the bookings still
 * holding places in what was closed are listed, for staff to decide on.
 */
import type { Kysely } from 'kysely';
import { isWeekday, WEEKDAYS, type Weekday } from '../domain/schedule.ts';
import { addDaysToDay, aucklandInstant, latestBookingDate, todayInAuckland } from '../domain/booking-dates.ts';
import { RESOURCE_KINDS } from '../domain/scheduling.ts';
import { CLOSURE_MESSAGES, validateClosure, type ClosureInput } from '../domain/closure-rules.ts';
import type { Booking, Closure, Database } from '../db/database.ts';
import { lockPlacement, lockSchedule } from '../db/bookings.repository.ts';
import { findResource } from '../db/resources.repository.ts';
import {
  bookingsHoldingPlaces,
  bookingsOnWeekdays,
  closuresBetween,
  closuresOn,
  deleteClosure,
  insertClosureIfAbsent,
  type ClosureWithBookings,
} from '../db/closures.repository.ts';
import { getSetting, putSetting, WEEKLY_CLOSED_DAYS_KEY } from '../db/settings.repository.ts';
import { conflict, notFound, validationFailed } from '../errors.ts';

/** Most bookings listed as affected by one change. */
export const AFFECTED_LIMIT = 500;

/** The longest range of closures listed at once. */
export const CLOSURE_RANGE_MAX_DAYS = 400;

/**
 * Closes a date or a range of its hours, for both kinds, one kind or one resource; answers the
 * closure and the bookings still holding places in it (none is moved or cancelled).
 */
export async function closeSlots(
  db: Kysely<Database>,
  input: ClosureInput,
  options: { now: Date; by: string },
): Promise<{ closure: Closure; affected: Booking[] }> {
  const closure = { ...input, reason: input.reason.trim() };
  const errors = validateClosure(closure, { min: todayInAuckland(options.now), max: latestBookingDate(options.now) });
  if (errors.length > 0) throw validationFailed(errors);

  return db.transaction().execute(async (trx) => {
    const resource = closure.resourceId === null ? undefined : await findResource(trx, closure.resourceId);
    if (closure.resourceId !== null && !resource) throw validationFailed([{ field: 'resourceId', message: CLOSURE_MESSAGES.resourceUnknown }]);
    // The kind's day lock, as the engine takes it: a booking either sees the closure or is listed.
    const kinds = resource ? [resource.kind] : closure.kind ? [closure.kind] : RESOURCE_KINDS;
    await lockPlacement(trx, closure.date, kinds);
    const sameScope = (await closuresOn(trx, closure.date)).filter((c) => c.kind === closure.kind && c.resource_id === closure.resourceId);
    if (sameScope.some((c) => c.from_time === closure.from && c.to_time === closure.to)) {
      const message = closure.from === null ? CLOSURE_MESSAGES.duplicateDay : CLOSURE_MESSAGES.duplicateSlot;
      throw conflict(message, [{ field: closure.from === null ? 'date' : 'from', message }]);
    }
    if (closure.from !== null && sameScope.some((c) => c.from_time === null)) {
      throw conflict(CLOSURE_MESSAGES.coveredByDay, [{ field: 'from', message: CLOSURE_MESSAGES.coveredByDay }]);
    }
    const stored = await insertClosureIfAbsent(trx, {
      date: closure.date,
      from_time: closure.from,
      to_time: closure.to,
      kind: closure.kind,
      resource_id: closure.resourceId,
      starts_at: new Date(aucklandInstant(closure.date, closure.from ?? '00:00')),
      ends_at: new Date(closure.to === null ? aucklandInstant(addDaysToDay(closure.date, 1), '00:00') : aucklandInstant(closure.date, closure.to)),
      reason: closure.reason,
      created_by: options.by,
    });
    if (!stored) throw conflict(CLOSURE_MESSAGES.duplicateSlot);
    return { closure: stored, affected: await bookingsHoldingPlaces(trx, stored) };
  });
}

/** Removes a closure: the date it was on (its places may be someone's on the waitlist). */
export async function reopenSlots(db: Kysely<Database>, id: string): Promise<string> {
  const date = await deleteClosure(db, id);
  if (date === undefined) throw notFound('No such closure');
  return date;
}

/** Closures from `from` to `to` (default: today to the end of the booking window), with the range used. */
export async function listClosures(
  db: Kysely<Database>,
  range: { from?: string; to?: string },
  now: Date,
): Promise<{ from: string; to: string; closures: ClosureWithBookings[] }> {
  const from = range.from ?? todayInAuckland(now);
  const to = range.to ?? latestBookingDate(now);
  if (to < from) throw validationFailed([{ field: 'to', message: 'The end of the range must not be before its start' }]);
  const days = (Date.parse(to) - Date.parse(from)) / 86_400_000;
  if (days > CLOSURE_RANGE_MAX_DAYS) throw validationFailed([{ field: 'to', message: `Please ask for at most ${CLOSURE_RANGE_MAX_DAYS} days at once` }]);
  return { from, to, closures: await closuresBetween(db, from, to) };
}

/** The weekly closed days, in weekday order; none unless staff set some. */
export async function weeklyClosedDays(db: Kysely<Database>): Promise<Weekday[]> {
  const stored = await getSetting(db, WEEKLY_CLOSED_DAYS_KEY);
  const parsed: unknown = stored === undefined ? [] : JSON.parse(stored);
  return WEEKDAYS.filter((day) => Array.isArray(parsed) && parsed.includes(day));
}

/**
 * Sets the weekly closed days; answers them with the bookings from today on that fall on one.
 * Takes the schedule lock exclusively, so every booking made meanwhile is either refused or listed.
 */
export async function setWeeklyClosedDays(db: Kysely<Database>, days: readonly string[], now: Date): Promise<{ days: Weekday[]; affected: Booking[] }> {
  const invalid = days.find((day) => !isWeekday(day));
  if (invalid !== undefined) throw validationFailed([{ field: 'days', message: `Not a weekday: ${invalid}` }]);
  const closed = WEEKDAYS.filter((day) => days.includes(day));
  return db.transaction().execute(async (trx) => {
    await lockSchedule(trx);
    await putSetting(trx, WEEKLY_CLOSED_DAYS_KEY, JSON.stringify(closed));
    const isoWeekdays = closed.map((day) => WEEKDAYS.indexOf(day) + 1);
    return { days: closed, affected: await bookingsOnWeekdays(trx, todayInAuckland(now), isoWeekdays, AFFECTED_LIMIT) };
  });
}
