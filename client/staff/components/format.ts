/**
 * Date formats of the dashboard (spec section 9): 'MMM dd, yyyy', 'MMMM dd, yyyy' and
 * 'MMM dd, yyyy HH:mm', as date-fns' `format` wrote them, in the browser's own time zone. Written
 * by hand from the Date's local fields, as `format` reads them: the same text to the byte
 * (test/dashboard-format.test.ts compares the two), without date-fns' 5.6 KB in the dashboard's
 * bundle (issue 22 needed the room).
 */

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const two = (n: number) => String(n).padStart(2, '0');

/** A YYYY-MM-DD date as a local date (built directly: a parser would add 5 KB here). */
function day(value: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return match ? new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : new Date(Number.NaN);
}

/**
 * 'MMM dd, yyyy' (`long` false) or 'MMMM dd, yyyy'; null for an invalid date. yyyy is date-fns'
 * year of era: year 0 is 1 (BC), and at least four digits.
 */
function calendarDate(date: Date, long: boolean): string | null {
  if (Number.isNaN(date.getTime())) return null;
  const year = date.getFullYear();
  const month = MONTHS[date.getMonth()]!;
  return `${long ? month : month.slice(0, 3)} ${two(date.getDate())}, ${String(year > 0 ? year : 1 - year).padStart(4, '0')}`;
}

/** Cards: 'MMM dd, yyyy'. A value that is not a date is shown as it is rather than throwing 'Invalid time value'. */
export function cardDate(value: string): string {
  return calendarDate(day(value), false) ?? value;
}

/** Modal: 'MMMM dd, yyyy'. */
export function longDate(value: string): string {
  return calendarDate(day(value), true) ?? value;
}

/** 'MMM dd, yyyy HH:mm', in the browser's time zone. */
export function dateTime(iso: string): string {
  const date = new Date(iso);
  const text = calendarDate(date, false);
  return text === null ? iso : `${text} ${two(date.getHours())}:${two(date.getMinutes())}`;
}

/** A count with its word: "1 booking", "3 bookings". */
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** 90 → '1 h 30 min'. */
export function hoursText(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return [h ? `${h} h` : '', m ? `${m} min` : ''].filter(Boolean).join(' ') || '0 h';
}
