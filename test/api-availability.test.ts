/**
 * Issue 10, availability: GET /v1/availability before and after filling a slot, malformed and
 * out-of-window dates, the no-JavaScript wizard showing a date's times and refusing a closed or
 * full one, and slots on Auckland's daylight-saving days. Both databases.
 */
import t from 'tap';
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import { TIME_SLOTS } from '../src/domain/booking-rules.ts';
import { MESSAGES } from '../src/domain/messages.ts';
import { forEachBackend } from './helper.ts';
import { inDays, today } from './support/payloads.ts';
import { scheduleTestApp, type Slot } from './support/schedule.ts';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const hydrationState = (html: string) => JSON.parse(/<script type="application\/json" id="__DATA__">([\s\S]*?)<\/script>/.exec(html)![1]!).state;

forEachBackend(t, async (t, backend) => {
  const { app, setClock, staff, availability, slotAt, book } = await scheduleTestApp(t, backend);
  const postForm = (fields: Record<string, string>) =>
    app.inject({ method: 'POST', url: '/booking', payload: form(fields), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  const dropoffForm = (date: string, time: string) => ({
    service: 'Quick Clean',
    vehicleType: 'sm',
    selectedVehicleType: 'sm',
    serviceType: 'dropoff',
    date,
    time,
    name: 'No Script',
    email: 'noscript@example.com',
    phone: '021 555 4321',
  });

  t.test('every hourly slot of a date, with the places left; a booking shows at once', async (t) => {
    const date = inDays(3);
    const res = await app.inject(`/v1/availability?date=${date}`);
    t.equal(res.statusCode, 200);
    t.equal(res.headers['cache-control'], 'no-store', 'never cached: it must show a booking made a second ago');
    t.equal(res.headers['x-ratelimit-limit'], undefined, 'not rate-limited');
    const body = res.json();
    t.equal(body.date, date);
    t.same(body.slots.map((s: Slot) => s.time), TIME_SLOTS);
    t.ok(body.slots.every((s: Slot) => s.remaining === 2 && s.available && s.reason === null), 'all free with the default capacity of 2');

    t.equal((await book({ date, time: '10:00' })).statusCode, 201);
    t.match(await slotAt(date, '10:00'), { remaining: 1, available: true, reason: null });
    t.equal((await book({ date, time: '10:00', name: 'Second Customer' })).statusCode, 201);
    t.match(await slotAt(date, '10:00'), { remaining: 0, available: false, reason: 'full' });
    t.match(await slotAt(date, '11:00'), { remaining: 2, available: true }, 'the next hour is untouched');
    const full = await book({ date, time: '10:00', name: 'Third Customer' });
    t.equal(full.statusCode, 409);
    t.same(full.json(), { message: MESSAGES.slotFull, errors: [{ field: 'time', message: MESSAGES.slotFull }] });
  });

  t.test('a malformed date is a 400 in the error shape; a date outside the window is all unavailable', async (t) => {
    for (const query of ['date=tomorrow', 'date=2026-02-30', 'date=2026-2-3', 'date=', '', `date=${inDays(3)}&colour=red`]) {
      const res = await app.inject(`/v1/availability?${query}`);
      t.equal(res.statusCode, 400, query);
      t.match(res.json(), { message: String, errors: [{ field: String, message: String }] }, query);
    }
    t.same((await app.inject('/v1/availability?date=2026-02-30')).json().errors, [{ field: 'date', message: 'Must be a real date written YYYY-MM-DD' }]);
    // JavaScript's Date would read year 0050 as 1950 and answer for another date.
    t.same((await app.inject('/v1/availability?date=0050-01-01')).json().errors, [{ field: 'date', message: 'Must be a date in the years 1900 to 2999' }]);
    for (const date of [inDays(-1), today, inDays(400)]) {
      const slots = await availability(date);
      t.equal(slots.length, 14, date);
      t.ok(slots.every((s) => !s.available && s.remaining === 0 && s.reason === 'outside-window'), `${date} cannot be booked`);
    }
    t.ok((await availability(inDays(1))).every((s) => s.available), 'tomorrow can');
  });

  t.test('without JavaScript: step 2 shows the chosen date\'s times, and a closed or full time comes back with its message', async (t) => {
    const date = inDays(6);
    const closure = (await staff('POST', '/v1/closures', { date, time: '13:00', reason: 'Training' })).json();

    const stepTwo = await postForm({ ...dropoffForm(date, '13:00'), step: '2', action: 'next' });
    t.equal(stepTwo.statusCode, 400);
    const state = hydrationState(stepTwo.body);
    t.match(state, { step: 2, errors: [{ field: 'time', message: MESSAGES.slotClosed }], availability: { date } });
    t.match(state.availability.slots.find((s: Slot) => s.time === '13:00'), { available: false, reason: 'closed' });
    t.match(stepTwo.body, /<option value="13:00" selected="">13:00 — Closed<\/option>/, 'the reason in words, and still choosable (the date may change before the next post)');
    t.match(stepTwo.body, /id="booking-time-error" role="alert">Sorry, we are closed at that time/, 'the message beside the time');

    const back = await postForm({ ...dropoffForm(date, '14:00'), step: '3', action: 'back' });
    t.match(hydrationState(back.body), { step: 2, availability: { date } }, 'Previous Step from step 3 shows the times of the chosen date');

    const lastStep = await postForm({ ...dropoffForm(date, '13:00'), step: '3', action: 'next' });
    t.equal(lastStep.statusCode, 409, 'closed after the customer passed step 2');
    t.match(hydrationState(lastStep.body), { step: 2, formError: MESSAGES.slotClosed, errors: [{ field: 'time', message: MESSAGES.slotClosed }], availability: { date } });

    await book({ date, time: '14:00', name: 'First' });
    await book({ date, time: '14:00', name: 'Second' });
    const full = await postForm({ ...dropoffForm(date, '14:00'), step: '2', action: 'next' });
    t.equal(full.statusCode, 400);
    t.match(hydrationState(full.body), { step: 2, errors: [{ field: 'time', message: MESSAGES.slotFull }] });
    t.match(full.body, /<option value="14:00" selected="">14:00 — Full<\/option>/);

    const free = await postForm({ ...dropoffForm(date, '15:00'), step: '2', action: 'next' });
    t.equal(free.statusCode, 200);
    t.match(hydrationState(free.body), { step: 3, errors: [] });
    await staff('DELETE', `/v1/closures/${closure.id}`);
  });

  t.test('slots neither move nor duplicate on the days daylight saving starts or ends', async (t) => {
    /** Each slot's start, read back on an Auckland clock, is its own time, an hour after the one before. */
    const checkDay = (slots: Slot[], date: string, offset: string) => {
      t.same(slots.map((s) => s.time), TIME_SLOTS, `${date}: 14 slots, 07:00 to 20:00, none twice`);
      t.ok(slots.every((s) => s.startsAt === `${date}T${s.time}:00${offset}`), `${date}: every slot at ${offset}`);
      for (const slot of slots) t.equal(format(new TZDate(Date.parse(slot.startsAt), 'Pacific/Auckland'), 'yyyy-MM-dd HH:mm'), `${date} ${slot.time}`);
      const gaps = slots.slice(1).map((s, i) => Date.parse(s.startsAt) - Date.parse(slots[i]!.startsAt));
      t.ok(gaps.every((gap) => gap === 3_600_000), `${date}: an hour apart`);
    };

    // Daylight saving ends on 2026-04-05 at 03:00 (NZDT, +13) → 02:00 (NZST, +12).
    setClock(new Date('2026-04-01T00:00:00Z'), t);
    checkDay(await availability('2026-04-04'), '2026-04-04', '+13:00');
    checkDay(await availability('2026-04-05'), '2026-04-05', '+12:00');
    t.equal((await book({ date: '2026-04-05', time: '07:00' })).statusCode, 201);
    t.equal((await book({ date: '2026-04-05', time: '07:00', name: 'Second' })).statusCode, 201);
    const april = await availability('2026-04-05');
    t.match(april.slice(0, 2), [{ time: '07:00', remaining: 0, reason: 'full' }, { time: '08:00', remaining: 2 }], 'the bookings count in their own slot');
    // The last instant of 4 April in Auckland (+13), and the first of 5 April.
    setClock(new Date('2026-04-04T10:59:59Z'), t);
    t.ok((await availability('2026-04-05')).every((s) => s.reason !== 'outside-window'), 'bookable until midnight in Auckland…');
    setClock(new Date('2026-04-04T11:00:00Z'), t);
    t.ok((await availability('2026-04-05')).every((s) => s.reason === 'outside-window'), '…and not from midnight');

    // Daylight saving starts on 2026-09-27 at 02:00 (NZST, +12) → 03:00 (NZDT, +13).
    setClock(new Date('2026-09-20T00:00:00Z'), t);
    checkDay(await availability('2026-09-26'), '2026-09-26', '+12:00');
    checkDay(await availability('2026-09-27'), '2026-09-27', '+13:00');
    setClock(new Date('2026-09-26T11:59:59Z'), t);
    t.ok((await availability('2026-09-27')).every((s) => s.available));
    setClock(new Date('2026-09-26T12:00:00Z'), t);
    t.ok((await availability('2026-09-27')).every((s) => s.reason === 'outside-window'));

    // Daylight saving ends again on 2027-04-04.
    setClock(new Date('2027-03-30T00:00:00Z'), t);
    checkDay(await availability('2027-04-03'), '2027-04-03', '+13:00');
    checkDay(await availability('2027-04-04'), '2027-04-04', '+12:00');
    t.equal((await book({ date: '2027-04-04', time: '20:00' })).statusCode, 201);
    t.match((await availability('2027-04-04')).at(-1), { time: '20:00', remaining: 1 });
  });

  t.test('availability, closures and weekly closed days are in the OpenAPI document', async (t) => {
    const doc = (await app.inject('/v1/openapi.json')).json();
    t.ok(doc.paths['/v1/availability']?.get, 'availability documented');
    t.notOk(doc.paths['/v1/availability'].get.security, 'and public');
    for (const [path, method] of [
      ['/v1/closures', 'get'],
      ['/v1/closures', 'post'],
      ['/v1/closures/{id}', 'delete'],
      ['/v1/schedule/weekly-closed-days', 'get'],
      ['/v1/schedule/weekly-closed-days', 'put'],
    ] as const) {
      t.same(doc.paths[path]?.[method]?.security, [{ staffSession: [] }], `${method} ${path} needs the session`);
    }
  });
});
