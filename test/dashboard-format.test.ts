/**
 * The dashboard's date formats (client/staff/components/format.ts), written by hand instead of
 * with date-fns' `format` to make room in the dashboard's bundle (issue 22): the same text to the
 * byte. Fixed expected strings, in the staff's zone (Pacific/Auckland) and two others; then the
 * hand formatting against date-fns' `format` itself (what the dashboard used before) over every
 * day of three years and every quarter-hour of the two daylight-saving change days of 2026.
 */
import { format, isValid } from 'date-fns';
import fc from 'fast-check';
import t from 'tap';
import { cardDate, dateTime, longDate, plural } from '../client/staff/components/format.ts';

/** The formats as they were, with date-fns (the day parser is the same as the new one's). */
function day(value: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return match ? new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : new Date(Number.NaN);
}
const before = {
  cardDate: (value: string) => (isValid(day(value)) ? format(day(value), 'MMM dd, yyyy') : value),
  longDate: (value: string) => (isValid(day(value)) ? format(day(value), 'MMMM dd, yyyy') : value),
  dateTime: (iso: string) => (isValid(new Date(iso)) ? format(new Date(iso), 'MMM dd, yyyy HH:mm') : iso),
};

/** Runs `check` with the process's local zone set to `zone` (Node reads TZ again when it changes). */
function inZone(zone: string, check: () => void) {
  const original = process.env.TZ;
  process.env.TZ = zone;
  try {
    check();
  } finally {
    if (original === undefined) delete process.env.TZ;
    else process.env.TZ = original;
  }
}

const ZONES = ['Pacific/Auckland', 'UTC', 'America/New_York'];

t.test('fixed strings: dates, long dates and instants in Auckland', async (t) => {
  inZone('Pacific/Auckland', () => {
    t.equal(cardDate('2026-12-05'), 'Dec 05, 2026');
    t.equal(cardDate('2026-01-31'), 'Jan 31, 2026');
    t.equal(cardDate('2026-09-27'), 'Sep 27, 2026');
    t.equal(cardDate('2026-04-05'), 'Apr 05, 2026');
    t.equal(longDate('2026-04-05'), 'April 05, 2026');
    t.equal(longDate('2026-09-27'), 'September 27, 2026');
    t.equal(longDate('2027-02-28'), 'February 28, 2027');
    t.equal(longDate('2028-02-29'), 'February 29, 2028');
    // A date past its month's end rolls over, as the Date it is built as does.
    t.equal(cardDate('2026-02-31'), 'Mar 03, 2026');
    t.equal(longDate('0100-06-01'), 'June 01, 0100');
    // Not dates: shown as they are.
    t.equal(cardDate(''), '');
    t.equal(cardDate('5 December'), '5 December');
    t.equal(longDate('2026-13-45x'), '2026-13-45x');
    t.equal(dateTime('not a time'), 'not a time');
    t.equal(dateTime(''), '');
    // Instants in Auckland: NZDT (+13) ends at 03:00 on 5 April 2026 (03:00 becomes 02:00, so 02:00-02:59 comes twice).
    t.equal(dateTime('2026-12-04T20:30:00.000Z'), 'Dec 05, 2026 09:30');
    t.equal(dateTime('2026-04-04T12:59:00Z'), 'Apr 05, 2026 01:59');
    t.equal(dateTime('2026-04-04T13:30:00Z'), 'Apr 05, 2026 02:30');
    t.equal(dateTime('2026-04-04T14:30:00Z'), 'Apr 05, 2026 02:30');
    t.equal(dateTime('2026-04-04T15:00:00Z'), 'Apr 05, 2026 03:00');
    // NZST (+12) ends at 02:00 on 27 September 2026 (02:00 becomes 03:00).
    t.equal(dateTime('2026-09-26T13:59:00Z'), 'Sep 27, 2026 01:59');
    t.equal(dateTime('2026-09-26T14:00:00Z'), 'Sep 27, 2026 03:00');
    // An offset other than Auckland's at that instant: shown in Auckland's time (NZST, +12, until 02:00 the next day).
    t.equal(dateTime('2026-09-26T23:05:00+13:00'), 'Sep 26, 2026 22:05');
    t.equal(dateTime('2026-12-31T10:59:00Z'), 'Dec 31, 2026 23:59');
    t.equal(dateTime('2026-12-31T11:00:00Z'), 'Jan 01, 2027 00:00');
  });
  inZone('UTC', () => {
    t.equal(dateTime('2026-12-04T20:30:00.000Z'), 'Dec 04, 2026 20:30');
    t.equal(dateTime('2026-03-08T07:05:00Z'), 'Mar 08, 2026 07:05');
    t.equal(cardDate('2026-12-05'), 'Dec 05, 2026');
  });
  inZone('America/New_York', () => {
    t.equal(dateTime('2026-12-04T20:30:00.000Z'), 'Dec 04, 2026 15:30');
    t.equal(longDate('2026-03-08'), 'March 08, 2026');
  });
});

t.test('the same text as date-fns format, day by day and across both DST changes', async (t) => {
  for (const zone of ZONES) {
    inZone(zone, () => {
      let differences = 0;
      let checked = 0;
      const compare = (name: keyof typeof before, value: string) => {
        checked += 1;
        const now = { cardDate, longDate, dateTime }[name](value);
        const was = before[name](value);
        if (now !== was && differences++ < 5) t.fail(`${zone} ${name}(${value}): ${now} ≠ ${was}`);
      };
      // Every day of 2025 to 2027 (two of them DST change days in each year), as dates and as instants.
      for (let time = Date.UTC(2025, 0, 1); time < Date.UTC(2028, 0, 1); time += 86_400_000) {
        const iso = new Date(time).toISOString();
        compare('cardDate', iso.slice(0, 10));
        compare('longDate', iso.slice(0, 10));
        compare('dateTime', iso);
        compare('dateTime', new Date(time + 13 * 3_600_000 + 59 * 60_000).toISOString());
      }
      // Each minute from midday the day before to midday the day after each 2026 Auckland change.
      for (const change of [Date.UTC(2026, 3, 4, 12), Date.UTC(2026, 8, 26, 12)]) {
        for (let time = change - 12 * 3_600_000; time <= change + 24 * 3_600_000; time += 60_000) compare('dateTime', new Date(time).toISOString());
        compare('cardDate', new Date(change + 12 * 3_600_000).toISOString().slice(0, 10));
      }
      // Strings that are not well-formed dates, and offsets other than Z.
      for (const value of ['', 'x', '2026-02-30', '2026-00-10', '0000-01-01', '0099-12-31', '9999-12-31', '2026-4-5', ' 2026-04-05', '2026-04-05T02:30:00+12:00', '2026-09-27', '+275760-09-13T00:00:00Z', '-000001-01-01T00:00:00Z', '0000-06-15T12:00:00Z']) {
        compare('cardDate', value);
        compare('longDate', value);
        compare('dateTime', value);
      }
      t.equal(differences, 0, `${zone}: ${checked} values formatted as date-fns formats them`);
    });
  }
});

t.test('any instant and any YYYY-MM-DD string: the same text as date-fns format', async (t) => {
  for (const zone of ZONES) {
    inZone(zone, () => {
      fc.assert(
        fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (time) => dateTime(new Date(time).toISOString()) === before.dateTime(new Date(time).toISOString())),
        { numRuns: 2000 },
      );
      const digits = (n: number) => fc.integer({ min: 0, max: 10 ** n - 1 }).map((v) => String(v).padStart(n, '0'));
      fc.assert(
        fc.property(digits(4), digits(2), digits(2), (y, m, d) => {
          const value = `${y}-${m}-${d}`;
          return cardDate(value) === before.cardDate(value) && longDate(value) === before.longDate(value);
        }),
        { numRuns: 2000 },
      );
      t.pass(`${zone}: random instants and dates`);
    });
  }
});

t.test('a count with its word: one without the s (the Customers view said "1 customers shown")', async (t) => {
  t.equal(plural(1, 'customer'), '1 customer');
  t.equal(plural(0, 'customer'), '0 customers');
  t.equal(plural(3, 'booking'), '3 bookings');
});
