/**
 * A date's start times as customers see them: each with its end, the resources still free for
 * the whole job, and, when it cannot be booked, why. The server works them out (src/services/
 * scheduling.service.ts) and the wizard, the no-JavaScript form and the manage page show them;
 * the wording lives here so that every door says the same.
 */
import { isCalendarDate } from './booking-rules.ts';
import { MESSAGES, SLOT_MESSAGES, type FieldError } from './messages.ts';
import { WEEKDAYS, type Weekday } from './schedule.ts';
import type { UnavailableReason } from './scheduling.ts';

export type { UnavailableReason } from './scheduling.ts';

/** The weekday of a calendar date (YYYY-MM-DD). A date has no time of day, so no time zone either. */
export function weekdayOf(date: string): Weekday {
  if (!isCalendarDate(date)) throw new RangeError(`Not a calendar date: ${date}`);
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return WEEKDAYS[(new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 6) % 7]!;
}

export interface SlotState {
  /** HH:mm in Auckland: when the job starts. */
  time: string;
  /** HH:mm in Auckland: when the job would end (without the van's travel buffer). */
  end: string;
  /** Resources free for the whole job; 0 when it cannot be booked. */
  remaining: number;
  available: boolean;
  reason: UnavailableReason | null;
}

/** What the customer is told about a start they cannot have. */
export function unavailableMessage(reason: UnavailableReason): string {
  switch (reason) {
    case 'closed':
      return MESSAGES.slotClosed;
    case 'outside-hours':
      return SLOT_MESSAGES.outsideHours;
    case 'ends-after-closing':
      return SLOT_MESSAGES.endsAfterClosing;
    case 'outside-window':
      return MESSAGES.datePast;
    case 'travel':
      return MESSAGES.slotTravel;
    default:
      return MESSAGES.slotFull;
  }
}

/** A date's starts, as GET /v1/availability answers and the wizard keeps them. */
export interface DayAvailability {
  date: string;
  /** How long the job asked about takes. */
  durationMinutes: number;
  slots: SlotState[];
}

/**
 * Step 2's messages with the chosen time's availability added: a time that cannot be booked gets
 * its message beside the time, after the date's (a date outside the window has its own message).
 */
export function withSlotError(errors: readonly FieldError[], slots: readonly SlotState[] | null, time: string): FieldError[] {
  const slot = slots?.find((s) => s.time === time);
  if (!slot?.reason || slot.reason === 'outside-window' || errors.some((e) => e.field === 'time')) return [...errors];
  const afterDate = errors.filter((e) => e.field === 'date').length;
  return [...errors.slice(0, afterDate), { field: 'time', message: unavailableMessage(slot.reason) }, ...errors.slice(afterDate)];
}

const REASON_LABELS: Record<UnavailableReason, string> = {
  full: 'Full',
  closed: 'Closed',
  'outside-hours': 'Outside opening hours',
  'ends-after-closing': 'Ends after closing',
  'outside-window': 'Unavailable',
  travel: 'Van too far away',
};

/** A time as the wizard lists it, with its end, and the reason in words, never by colour alone ('09:00 – 12:00 — Full'). */
export function slotLabel(slot: SlotState): string {
  const span = `${slot.time} – ${slot.end}`;
  return slot.reason ? `${span} — ${REASON_LABELS[slot.reason]}` : span;
}

/** Whether a date has any start to offer, for the date picker ('no times' otherwise). */
export interface DaySummary {
  date: string;
  /** Starts at which the job fits. */
  availableStarts: number;
}
