/** Request bodies as real clients send them. */
import { addDaysToDay, aucklandInstant, todayInAuckland } from '../../src/domain/booking-dates.ts';
import { durationFor } from '../../src/domain/catalogue.ts';
import { linesMinutes, type StoredLine } from '../../src/domain/job.ts';
import { newBookingReference } from '../../src/services/booking-reference.ts';

/**
 * The instant a test file treats as now. Test apps are built with their clock pinned to it (see
 * test/helper.ts), so that "today" means the same day to the test and to the server even when
 * a run crosses midnight in Auckland.
 */
export const testNow = new Date();

export const today = todayInAuckland(testNow);

/** The date `n` days from today in Auckland. */
export const inDays = (n: number) => addDaysToDay(today, n);

/**
 * The first date at least `atLeast` days from today that falls on an ISO weekday (1 = Monday …
 * 7 = Sunday): drop-off bays work Monday to Saturday only, so a test that needs a given weekday
 * names it instead of hoping today's date gives it one.
 */
export function nextWeekday(isoWeekday: number, atLeast = 2): string {
  for (let n = atLeast; ; n++) if (isoWeekdayOf(inDays(n)) === isoWeekday) return inDays(n);
}

/** A date's ISO weekday (1 = Monday … 7 = Sunday). */
function isoWeekdayOf(day: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return ((new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7) + 1;
}

/**
 * The first date at least `atLeast` days from today on which the drop-off bays work (Monday to
 * Saturday): `inDays(n)` for a drop-off is a Sunday on one day in seven.
 */
export function bayDay(atLeast: number): string {
  for (let n = atLeast; ; n++) if (isoWeekdayOf(inDays(n)) !== 7) return inDays(n);
}

/**
 * The next day daylight saving ends in New Zealand (the first Sunday of April), at least
 * `atLeast` days from today: within the 12 months customers may book ahead, whatever the day of
 * the run, where a fixed date falls out of the window once it has passed.
 */
export function nextDaylightSavingEnd(atLeast = 1): string {
  for (let n = atLeast; ; n++) {
    const day = inDays(n);
    if (day.slice(5, 7) === '04' && Number(day.slice(8)) <= 7 && nextWeekday(7, n) === day) return day;
  }
}

/**
 * The phone a test customer gives: the default one for the default e-mail, and for any other
 * e-mail a number of its own drawn from it. One phone is one customer for the first-service
 * discount (migrations/013), so tests that book as different addresses stay different customers
 * unless they give the phone themselves.
 */
function phoneOf(email: unknown): string {
  if (typeof email !== 'string' || email.trim().toLowerCase() === 'mere@example.co.nz') return '+64 21 555 9876';
  let hash = 7;
  for (const char of email.trim().toLowerCase()) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) >>> 0;
  return `+64 22 ${String(hash % 10_000_000).padStart(7, '0')}`;
}

/** The form state exactly as the original client sends it: every key, empty strings for the rest. */
export function originalClientPayload(overrides: Record<string, unknown> = {}) {
  return {
    service: 'Deluxe Clean',
    coatingType: '',
    date: inDays(3),
    time: '10:00',
    houseNumber: '7',
    streetAddress: 'Ellerslie-Panmure Highway',
    suburb: 'Mount Wellington',
    city: 'Auckland',
    postalCode: '1060',
    region: 'Auckland',
    landmark: '',
    saveAddress: false,
    serviceType: 'onsite',
    name: 'Mere Ngata',
    email: 'mere@example.co.nz',
    phone: phoneOf(overrides.email),
    vehicleType: 'mid',
    notes: '',
    selectedVehicleType: 'mid',
    ...overrides,
  };
}

/** Step 2's messages for an on-site booking with nothing filled in, in the wizard's order. */
export const EMPTY_SCHEDULE_MESSAGES = [
  'Please select a date',
  'Please select a time',
  'Please enter your house/unit number',
  'Please enter your street address',
  'Please enter your suburb',
  'Please enter your city',
  'Please enter your postal code',
  'Please select your region',
];

/**
 * A booking row as the database stores it (a fresh reference, Quick Clean's small-car price), for
 * seeding staff tests directly: its instants follow its date, time and package (or its `lines`,
 * as JSON text, when given); it holds no van or bay unless the overrides give one (`resource_id`).
 */
export function bookingRow(overrides: Record<string, unknown> = {}) {
  const row = {
    service: 'Quick Clean',
    coating_type: '',
    vehicle_type: 'sm',
    selected_vehicle_type: 'sm',
    date: inDays(3),
    time: '10:00',
    service_type: 'onsite',
    house_number: '1',
    street_address: 'Queen Street',
    suburb: 'Auckland Central',
    city: 'Auckland',
    postal_code: '1010',
    region: 'Auckland',
    landmark: '',
    save_address: false,
    name: 'Test Customer',
    email: 'customer@example.com',
    phone: '021 555 0000',
    notes: '',
    reference: newBookingReference(),
    list_price_cents: 6900,
    discount_cents: 0,
    total_cents: 6900,
    discount_kind: null,
    discount_percent: null,
    resource_id: null as string | null,
    buffer_minutes: 0,
    ...overrides,
  };
  const start = aucklandInstant(row.date as string, row.time as string);
  const minutes =
    typeof overrides.lines === 'string' ? linesMinutes(JSON.parse(overrides.lines) as StoredLine[]) : (durationFor(row.service as string, row.vehicle_type as string, row.coating_type as string) ?? 60);
  return { ...row, starts_at: new Date(start), ends_at: new Date(start + minutes * 60_000) };
}
