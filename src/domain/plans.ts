/**
 * Maintenance plans (issue 43): a booking's job again every few weeks, on the same weekday at the
 * same start. Pure rules: which dates a plan's visits are due on, and in which order the starts
 * near a due visit are tried when its own start does not fit. The service
 * (src/services/plans.service.ts) asks the scheduling engine and writes.
 */
import { addDaysToDay } from './booking-dates.ts';
import { PLAN_INTERVALS, intervalText } from './plan-intervals.ts';

export { PLAN_INTERVALS, intervalText, isPlanInterval, type PlanInterval } from './plan-intervals.ts';

/** Days from `from` to `to`, calendar dates 'YYYY-MM-DD' (no time of day, so no daylight saving). */
function daysFrom(from: string, to: string): number {
  const day = (d: string) => Date.UTC(Number(d.slice(0, 4)), Number(d.slice(5, 7)) - 1, Number(d.slice(8, 10))) / 86_400_000;
  return day(to) - day(from);
}


export const PLAN_STATUSES = ['active', 'paused', 'stopped'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

export const isPlanStatus = (status: unknown): status is PlanStatus => (PLAN_STATUSES as readonly unknown[]).includes(status);

/** A visit's state: booked (its booking may since have been cancelled: then it was skipped), waiting for a time, or skipped. */
export type PlanVisitState = 'booked' | 'needs-time' | 'skipped';

/**
 * The due dates of a plan anchored on `anchor` every `weeks` weeks that fall after `after` and on
 * or before `through` (both calendar dates; the anchor itself is due when after < anchor).
 */
export function planVisitDates(anchor: string, weeks: number, after: string, through: string): string[] {
  const step = weeks * 7;
  const since = daysFrom(anchor, after);
  // The first multiple of the step past `after` (and never before the anchor).
  let k = since < 0 ? 0 : Math.floor(since / step) + 1;
  const dates: string[] = [];
  for (let due = addDaysToDay(anchor, k * step); due <= through; due = addDaysToDay(anchor, ++k * step)) dates.push(due);
  return dates;
}

/**
 * The days tried for a visit whose own start does not fit, in order: its own date, then the day
 * after, the day before, two days after, two days before (issue 43's "within two days either
 * side"). A later day comes before the earlier one at the same distance: a valet a day late keeps
 * the interval's promise better than one a day early, which the customer may not be ready for.
 */
export const NEAR_DAY_OFFSETS = [0, 1, -1, 2, -2] as const;

/** A start that fits, as the engine answers it: a date and a wall time 'HH:MM'. */
export interface Start {
  date: string;
  time: string;
}

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/**
 * The order starts are tried in for a visit due on `due` at `time`: by day as NEAR_DAY_OFFSETS
 * orders them, then on each day by how far the start is from the plan's time, the earlier of two
 * equally far first. Starts on other days are left out.
 */
export function nearestStarts(due: string, time: string, starts: readonly Start[]): Start[] {
  const rank = new Map<string, number>(NEAR_DAY_OFFSETS.map((offset, i) => [addDaysToDay(due, offset), i]));
  const wanted = minutesOf(time);
  return starts
    .filter((s) => rank.has(s.date))
    .map((s) => ({ s, day: rank.get(s.date)!, distance: Math.abs(minutesOf(s.time) - wanted), at: minutesOf(s.time) }))
    .sort((a, b) => a.day - b.day || a.distance - b.distance || a.at - b.at)
    .map(({ s }) => s);
}

/**
 * The starts nearest in time to the plan's (due date and time), whatever the day: what a visit
 * that could not be placed near its date is offered (the first `count`), by the distance in
 * minutes between the instants' wall times counted across days, the earlier first on a tie.
 */
export function closestStarts(due: string, time: string, starts: readonly Start[], count: number): Start[] {
  const at = (s: Start) => daysFrom(due, s.date) * 1440 + minutesOf(s.time) - minutesOf(time);
  return [...starts].sort((a, b) => Math.abs(at(a)) - Math.abs(at(b)) || at(a) - at(b)).slice(0, count);
}

/** The days searched for those offers when none of NEAR_DAY_OFFSETS fits: up to this many days either side. */
export const OFFER_SEARCH_DAYS = 14;

/** How many times a visit that needs a time is offered. */
export const OFFERED_TIMES = 3;

export const PLAN_MESSAGES = {
  intervalRequired: `Please choose how often: every ${PLAN_INTERVALS.slice(0, -1).join(', ')} or ${PLAN_INTERVALS.at(-1)} weeks`,
  alreadyPlanned: 'This booking is already part of a regular plan.',
  notPlannable: 'Only an upcoming booking that is not cancelled can become a regular plan.',
  confirmFirst: 'Please confirm this booking first: it can become a regular plan once it is held for you.',
  stopped: 'This plan has been stopped.',
  notFound: 'We could not find that plan.',
  visitNotFound: 'That visit is not part of this plan.',
  visitNotUpcoming: 'That visit can no longer be changed online.',
  sameInterval: 'The plan already repeats at that interval.',
  started: (weeks: number) => `Your plan is set up: a valet ${intervalText(weeks)}. Each visit has its own booking and e-mail.`,
  skipped: 'That visit is skipped. The plan carries on with the next one.',
  paused: 'Your plan is paused: no new visits are booked until you resume it.',
  resumed: 'Your plan is running again.',
  intervalChanged: (weeks: number) => `Your plan now repeats ${intervalText(weeks)}.`,
  stoppedDone: 'Your plan is stopped and its upcoming visits are cancelled.',
  kept: 'Thanks: the visit is kept. See you then.',
  timeChosen: 'The visit is booked at the time you chose.',
  timeGone: 'That time has just been taken. Here are the nearest times now.',
} as const;
