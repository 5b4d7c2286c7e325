/** Date formats of the dashboard (spec section 9), with date-fns. */
import { format, isValid } from 'date-fns';

/** A YYYY-MM-DD date as a local date (built directly: date-fns' parser would add 5 KB here). */
function day(value: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return match ? new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : new Date(Number.NaN);
}

/** Cards: 'MMM dd, yyyy'. A value that is not a date is shown as it is rather than throwing 'Invalid time value'. */
export function cardDate(value: string): string {
  const date = day(value);
  return isValid(date) ? format(date, 'MMM dd, yyyy') : value;
}

/** Modal: 'MMMM dd, yyyy'. */
export function longDate(value: string): string {
  const date = day(value);
  return isValid(date) ? format(date, 'MMMM dd, yyyy') : value;
}

export function dateTime(iso: string): string {
  const date = new Date(iso);
  return isValid(date) ? format(date, 'MMM dd, yyyy HH:mm') : iso;
}
