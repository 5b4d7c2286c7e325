import t from 'tap';
import {
  TIME_SLOTS,
  REGIONS,
  isCalendarDate,
  emptyBooking,
  validateBooking,
  vehicleTypeForSize,
  type BookingInput,
} from '../src/domain/booking-rules.ts';
import { bookingWindow, earliestBookingDate, todayInAuckland } from '../src/domain/booking-dates.ts';
import { MESSAGES } from '../src/domain/messages.ts';
import { PACKAGES, STARTING_PRICE, priceFor } from '../src/domain/catalogue.ts';

// 2026-11-22 23:30 UTC is already 2026-11-23 12:30 in Auckland (NZDT, UTC+13).
const NOW = new Date('2026-11-22T23:30:00Z');
const WINDOW = bookingWindow(NOW);

export function validBooking(overrides: Partial<BookingInput> = {}): BookingInput {
  return {
    ...emptyBooking(),
    service: 'Quick Clean',
    vehicleType: 'sm',
    selectedVehicleType: 'sm',
    date: '2026-11-25',
    time: '09:00',
    serviceType: 'onsite',
    houseNumber: '12A',
    streetAddress: 'Queen Street',
    suburb: 'Auckland Central',
    city: 'Auckland',
    postalCode: '1010',
    region: 'Auckland',
    name: 'Aroha Smith',
    email: 'aroha@example.co.nz',
    phone: '021 555 1234',
    ...overrides,
  };
}

t.test('the catalogue has the seven packages with the spec prices', async (t) => {
  t.equal(PACKAGES.length, 7);
  t.same(PACKAGES.find((p) => p.name === 'Ultimate Clean')?.prices, { sm: 279, mid: 319, suv: 379 });
  t.equal(STARTING_PRICE, 69);
  t.equal(priceFor('Ceramic Coating', 'mid', 'coat1'), 599);
  t.equal(priceFor('Ceramic Coating', 'mid', ''), undefined);
  t.equal(priceFor('Window Tinting', 'suv', ''), 209);
});

t.test('time slots are hourly from 07:00 to 20:00 and there are 16 regions', async (t) => {
  t.equal(TIME_SLOTS[0], '07:00');
  t.equal(TIME_SLOTS.at(-1), '20:00');
  t.equal(TIME_SLOTS.length, 14);
  t.equal(REGIONS.length, 16);
});

t.test('tomorrow is computed in Auckland whatever the machine time zone', async (t) => {
  const original = process.env.TZ;
  t.teardown(() => {
    process.env.TZ = original;
  });
  for (const zone of ['UTC', 'America/Los_Angeles', 'Asia/Kolkata', 'Pacific/Auckland']) {
    process.env.TZ = zone;
    t.equal(todayInAuckland(NOW), '2026-11-23', `today in ${zone}`);
    t.equal(earliestBookingDate(NOW), '2026-11-24', `tomorrow in ${zone}`);
  }
});

t.test('a valid booking has no errors', async (t) => {
  t.same(validateBooking(validBooking(), WINDOW), []);
  t.same(validateBooking(validBooking({ serviceType: 'dropoff', houseNumber: '', streetAddress: '', suburb: '', city: '', postalCode: '', region: '' }), WINDOW), []);
  t.same(validateBooking(validBooking({ service: 'Ceramic Coating', coatingType: 'coat2', selectedVehicleType: 'Sedan', vehicleType: 'mid' }), WINDOW), []);
});

t.test('each rule answers with the spec message, in the wizard order', async (t) => {
  const cases: Array<[Partial<BookingInput>, string, string]> = [
    [{ service: '' }, 'service', MESSAGES.serviceRequired],
    [{ service: 'Car Polish' }, 'service', MESSAGES.serviceUnknown],
    [{ service: 'Ceramic Coating', coatingType: '' }, 'coatingType', MESSAGES.coatingRequired],
    [{ coatingType: 'coat1' }, 'coatingType', MESSAGES.coatingNotAllowed],
    [{ vehicleType: '' }, 'vehicleType', MESSAGES.vehicleTypeRequired],
    [{ date: '' }, 'date', MESSAGES.dateRequired],
    [{ date: '2026-02-30' }, 'date', MESSAGES.dateInvalid],
    [{ date: '2026-11-23' }, 'date', MESSAGES.datePast],
    [{ date: '2026-11-20' }, 'date', MESSAGES.datePast],
    [{ date: '2028-01-01' }, 'date', MESSAGES.dateTooFar],
    [{ time: '' }, 'time', MESSAGES.timeRequired],
    [{ time: '06:00' }, 'time', MESSAGES.timeInvalid],
    [{ time: '21:00' }, 'time', MESSAGES.timeInvalid],
    [{ time: '09:30' }, 'time', MESSAGES.timeInvalid],
    [{ serviceType: 'pickup' }, 'serviceType', MESSAGES.serviceTypeRequired],
    [{ houseNumber: ' ' }, 'houseNumber', 'Please enter your house/unit number'],
    [{ streetAddress: '' }, 'streetAddress', 'Please enter your street address'],
    [{ suburb: '' }, 'suburb', 'Please enter your suburb'],
    [{ city: '' }, 'city', 'Please enter your city'],
    [{ postalCode: '' }, 'postalCode', 'Please enter your postal code'],
    [{ region: '' }, 'region', 'Please select your region'],
    [{ region: 'Queensland' }, 'region', 'Please select your region'],
    [{ name: '' }, 'name', 'Please enter your full name'],
    [{ email: '' }, 'email', 'Please enter your email'],
    [{ email: 'not-an-email' }, 'email', 'Please enter a valid email address'],
    [{ phone: '' }, 'phone', 'Please enter your phone number'],
    [{ phone: '12345' }, 'phone', 'Please enter a valid phone number'],
    [{ phone: '021-555-1234-5678' }, 'phone', 'Please enter a valid phone number'],
    [{ phone: 'call me' }, 'phone', 'Please enter a valid phone number'],
    [{ notes: 'x'.repeat(1001) }, 'notes', 'Please keep this under 1000 characters'],
  ];
  for (const [overrides, field, message] of cases) {
    t.same(validateBooking(validBooking(overrides), WINDOW), [{ field, message }], `${JSON.stringify(overrides).slice(0, 60)}`);
  }
  const all = validateBooking(emptyBooking(), WINDOW).map((e) => e.field);
  t.same(all, ['service', 'vehicleType', 'date', 'time', 'houseNumber', 'streetAddress', 'suburb', 'city', 'postalCode', 'region', 'name', 'email', 'phone']);
});

t.test('ceramic body styles map to vehicle types', async (t) => {
  t.equal(vehicleTypeForSize('Hatchback'), 'sm');
  t.equal(vehicleTypeForSize('Sedan'), 'mid');
  t.equal(vehicleTypeForSize('Suv'), 'suv');
  t.equal(vehicleTypeForSize('mid'), 'mid');
  t.equal(vehicleTypeForSize('Truck'), '');
});

t.test('calendar dates are checked without a date library', async (t) => {
  for (const ok of ['2026-11-24', '2028-02-29', '2027-12-31']) t.ok(isCalendarDate(ok), ok);
  for (const bad of ['2027-02-29', '2026-13-01', '2026-00-10', '2026-11-31', '26-11-24', '2026-11-24T00:00', '']) t.notOk(isCalendarDate(bad), bad);
  t.same(WINDOW, { min: '2026-11-24', max: '2027-11-23' });
});
