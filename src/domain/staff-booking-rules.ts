/**
 * The rules of bookings taken and edited by staff (issue 21), pure and shared by the server (which
 * enforces them) and the dashboard's forms (which show the same messages before sending).
 */
import type { DateWindow } from './booking-rules.ts';
import type { FieldError } from './messages.ts';
import { REASON_MAX_LENGTH, REASON_TOO_LONG, reasonErrors } from './price-change-reason.ts';

/** The longest reason for a price adjustment (the database enforces the same). */
export const ADJUSTMENT_REASON_MAX = REASON_MAX_LENGTH;
/** The largest adjustment either way, in cents: $10,000 (a typing slip, not a price). */
export const ADJUSTMENT_MAX_CENTS = 1_000_000;

export const STAFF_BOOKING_MESSAGES = {
  adjustmentReasonRequired: 'Please say why the price is adjusted',
  adjustmentReasonTooLong: REASON_TOO_LONG,
  adjustmentTooLarge: 'Please enter an adjustment of at most $10,000 either way',
  totalNegative: 'The adjustment cannot take the total below $0.00',
  nothingToChange: 'Nothing to change: every field sent is as the booking has it already',
  timePast: 'That time has passed: please choose a start from the next hour on',
  notPlaced: 'Only a pending or confirmed booking can have its package, vehicle, time or price changed.',
} as const;

/** What staff are told when a booking they took is stored (it is confirmed at once). */
export function staffBookingTaken(reference: string): string {
  return `Booked and confirmed: reference ${reference}.`;
}

/** What is wrong with a price adjustment (cents, with its reason), if anything; none when absent or 0. */
export function adjustmentErrors(adjustment: { cents: number; reason: string } | null | undefined): FieldError[] {
  if (!adjustment || adjustment.cents === 0) return [];
  const errors: FieldError[] = [];
  if (!Number.isInteger(adjustment.cents) || Math.abs(adjustment.cents) > ADJUSTMENT_MAX_CENTS) {
    errors.push({ field: 'priceAdjustmentCents', message: STAFF_BOOKING_MESSAGES.adjustmentTooLarge });
  }
  return [...errors, ...reasonErrors('priceAdjustmentReason', adjustment.reason, { when: true, message: STAFF_BOOKING_MESSAGES.adjustmentReasonRequired })];
}

/**
 * Whether a start is inside the window: its date within it, and not before the window's earliest
 * start on its first day (staff book today from the next whole hour; staffBookingWindow).
 */
export function startInWindow(date: string, time: string, window: DateWindow): boolean {
  if (date < window.min || date > window.max) return false;
  return !(window.earliestTime !== undefined && date === window.min && time < window.earliestTime);
}

/** The staff window's own rule beside the wizard's date rules: a start today before the next whole hour. */
export function staffStartErrors(input: { date: string; time: string }, window: DateWindow, otherErrors: readonly FieldError[]): FieldError[] {
  if (otherErrors.some((e) => e.field === 'date' || e.field === 'time')) return [];
  return startInWindow(input.date, input.time, window) ? [] : [{ field: 'time', message: STAFF_BOOKING_MESSAGES.timePast }];
}
