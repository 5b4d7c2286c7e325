/**
 * What staff may close: a whole date, one hour of it or a from-to range of hours, for both kinds
 * of job, for every resource of one kind, or for one van or bay; from today (Auckland) up to the
 * end of the booking window, with a reason for their colleagues (never shown to customers).
 */
import { isCalendarDate, type DateWindow } from './booking-rules.ts';
import { tooLong, type FieldError } from './messages.ts';
import { CLOSURE_REASON_MAX } from './schedule.ts';
import { isBlank } from './text-rules.ts';

export interface ClosureInput {
  date: string;
  /** HH:00 the closure starts and ends (24:00: midnight); both null for the whole date. */
  from: string | null;
  to: string | null;
  /** 'onsite' or 'dropoff' closes every resource of that kind; null: both (unless resourceId). */
  kind: string | null;
  /** One van or bay. */
  resourceId: string | null;
  reason: string;
}

/** Times a closure may start at (00:00 to 23:00) and end at (01:00 to 24:00), on the hour. */
export const CLOSURE_FROM_TIMES: readonly string[] = Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, '0')}:00`);
export const CLOSURE_TO_TIMES: readonly string[] = [...CLOSURE_FROM_TIMES.slice(1), '24:00'];

export const CLOSURE_MESSAGES = {
  dateRequired: 'Please choose the date to close',
  dateInvalid: 'Please enter a real date as YYYY-MM-DD',
  datePast: 'A date that has passed cannot be closed',
  dateTooFar: 'Please choose a date within the next 12 months',
  timeInvalid: 'Please choose a time on the hour (HH:00), or the whole day',
  fromRequired: 'Please give both the start and the end of the closed hours, or neither for the whole day',
  toInvalid: 'Please choose an end on the hour, up to 24:00',
  rangeBackwards: 'The end must be after the start',
  kindInvalid: 'Please choose on-site, drop-off or both',
  scopeBoth: 'Please close either one van or bay, or a kind of service, not both',
  reasonRequired: 'Please give a reason (for your colleagues; customers only see "Closed")',
  duplicateDay: 'This date is already closed',
  duplicateSlot: 'This time is already closed',
  coveredByDay: 'The whole date is already closed',
  resourceUnknown: 'Please choose one of the vans or bays',
} as const;

/** The hour after HH:00 ('23:00' → '24:00'). */
export function hourAfter(time: string): string {
  return `${String(Number(time.slice(0, 2)) + 1).padStart(2, '0')}:00`;
}

/** The one hour a closure closes, when it closes exactly one (the API's `time`), else null. */
export function oneHourClosed(closure: { from_time: string | null; to_time: string | null }): string | null {
  return closure.from_time !== null && closure.to_time === hourAfter(closure.from_time) ? closure.from_time : null;
}

/** `window.min` is today here: staff may close today, customers book from tomorrow. */
export function validateClosure(input: ClosureInput, window: DateWindow): FieldError[] {
  const errors: FieldError[] = [];
  if (isBlank(input.date)) errors.push({ field: 'date', message: CLOSURE_MESSAGES.dateRequired });
  else if (!isCalendarDate(input.date)) errors.push({ field: 'date', message: CLOSURE_MESSAGES.dateInvalid });
  else if (input.date < window.min) errors.push({ field: 'date', message: CLOSURE_MESSAGES.datePast });
  else if (input.date > window.max) errors.push({ field: 'date', message: CLOSURE_MESSAGES.dateTooFar });
  if ((input.from === null) !== (input.to === null)) errors.push({ field: input.from === null ? 'from' : 'to', message: CLOSURE_MESSAGES.fromRequired });
  else if (input.from !== null && input.to !== null) {
    if (!CLOSURE_FROM_TIMES.includes(input.from)) errors.push({ field: 'from', message: CLOSURE_MESSAGES.timeInvalid });
    else if (!CLOSURE_TO_TIMES.includes(input.to)) errors.push({ field: 'to', message: CLOSURE_MESSAGES.toInvalid });
    else if (input.to <= input.from) errors.push({ field: 'to', message: CLOSURE_MESSAGES.rangeBackwards });
  }
  if (input.kind !== null && input.kind !== 'onsite' && input.kind !== 'dropoff') errors.push({ field: 'kind', message: CLOSURE_MESSAGES.kindInvalid });
  if (input.kind !== null && input.resourceId !== null) errors.push({ field: 'resourceId', message: CLOSURE_MESSAGES.scopeBoth });
  if (isBlank(input.reason)) errors.push({ field: 'reason', message: CLOSURE_MESSAGES.reasonRequired });
  else if (input.reason.trim().length > CLOSURE_REASON_MAX) errors.push({ field: 'reason', message: tooLong(CLOSURE_REASON_MAX) });
  return errors;
}
