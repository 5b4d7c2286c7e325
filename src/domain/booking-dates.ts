/**
 * The booking window in business time (Pacific/Auckland), whatever the server's own time zone:
 * from tomorrow to twelve months ahead. Server-only: the browser receives the window from the
 * server with the page, so date-fns and its time-zone support stay out of the bundle.
 */
import { addDays, addMonths, format, formatISO, parseISO } from 'date-fns';
import { TZDate } from '@date-fns/tz';
import type { DateWindow } from './booking-rules.ts';

export const BUSINESS_TIME_ZONE = 'Pacific/Auckland';

/**
 * A date as YYYY-MM-DD. formatISO and parseISO rather than format and parse with a pattern: the
 * same answers, about three times faster (2.2 against 6.6–9.0 µs for addDaysToDay, measured in
 * both time zones), which the 62-day availability calls a few hundred times per request.
 */
const isoDay = (date: Date) => formatISO(date, { representation: 'date' });

/** Today's date (YYYY-MM-DD) in Auckland, whatever the time zone of the machine. */
export function todayInAuckland(now: Date): string {
  return isoDay(new TZDate(now.getTime(), BUSINESS_TIME_ZONE));
}

/** The calendar date (YYYY-MM-DD) `days` after `day`; no time of day, so no time zone. */
export function addDaysToDay(day: string, days: number): string {
  return isoDay(addDays(parseDay(day), days));
}

/** The earliest date a booking may be made for: tomorrow in Auckland. */
export function earliestBookingDate(now: Date): string {
  return addDaysToDay(todayInAuckland(now), 1);
}

/** The latest date a booking may be made for: twelve months ahead. */
export function latestBookingDate(now: Date): string {
  return isoDay(addMonths(parseDay(todayInAuckland(now)), 12));
}

/**
 * The instant an appointment starts, in ISO 8601 with Auckland's offset of that day
 * ('2026-04-05T07:00:00+12:00'). Slots are wall-clock times, so on the days daylight saving
 * starts or ends (always at 02:00 or 03:00, before the first slot) they keep their hours and
 * only the offset changes.
 */
export function slotStartsAt(day: string, time: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const [hours, minutes] = time.split(':').map(Number) as [number, number];
  // The offset is what separates the wall time, read as if it were UTC, from its instant.
  const offset = (Date.UTC(year, month - 1, date, hours, minutes) - aucklandInstant(day, time)) / 60_000;
  const sign = offset < 0 ? '-' : '+';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day}T${pad(hours)}:${pad(minutes)}:00${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
}

/**
 * aucklandInstant's answers, kept: it depends on nothing but its arguments, each costs a time-zone
 * computation (about 10 µs), and one 62-day availability summary asks about 900 of them. A year of
 * dates at every hour is about 9,000; the map is emptied when it holds more than this.
 */
const INSTANTS_KEPT = 20_000;
const instants = new Map<string, number>();

/**
 * The instant (milliseconds) of a wall-clock time on a date in Auckland; '24:00' is the next
 * day's midnight. On the day daylight saving starts, a time in the skipped hour does not exist and
 * resolves as PostgreSQL resolves it, an hour later.
 */
export function aucklandInstant(day: string, time: string): number {
  const key = `${day}T${time}`;
  const known = instants.get(key);
  if (known !== undefined) return known;
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const [hours, minutes] = time.split(':').map(Number) as [number, number];
  const instant = new TZDate(year, month - 1, date, hours, minutes, BUSINESS_TIME_ZONE).getTime();
  if (instants.size >= INSTANTS_KEPT) instants.clear();
  instants.set(key, instant);
  return instant;
}

/** The wall-clock time (HH:mm) of an instant in Auckland. */
export function aucklandTime(instant: number | Date): string {
  return CLOCK.format(instant);
}

/** Auckland's wall clock through the platform's time-zone rules, made once (formatting with it is cheap; making it is not). */
const CLOCK = new Intl.DateTimeFormat('en-GB', { timeZone: BUSINESS_TIME_ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** The wall-clock time of an instant in Auckland for people: '5:00 pm'. */
export function aucklandClockText(instant: number | Date): string {
  return format(new TZDate(typeof instant === 'number' ? instant : instant.getTime(), BUSINESS_TIME_ZONE), 'h:mm aaa');
}

/** The calendar date (YYYY-MM-DD) of an instant in Auckland. */
export function aucklandDate(instant: number | Date): string {
  return isoDay(new TZDate(typeof instant === 'number' ? instant : instant.getTime(), BUSINESS_TIME_ZONE));
}

/** Every calendar date from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDaysToDay(day, 1)) days.push(day);
  return days;
}

/** A YYYY-MM-DD date at local midnight (the callers' dates are checked as calendar dates first). */
function parseDay(day: string): Date {
  return parseISO(day);
}

let memo: { minute: number; window: DateWindow } | undefined;

/**
 * The dates a booking may be made for today. Asked on every booking page view, so the answer is
 * kept for the minute it was computed in (the window only changes at midnight in Auckland).
 */
export function bookingWindow(now: Date): DateWindow {
  const minute = Math.floor(now.getTime() / 60_000);
  if (memo?.minute !== minute) memo = { minute, window: { min: earliestBookingDate(now), max: latestBookingDate(now) } };
  return memo.window;
}

/**
 * The dates and starts staff may book for (issue 21): from the next whole hour today in Auckland
 * (the home page promises same-day service) to twelve months ahead; after 23:00, from tomorrow.
 * The online wizard keeps bookingWindow (from tomorrow).
 */
export function staffBookingWindow(now: Date): DateWindow {
  const today = todayInAuckland(now);
  const nextHour = Number(aucklandTime(now).slice(0, 2)) + 1;
  const max = latestBookingDate(now);
  if (nextHour > 23) return { min: addDaysToDay(today, 1), max };
  return { min: today, max, earliestTime: `${String(nextHour).padStart(2, '0')}:00` };
}

/** A calendar day for people: 'Saturday 5 December 2026'. */
export function dayText(day: string): string {
  return format(parseDay(day), 'EEEE d MMMM yyyy');
}

/**
 * An appointment for people, in its own (Auckland) wall-clock time: 'Saturday 5 December 2026,
 * 9:00 am'. Slots are wall-clock times, so no time zone is involved.
 */
export function appointmentText(day: string, time: string): string {
  const when = parseISO(`${day}T${time}`);
  return format(when, "EEEE d MMMM yyyy, h:mm aaa");
}
