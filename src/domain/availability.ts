/**
 * Availability of a date's hourly slots: the places left and whether each slot can be booked,
 * worked out from what the database knows (bookings holding each slot, staff closures, the weekly
 * closed days). Pure, so the server (which enforces it) and the wizard (which shows it) agree.
 */
import { isCalendarDate } from './booking-rules.ts';
import { MESSAGES, type FieldError } from './messages.ts';
import { TIME_SLOTS, WEEKDAYS, type Weekday } from './schedule.ts';

/** The weekday of a calendar date (YYYY-MM-DD). A date has no time of day, so no time zone either. */
export function weekdayOf(date: string): Weekday {
  if (!isCalendarDate(date)) throw new RangeError(`Not a calendar date: ${date}`);
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return WEEKDAYS[(new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 6) % 7]!;
}

/**
 * Why a slot cannot be booked: no place left, closed by staff (a closure of the slot or the date,
 * or a weekly closed day), or the date is outside the booking window. The reason staff wrote for a
 * closure is theirs and is never shown to customers.
 */
export const UNAVAILABLE_REASONS = ['full', 'closed', 'outside-window'] as const;
export type UnavailableReason = (typeof UNAVAILABLE_REASONS)[number];

export interface SlotState {
  /** HH:mm in Auckland. */
  time: string;
  /** Places left: capacity minus the bookings holding the slot; 0 when it cannot be booked. */
  remaining: number;
  available: boolean;
  reason: UnavailableReason | null;
}

/** What the database says about one date. */
export interface DayFacts {
  /** Bookings holding each slot (every booking that is not cancelled), by time; absent means none. */
  booked: Readonly<Record<string, number>>;
  /** The whole date is closed: a closure of the date, or a weekly closed day. */
  dayClosed: boolean;
  /** Slots closed one by one. */
  closedTimes: readonly string[];
}

export const OPEN_DAY: DayFacts = { booked: {}, dayClosed: false, closedTimes: [] };

/** One slot's state. `bookable` is false for a date outside the booking window. */
export function slotState(time: string, facts: DayFacts, capacity: number, bookable = true): SlotState {
  if (!bookable) return { time, remaining: 0, available: false, reason: 'outside-window' };
  if (facts.dayClosed || facts.closedTimes.includes(time)) return { time, remaining: 0, available: false, reason: 'closed' };
  const remaining = Math.max(0, capacity - (facts.booked[time] ?? 0));
  return { time, remaining, available: remaining > 0, reason: remaining > 0 ? null : 'full' };
}

/** Every slot of the day, 07:00 to 20:00, in order. */
export function slotStates(facts: DayFacts, capacity: number, bookable = true): SlotState[] {
  return TIME_SLOTS.map((time) => slotState(time, facts, capacity, bookable));
}

/**
 * What the customer is told about a slot they cannot have. A date outside the window never gets
 * here: the date's own rules refuse it first.
 */
export function unavailableMessage(reason: UnavailableReason): string {
  return reason === 'closed' ? MESSAGES.slotClosed : MESSAGES.slotFull;
}

/** A date's slots, as GET /v1/availability answers and the wizard keeps them. */
export interface DayAvailability {
  date: string;
  slots: SlotState[];
}

/**
 * Step 2's messages with the chosen time's availability added: a full or closed time gets its
 * message beside the time, after the date's (a date outside the window has its own message).
 */
export function withSlotError(errors: readonly FieldError[], slots: readonly SlotState[] | null, time: string): FieldError[] {
  const slot = slots?.find((s) => s.time === time);
  if (!slot?.reason || slot.reason === 'outside-window' || errors.some((e) => e.field === 'time')) return [...errors];
  const afterDate = errors.filter((e) => e.field === 'date').length;
  return [...errors.slice(0, afterDate), { field: 'time', message: unavailableMessage(slot.reason) }, ...errors.slice(afterDate)];
}

const REASON_LABELS: Record<UnavailableReason, string> = { full: 'Full', closed: 'Closed', 'outside-window': 'Unavailable' };

/** A time as the wizard lists it: the reason in words, never by colour alone ('09:00 — Full'). */
export function slotLabel(slot: SlotState): string {
  return slot.reason ? `${slot.time} — ${REASON_LABELS[slot.reason]}` : slot.time;
}
