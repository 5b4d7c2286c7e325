/**
 * What staff may close: a whole date, or one of its hourly slots, from today (Auckland) up to the
 * end of the booking window, with a reason for their colleagues (never shown to customers).
 */
import { isCalendarDate, type DateWindow } from './booking-rules.ts';
import { tooLong, type FieldError } from './messages.ts';
import { CLOSURE_REASON_MAX, TIME_SLOTS } from './schedule.ts';
import { isBlank } from './text-rules.ts';

export interface ClosureInput {
  date: string;
  /** One slot (HH:mm), or null for the whole date. */
  time: string | null;
  reason: string;
}

export const CLOSURE_MESSAGES = {
  dateRequired: 'Please choose the date to close',
  dateInvalid: 'Please enter a real date as YYYY-MM-DD',
  datePast: 'A date that has passed cannot be closed',
  dateTooFar: 'Please choose a date within the next 12 months',
  timeInvalid: `Please choose one of the times ${TIME_SLOTS[0]} to ${TIME_SLOTS.at(-1)}, or the whole day`,
  reasonRequired: 'Please give a reason (for your colleagues; customers only see "Closed")',
  duplicateDay: 'This date is already closed',
  duplicateSlot: 'This time is already closed',
  coveredByDay: 'The whole date is already closed',
} as const;

/** `window.min` is today here: staff may close today, customers book from tomorrow. */
export function validateClosure(input: ClosureInput, window: DateWindow): FieldError[] {
  const errors: FieldError[] = [];
  if (isBlank(input.date)) errors.push({ field: 'date', message: CLOSURE_MESSAGES.dateRequired });
  else if (!isCalendarDate(input.date)) errors.push({ field: 'date', message: CLOSURE_MESSAGES.dateInvalid });
  else if (input.date < window.min) errors.push({ field: 'date', message: CLOSURE_MESSAGES.datePast });
  else if (input.date > window.max) errors.push({ field: 'date', message: CLOSURE_MESSAGES.dateTooFar });
  if (input.time !== null && !TIME_SLOTS.includes(input.time)) errors.push({ field: 'time', message: CLOSURE_MESSAGES.timeInvalid });
  if (isBlank(input.reason)) errors.push({ field: 'reason', message: CLOSURE_MESSAGES.reasonRequired });
  else if (input.reason.trim().length > CLOSURE_REASON_MAX) errors.push({ field: 'reason', message: tooLong(CLOSURE_REASON_MAX) });
  return errors;
}
