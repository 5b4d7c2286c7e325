/**
 * Issues 10 and 20, availability: GET /v1/availability for a job (each start with its end and the
 * vans or bays free for the whole of it) before and after bookings, GET /v1/availability/days,
 * malformed parameters and out-of-window dates, the no-JavaScript wizard showing a date's times
 * for the chosen job and refusing a closed, full or too-late one, and starts on Auckland's
 * daylight-saving days. Both databases.
 *
 * Defaults: two vans (on-site, every day 07:00-21:00, 30 minutes' travel after each job) and two
 * bays (drop-off, Monday to Friday 08:00-18:00, Saturday 09:00-17:00, Sunday closed).
 */
import t from 'tap';
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import { weekdayOf } from '../src/domain/availability.ts';
import { TIME_SLOTS } from '../src/domain/booking-rules.ts';
import { MESSAGES, SLOT_MESSAGES } from '../src/domain/messages.ts';
import { forEachBackend } from './helper.ts';
import { inDays, today } from './support/payloads.ts';
import { scheduleTestApp, type Slot } from './support/schedule.ts';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const hydrationState = (html: string) => JSON.parse(/<script type="application\/json" id="__DATA__">([\s\S]*?)<\/script>/.exec(html)![1]!).state;

/** The first date at least `after` days ahead that falls on `weekday`. */
function nextOn(weekday: string, after: number): string {
  for (let n = after; ; n++) if (weekdayOf(inDays(n)) === weekday) return inDays(n);
}

type JobSlot = Slot & { end: string };
const DELUXE_MID = { service: 'Deluxe Clean', vehicleType: 'mid', selectedVehicleType: 'mid' };
const QUICK_SMALL = { service: 'Quick Clean', vehicleType: 'sm', selectedVehicleType: 'sm' };

forEachBackend(t, async (t, backend) => {
  const { app, setClock, staff, availability, book } = await scheduleTestApp(t, backend);
  const postForm = (fields: Record<string, string>) =>
    app.inject({ method: 'POST', url: '/booking', payload: form(fields), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  /** GET /v1/availability for a job, the whole answer. */
  const forJob = async (date: string, job: Record<string, string>) => {
    const res = await app.inject({ url: '/v1/availability', query: { date, ...job } });
    if (res.statusCode !== 200) throw new Error(`availability ${date} ${JSON.stringify(job)}: ${res.statusCode} ${res.body}`);
    return res.json() as { date: string; durationMinutes: number; slots: JobSlot[] };
  };
  const slotsFor = async (date: string, job: Record<string, string>) => (await forJob(date, job)).slots;
  const at = (slots: JobSlot[], time: string) => slots.find((s) => s.time === time)!;
  const dropoffForm = (date: string, time: string, job: Record<string, string> = QUICK_SMALL) => ({
    ...job,
    serviceType: 'dropoff',
    date,
    time,
    name: 'No Script',
    email: 'noscript@example.com',
    phone: '021 555 4321',
  });

  t.test('each start of a date for a job, with its end and the vans free for the whole of it; bookings hold a van for the job and its buffer', async (t) => {
    const date = nextOn('tuesday', 2);
    const onsiteDeluxe = { service: 'Deluxe Clean', vehicleType: 'mid', serviceType: 'onsite' };
    const res = await app.inject({ url: '/v1/availability', query: { date, ...onsiteDeluxe } });
    t.equal(res.statusCode, 200);
    t.equal(res.headers['cache-control'], 'no-store', 'never cached: it must show a booking made a second ago');
    t.equal(res.headers['x-ratelimit-limit'], undefined, 'not rate-limited');
    const body = res.json();
    t.equal(body.date, date);
    t.equal(body.durationMinutes, 210, 'a Deluxe Clean of a medium car takes 3½ hours');
    t.same(body.slots.map((s: JobSlot) => s.time), TIME_SLOTS);
    t.match(body.slots[0], { time: '07:00', end: '10:30', startsAt: `${date}T07:00:00${body.slots[0].startsAt.slice(-6)}`, remaining: 2, available: true, reason: null });
    const fitting = body.slots.filter((s: JobSlot) => s.time <= '17:00');
    t.ok(fitting.every((s: JobSlot) => s.remaining === 2 && s.available && s.reason === null), 'every start to 17:00 fits on both vans');
    t.same(
      body.slots.filter((s: JobSlot) => s.time >= '18:00').map((s: JobSlot) => [s.time, s.end, s.remaining, s.available, s.reason]),
      [
        ['18:00', '21:30', 0, false, 'ends-after-closing'],
        ['19:00', '22:30', 0, false, 'ends-after-closing'],
        ['20:00', '23:30', 0, false, 'ends-after-closing'],
      ],
      'a job ending after 21:00 cannot start',
    );

    t.equal((await book({ date, time: '10:00' })).statusCode, 201);
    let slots = await slotsFor(date, onsiteDeluxe);
    t.match(at(slots, '10:00'), { remaining: 1, available: true, reason: null });
    t.match(at(slots, '07:00'), { remaining: 1 }, '07:00 would hold a van until 10:45, into the job at 10:00');
    t.match(at(slots, '13:00'), { remaining: 1 }, '13:00 starts before the van is back (13:30 + the 15-minute least gap)');
    t.match(at(slots, '14:00'), { remaining: 2, available: true }, 'from 14:00 both vans are free again');

    t.equal((await book({ date, time: '10:00', name: 'Second Customer' })).statusCode, 201);
    slots = await slotsFor(date, onsiteDeluxe);
    for (const time of ['07:00', '08:00', '09:00', '10:00', '11:00', '12:00', '13:00']) {
      t.match(at(slots, time), { remaining: 0, available: false, reason: 'full' }, `${time} overlaps both vans' 10:00-14:00`);
    }
    t.match(at(slots, '14:00'), { time: '14:00', end: '17:30', remaining: 2, available: true, reason: null });
    const quick = await slotsFor(date, { service: 'Quick Clean', vehicleType: 'sm', serviceType: 'onsite' });
    t.match(at(quick, '08:00'), { end: '09:00', remaining: 2, available: true }, 'a one-hour job fits before them (held 08:00-09:15)');
    t.match(at(quick, '09:00'), { end: '10:00', available: false, reason: 'full' }, 'but not at 09:00 (its gap runs to 10:15)');
    t.match(at(await slotsFor(date, { ...onsiteDeluxe, serviceType: 'dropoff' }), '10:00'), { remaining: 2 }, 'the bays are untouched by on-site jobs');

    const full = await book({ date, time: '10:00', name: 'Third Customer' });
    t.equal(full.statusCode, 409);
    t.same(full.json(), { message: MESSAGES.slotFull, errors: [{ field: 'time', message: MESSAGES.slotFull }] });
    const overlapping = await book({ date, time: '12:00', service: 'Ultimate Clean', name: 'Overlapping' });
    t.equal(overlapping.statusCode, 409, 'a start of its own that overlaps both vans is refused too');
    t.equal(overlapping.json().message, MESSAGES.slotFull);
    t.equal((await book({ date, time: '14:00', name: 'Afternoon' })).statusCode, 201, 'the start the answer offered is accepted');
    const rows = await app.db.selectFrom('bookings').select(['resource_id', 'starts_at', 'ends_at', 'buffer_minutes']).where('date', '=', date).where('service_type', '=', 'onsite').orderBy('time').execute();
    t.equal(rows.length, 3);
    t.not(rows[0]!.resource_id, rows[1]!.resource_id, 'the two 10:00 jobs are on different vans');
    t.ok(rows.every((row) => row.resource_id !== null && row.buffer_minutes === 15));
    t.equal(new Date(rows[0]!.ends_at).getTime() - new Date(rows[0]!.starts_at).getTime(), 210 * 60_000, 'held for its duration');

    const anyJob = await app.inject(`/v1/availability?date=${date}`);
    t.equal(anyJob.json().durationMinutes, 60, 'without a job: the shortest job of the catalogue…');
    t.match(at(anyJob.json().slots, '10:00'), { available: true }, '…on either kind (the bays are free at 10:00)');
  });

  t.test('drop-off hours: Monday to Friday 08:00-18:00, Saturday 09:00-17:00, Sunday closed; a job must end by closing', async (t) => {
    const wednesday = nextOn('wednesday', 2);
    const saturday = nextOn('saturday', 2);
    const sunday = nextOn('sunday', 2);
    const dropoffDeluxe = { service: 'Deluxe Clean', vehicleType: 'mid', serviceType: 'dropoff' };
    const reasons = (slots: JobSlot[]) => Object.fromEntries(slots.map((s) => [s.time, s.reason]));
    t.same(reasons(await slotsFor(wednesday, dropoffDeluxe)), {
      '07:00': 'outside-hours',
      '08:00': null,
      '09:00': null,
      '10:00': null,
      '11:00': null,
      '12:00': null,
      '13:00': null,
      '14:00': null,
      '15:00': 'ends-after-closing',
      '16:00': 'ends-after-closing',
      '17:00': 'ends-after-closing',
      '18:00': 'outside-hours',
      '19:00': 'outside-hours',
      '20:00': 'outside-hours',
    });
    const saturdaySlots = await slotsFor(saturday, dropoffDeluxe);
    t.same(saturdaySlots.filter((s) => s.available).map((s) => `${s.time}-${s.end}`), ['09:00-12:30', '10:00-13:30', '11:00-14:30', '12:00-15:30', '13:00-16:30']);
    t.ok((await slotsFor(sunday, dropoffDeluxe)).every((s) => s.reason === 'outside-hours' && s.remaining === 0), 'no drop-off on a Sunday');
    t.ok((await slotsFor(sunday, { ...dropoffDeluxe, serviceType: 'onsite' })).some((s) => s.available), 'while the vans work every day');

    const early = await book({ ...DELUXE_MID, serviceType: 'dropoff', date: wednesday, time: '07:00', name: 'Early Drop' });
    t.equal(early.statusCode, 409, 'a 07:00 drop-off is refused…');
    t.same(early.json(), { message: SLOT_MESSAGES.outsideHours, errors: [{ field: 'time', message: SLOT_MESSAGES.outsideHours }] }, '…with its reason');
    const onSunday = await book({ ...QUICK_SMALL, serviceType: 'dropoff', date: sunday, time: '10:00', name: 'Sunday Drop' });
    t.equal(onSunday.statusCode, 409);
    t.equal(onSunday.json().message, SLOT_MESSAGES.outsideHours);
    const coating = await book({ service: 'Ceramic Coating', coatingType: 'coat1', vehicleType: 'mid', selectedVehicleType: 'Sedan', date: wednesday, time: '20:00', name: 'Night Coat' });
    t.equal(coating.statusCode, 409, 'an eight-hour coating at 20:00 would end at 04:00');
    t.same(coating.json(), { message: SLOT_MESSAGES.endsAfterClosing, errors: [{ field: 'time', message: SLOT_MESSAGES.endsAfterClosing }] });
    t.equal((await app.db.selectFrom('bookings').select('id').where('name', 'in', ['Early Drop', 'Sunday Drop', 'Night Coat']).execute()).length, 0, 'none of them stored');
  });

  t.test('the days summary: how many starts each date offers the job', async (t) => {
    const sunday = nextOn('sunday', 2);
    const from = inDays(-1);
    const to = inDays(12);
    const res = await app.inject({ url: '/v1/availability/days', query: { from, to, service: 'Deluxe Clean', vehicleType: 'mid', serviceType: 'dropoff' } });
    t.equal(res.statusCode, 200);
    t.equal(res.headers['cache-control'], 'no-store');
    const body = res.json();
    t.match(body, { from, to, durationMinutes: 210 });
    t.equal(body.days.length, 14, 'every date of the range, both ends included');
    const starts = Object.fromEntries(body.days.map((d: { date: string; availableStarts: number }) => [d.date, d.availableStarts]));
    t.equal(starts[inDays(-1)], 0, 'yesterday…');
    t.equal(starts[today], 0, '…and today cannot be booked');
    t.equal(starts[sunday], 0, 'a Sunday has no drop-off');
    for (const day of body.days as { date: string; availableStarts: number }[]) {
      if (day.date <= today) continue;
      const offered = (await slotsFor(day.date, { service: 'Deluxe Clean', vehicleType: 'mid', serviceType: 'dropoff' })).filter((s) => s.available).length;
      t.equal(day.availableStarts, offered, `${day.date}: the same count as the date's own answer`);
    }

    const closedDay = inDays(4);
    const closure = (await staff('POST', '/v1/closures', { date: closedDay, reason: 'Stocktake' })).json();
    const after = (await app.inject({ url: '/v1/availability/days', query: { from: closedDay, to: closedDay } })).json();
    t.same(after.days, [{ date: closedDay, availableStarts: 0 }], 'a closed date offers nothing');
    await staff('DELETE', `/v1/closures/${closure.id}`);

    for (const query of [
      { from: inDays(1), to: inDays(63) },
      { from: inDays(5), to: inDays(4) },
      { from: 'soon', to: inDays(4) },
      { from: inDays(1) },
      { from: inDays(1), to: inDays(2), service: 'Car Wash', vehicleType: 'sm' },
      { from: inDays(1), to: inDays(2), serviceType: 'boat' },
    ] as Record<string, string>[]) {
      const bad = await app.inject({ url: '/v1/availability/days', query });
      t.equal(bad.statusCode, 400, JSON.stringify(query));
      t.match(bad.json(), { message: String, errors: [{ field: String, message: String }] });
    }
    t.equal((await app.inject({ url: '/v1/availability/days', query: { from: inDays(1), to: inDays(63) } })).json().errors[0].field, 'to', 'at most 62 days');
    const longest = await app.inject({ url: '/v1/availability/days', query: { from: inDays(1), to: inDays(62) } });
    t.equal(longest.statusCode, 200);
    t.equal(longest.json().days.length, 62, '62 days are answered');
  });

  t.test('malformed parameters are 400s in the error shape; a date outside the window is all unavailable', async (t) => {
    for (const query of ['date=tomorrow', 'date=2026-02-30', 'date=2026-2-3', 'date=', '', `date=${inDays(3)}&colour=red`]) {
      const res = await app.inject(`/v1/availability?${query}`);
      t.equal(res.statusCode, 400, query);
      t.match(res.json(), { message: String, errors: [{ field: String, message: String }] }, query);
    }
    t.same((await app.inject('/v1/availability?date=2026-02-30')).json().errors, [{ field: 'date', message: 'Must be a real date written YYYY-MM-DD' }]);
    // JavaScript's Date would read year 0050 as 1950 and answer for another date.
    t.same((await app.inject('/v1/availability?date=0050-01-01')).json().errors, [{ field: 'date', message: 'Must be a date in the years 1900 to 2999' }]);
    const date = inDays(3);
    for (const [query, field] of [
      [{ service: 'Car Wash', vehicleType: 'sm' }, 'service'],
      [{ service: 'Deluxe Clean' }, 'vehicleType'],
      [{ service: 'Deluxe Clean', vehicleType: 'van' }, 'vehicleType'],
      [{ service: 'Ceramic Coating', vehicleType: 'mid', coatingType: 'coat9' }, 'coatingType'],
      [{ serviceType: 'boat' }, 'serviceType'],
    ] as const) {
      const res = await app.inject({ url: '/v1/availability', query: { date, ...query } });
      t.equal(res.statusCode, 400, JSON.stringify(query));
      t.equal(res.json().errors[0].field, field, JSON.stringify(query));
    }
    t.equal((await forJob(date, { service: 'Ceramic Coating', vehicleType: 'mid' })).durationMinutes, 360, 'a coating without its term is the 1 year one');
    t.equal((await forJob(date, { service: 'Ceramic Coating', vehicleType: 'mid', coatingType: 'coat2' })).durationMinutes, 480);
    for (const day of [inDays(-1), today, inDays(400)]) {
      const slots = await availability(day);
      t.equal(slots.length, 14, day);
      t.ok(slots.every((s) => !s.available && s.remaining === 0 && s.reason === 'outside-window'), `${day} cannot be booked`);
    }
    t.ok((await availability(inDays(1))).every((s) => s.available), 'tomorrow can, at every start, for the shortest job');
  });

  t.test("without JavaScript: step 2 shows the chosen date's times for the job with their ends, and a closed, full or too-late time comes back with its message", async (t) => {
    const date = nextOn('thursday', 5);
    const closure = (await staff('POST', '/v1/closures', { date, time: '13:00', reason: 'Training' })).json();

    const stepTwo = await postForm({ ...dropoffForm(date, '13:00'), step: '2', action: 'next' });
    t.equal(stepTwo.statusCode, 400);
    const state = hydrationState(stepTwo.body);
    t.match(state, { step: 2, errors: [{ field: 'time', message: MESSAGES.slotClosed }], availability: { date, durationMinutes: 60 } });
    t.match(state.availability.slots.find((s: JobSlot) => s.time === '13:00'), { end: '14:00', available: false, reason: 'closed' });
    t.match(stepTwo.body, /<option value="13:00" selected="">13:00 – 14:00 — Closed<\/option>/, 'the end and the reason in words, and still choosable (the date may change before the next post)');
    t.match(stepTwo.body, /<option value="07:00">07:00 – 08:00 — Outside opening hours<\/option>/, 'before the drop-off opens');
    t.match(stepTwo.body, /<option value="09:00">09:00 – 10:00<\/option>/, 'a free time with its end');
    t.match(stepTwo.body, /id="booking-time-error" role="alert">Sorry, we are closed at that time/, 'the message beside the time');
    t.match(stepTwo.body, /<p id="booking-duration">This service takes about 1 hour: each time shows when it would end\.<\/p>/, 'how long the job takes');

    const back = await postForm({ ...dropoffForm(date, '14:00'), step: '3', action: 'back' });
    t.match(hydrationState(back.body), { step: 2, availability: { date } }, 'Previous Step from step 3 shows the times of the chosen date');

    const lastStep = await postForm({ ...dropoffForm(date, '13:00'), step: '3', action: 'next' });
    t.equal(lastStep.statusCode, 409, 'closed after the customer passed step 2');
    t.match(hydrationState(lastStep.body), { step: 2, formError: MESSAGES.slotClosed, errors: [{ field: 'time', message: MESSAGES.slotClosed }], availability: { date } });

    const dropoff = { ...QUICK_SMALL, serviceType: 'dropoff', date, time: '14:00' };
    t.equal((await book({ ...dropoff, name: 'First' })).statusCode, 201);
    t.equal((await book({ ...dropoff, name: 'Second' })).statusCode, 201);
    const full = await postForm({ ...dropoffForm(date, '14:00'), step: '2', action: 'next' });
    t.equal(full.statusCode, 400);
    t.match(hydrationState(full.body), { step: 2, errors: [{ field: 'time', message: MESSAGES.slotFull }] });
    t.match(full.body, /<option value="14:00" selected="">14:00 – 15:00 — Full<\/option>/);

    const longer = await postForm({ ...dropoffForm(date, '12:00', DELUXE_MID), step: '2', action: 'next' });
    t.equal(longer.statusCode, 400, 'a Deluxe Clean at 12:00 would still hold a bay at 14:00, and 13:00 is closed');
    t.match(longer.body, /<option value="12:00" selected="">12:00 – 15:30 — Closed<\/option>/);
    t.match(longer.body, /<option value="10:00">10:00 – 13:30 — Closed<\/option>/);
    t.match(longer.body, /<option value="09:00">09:00 – 12:30<\/option>/);
    t.match(longer.body, /This service takes about 3½ hours/);
    const late = await postForm({ ...dropoffForm(date, '15:00', DELUXE_MID), step: '2', action: 'next' });
    t.equal(late.statusCode, 400);
    t.match(hydrationState(late.body), { step: 2, errors: [{ field: 'time', message: SLOT_MESSAGES.endsAfterClosing }], availability: { durationMinutes: 210 } });
    t.match(late.body, /<option value="15:00" selected="">15:00 – 18:30 — Ends after closing<\/option>/);

    const free = await postForm({ ...dropoffForm(date, '15:00'), step: '2', action: 'next' });
    t.equal(free.statusCode, 200);
    t.match(hydrationState(free.body), { step: 3, errors: [] });
    await staff('DELETE', `/v1/closures/${closure.id}`);
  });

  t.test('starts neither move nor duplicate on the days daylight saving starts or ends, and bookings hold the right instants', async (t) => {
    /** Each start, read back on an Auckland clock, is its own time, an hour after the one before. */
    const checkDay = (slots: Slot[], date: string, offset: string) => {
      t.same(slots.map((s) => s.time), TIME_SLOTS, `${date}: 14 starts, 07:00 to 20:00, none twice`);
      t.ok(slots.every((s) => s.startsAt === `${date}T${s.time}:00${offset}`), `${date}: every start at ${offset}`);
      for (const slot of slots) t.equal(format(new TZDate(Date.parse(slot.startsAt), 'Pacific/Auckland'), 'yyyy-MM-dd HH:mm'), `${date} ${slot.time}`);
      const gaps = slots.slice(1).map((s, i) => Date.parse(s.startsAt) - Date.parse(slots[i]!.startsAt));
      t.ok(gaps.every((gap) => gap === 3_600_000), `${date}: an hour apart`);
    };
    const instants = async (date: string) =>
      (await app.db.selectFrom('bookings').select(['time', 'starts_at', 'ends_at']).where('date', '=', date).orderBy('time').execute()).map((row) => [
        row.time,
        new Date(row.starts_at).toISOString(),
        new Date(row.ends_at).toISOString(),
      ]);
    const onsiteDeluxe = { service: 'Deluxe Clean', vehicleType: 'mid', serviceType: 'onsite' };

    // Daylight saving ends on 2026-04-05 at 03:00 (NZDT, +13) → 02:00 (NZST, +12).
    setClock(new Date('2026-04-01T00:00:00Z'), t);
    checkDay(await availability('2026-04-04'), '2026-04-04', '+13:00');
    checkDay(await availability('2026-04-05'), '2026-04-05', '+12:00');
    t.equal((await book({ date: '2026-04-05', time: '07:00' })).statusCode, 201);
    t.equal((await book({ date: '2026-04-05', time: '07:00', name: 'Second' })).statusCode, 201);
    t.same(await instants('2026-04-05'), [
      ['07:00', '2026-04-04T19:00:00.000Z', '2026-04-04T22:30:00.000Z'],
      ['07:00', '2026-04-04T19:00:00.000Z', '2026-04-04T22:30:00.000Z'],
    ], '07:00 to 10:30 at +12:00');
    const april = await slotsFor('2026-04-05', onsiteDeluxe);
    t.match(
      april.slice(0, 5),
      [
        { time: '07:00', end: '10:30', remaining: 0, reason: 'full' },
        { time: '08:00', remaining: 0, reason: 'full' },
        { time: '09:00', remaining: 0, reason: 'full' },
        { time: '10:00', remaining: 0, reason: 'full' },
        { time: '11:00', end: '14:30', remaining: 2, reason: null },
      ],
      'both vans are held from 07:00 to 11:00 (the jobs and their buffer)',
    );
    // The last instant of 4 April in Auckland (+13), and the first of 5 April.
    setClock(new Date('2026-04-04T10:59:59Z'), t);
    t.ok((await availability('2026-04-05')).every((s) => s.reason !== 'outside-window'), 'bookable until midnight in Auckland…');
    setClock(new Date('2026-04-04T11:00:00Z'), t);
    t.ok((await availability('2026-04-05')).every((s) => s.reason === 'outside-window'), '…and not from midnight');

    // Daylight saving starts on 2026-09-27 at 02:00 (NZST, +12) → 03:00 (NZDT, +13).
    setClock(new Date('2026-09-20T00:00:00Z'), t);
    checkDay(await availability('2026-09-26'), '2026-09-26', '+12:00');
    checkDay(await availability('2026-09-27'), '2026-09-27', '+13:00');
    t.equal((await book({ date: '2026-09-27', time: '08:00' })).statusCode, 201);
    t.same(await instants('2026-09-27'), [['08:00', '2026-09-26T19:00:00.000Z', '2026-09-26T22:30:00.000Z']], '08:00 to 11:30 at +13:00');
    setClock(new Date('2026-09-26T11:59:59Z'), t);
    t.ok((await availability('2026-09-27')).every((s) => s.available));
    setClock(new Date('2026-09-26T12:00:00Z'), t);
    t.ok((await availability('2026-09-27')).every((s) => s.reason === 'outside-window'));

    // Daylight saving ends again on 2027-04-04 (a Sunday: no drop-off, the vans work).
    setClock(new Date('2027-03-30T00:00:00Z'), t);
    checkDay(await availability('2027-04-03'), '2027-04-03', '+13:00');
    checkDay(await availability('2027-04-04'), '2027-04-04', '+12:00');
    const tooLate = await book({ date: '2027-04-04', time: '20:00' });
    t.equal(tooLate.statusCode, 409, 'a Deluxe Clean at 20:00 would end at 23:30');
    t.equal(tooLate.json().message, SLOT_MESSAGES.endsAfterClosing);
    t.equal((await book({ ...QUICK_SMALL, date: '2027-04-04', time: '20:00' })).statusCode, 201, 'a one-hour job ends at 21:00, closing time');
    t.same(await instants('2027-04-04'), [['20:00', '2027-04-04T08:00:00.000Z', '2027-04-04T09:00:00.000Z']]);
    t.match((await availability('2027-04-04')).at(-1), { time: '20:00', remaining: 1 }, 'one van left; no bay on a Sunday');
  });

  t.test('availability, its days summary, closures and weekly closed days are in the OpenAPI document', async (t) => {
    const doc = (await app.inject('/v1/openapi.json')).json();
    for (const path of ['/v1/availability', '/v1/availability/days']) {
      t.ok(doc.paths[path]?.get, `${path} documented`);
      t.same(doc.paths[path].get.security, [], 'and public: no session needed');
      const names = doc.paths[path].get.parameters.map((p: { name: string }) => p.name);
      for (const name of ['service', 'vehicleType', 'coatingType', 'serviceType']) t.ok(names.includes(name), `${path} takes ${name}`);
    }
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
