/**
 * Issues 10 and 20, closures: the staff closures (a whole date, one hour or a from-to range, for
 * both kinds, one kind or one van or bay) and weekly closed days (validation, session and
 * same-origin guard), the booking refusing closed times, the bookings listed when closing, and
 * reopening a cancelled booking when its van is taken or its time closed. Both databases.
 */
import t from 'tap';
import { weekdayOf } from '../src/domain/availability.ts';
import { latestBookingDate } from '../src/domain/booking-dates.ts';
import { CLOSURE_MESSAGES } from '../src/domain/closure-rules.ts';
import { MESSAGES } from '../src/domain/messages.ts';
import { REOPEN_MESSAGES } from '../src/services/staff-bookings.service.ts';
import { forEachBackend } from './helper.ts';
import { bookingRow, inDays, testNow, today } from './support/payloads.ts';
import { scheduleTestApp } from './support/schedule.ts';

/** The first date from `from` days ahead that falls on the weekday. */
function nextWeekday(weekday: string, from: number): string {
  for (let n = from; ; n++) if (weekdayOf(inDays(n)) === weekday) return inDays(n);
}

/** An hour-long on-site job (a Quick Clean of a small car): it holds a van 60 minutes plus the 30-minute travel buffer. */
const QUICK = { service: 'Quick Clean', vehicleType: 'sm', selectedVehicleType: 'sm' };

forEachBackend(t, async (t, backend) => {
  const { app, cookie, staff, availability, book: bookAny } = await scheduleTestApp(t, backend);
  const book = (overrides: Record<string, unknown>) => bookAny({ ...QUICK, ...overrides });
  /** The starts offered for that job on that date. */
  const quickSlots = async (date: string, serviceType = 'onsite') => {
    const res = await app.inject(`/v1/availability?date=${date}&service=Quick%20Clean&vehicleType=sm&serviceType=${serviceType}`);
    if (res.statusCode !== 200) throw new Error(`availability ${date}: ${res.statusCode} ${res.body}`);
    return res.json().slots as { time: string; remaining: number; available: boolean; reason: string | null }[];
  };
  const slotAt = async (date: string, time: string, serviceType = 'onsite') => (await quickSlots(date, serviceType)).find((s) => s.time === time)!;

  t.test('closures are staff only: 401 without a session, 403 from another site', async (t) => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const [method, url] of [
      ['GET', '/v1/closures'],
      ['POST', '/v1/closures'],
      ['DELETE', `/v1/closures/${id}`],
      ['GET', '/v1/schedule/weekly-closed-days'],
      ['PUT', '/v1/schedule/weekly-closed-days'],
    ] as const) {
      const res = await staff(method, url, method === 'POST' || method === 'PUT' ? {} : undefined, {});
      t.equal(res.statusCode, 401, `${method} ${url}`);
      t.match(res.json(), { message: String, errors: [] });
    }
    const body = { date: inDays(20), reason: 'Forged' };
    t.equal((await staff('POST', '/v1/closures', body, { cookie, 'sec-fetch-site': 'cross-site' })).statusCode, 403);
    t.equal((await staff('POST', '/v1/closures', body, { cookie, origin: 'https://evil.example' })).statusCode, 403);
    t.equal((await staff('DELETE', `/v1/closures/${id}`, undefined, { cookie, 'sec-fetch-site': 'same-site' })).statusCode, 403);
    t.equal((await staff('PUT', '/v1/schedule/weekly-closed-days', { days: ['sunday'] }, { cookie, 'sec-fetch-site': 'cross-site' })).statusCode, 403);
    t.same((await staff('GET', '/v1/closures')).json(), { from: today, to: latestBookingDate(testNow), data: [] }, 'nothing closed from today to the end of the window');
    t.same((await staff('GET', '/v1/schedule/weekly-closed-days')).json(), { days: [] }, 'no weekly closed day by default');
  });

  t.test('closure input is fully checked', async (t) => {
    const cases: [object, string, string | StringConstructor][] = [
      [{ date: '2026-02-30', reason: 'x' }, 'date', 'Please enter a real date as YYYY-MM-DD'],
      [{ date: 'soon', reason: 'x' }, 'date', 'Please enter a real date as YYYY-MM-DD'],
      [{ date: '', reason: 'x' }, 'date', 'Please choose the date to close'],
      [{ date: inDays(-1), reason: 'x' }, 'date', 'A date that has passed cannot be closed'],
      [{ date: inDays(400), reason: 'x' }, 'date', 'Please choose a date within the next 12 months'],
      [{ date: inDays(20), time: '09:30', reason: 'x' }, 'time', CLOSURE_MESSAGES.timeInvalid],
      [{ date: inDays(20), time: '24:00', reason: 'x' }, 'time', CLOSURE_MESSAGES.timeInvalid],
      [{ date: inDays(20), time: '09:00', from: '09:00', to: '10:00', reason: 'x' }, 'time', 'Please give either one time or a from-to range, not both'],
      [{ date: inDays(20), from: '12:00', reason: 'x' }, 'to', CLOSURE_MESSAGES.fromRequired],
      [{ date: inDays(20), to: '12:00', reason: 'x' }, 'from', CLOSURE_MESSAGES.fromRequired],
      [{ date: inDays(20), from: '12:30', to: '14:00', reason: 'x' }, 'from', CLOSURE_MESSAGES.timeInvalid],
      [{ date: inDays(20), from: '12:00', to: '25:00', reason: 'x' }, 'to', CLOSURE_MESSAGES.toInvalid],
      [{ date: inDays(20), from: '14:00', to: '12:00', reason: 'x' }, 'to', CLOSURE_MESSAGES.rangeBackwards],
      [{ date: inDays(20), kind: 'trucks', reason: 'x' }, 'kind', CLOSURE_MESSAGES.kindInvalid],
      [{ date: inDays(20), kind: 'onsite', resourceId: '00000000-0000-4000-8000-000000000000', reason: 'x' }, 'resourceId', CLOSURE_MESSAGES.scopeBoth],
      [{ date: inDays(20), resourceId: '00000000-0000-4000-8000-000000000000', reason: 'x' }, 'resourceId', CLOSURE_MESSAGES.resourceUnknown],
      [{ date: inDays(20), resourceId: 'van-2', reason: 'x' }, 'resourceId', String],
      [{ date: inDays(20), reason: '   ' }, 'reason', 'Please give a reason (for your colleagues; customers only see "Closed")'],
      [{ date: inDays(20), reason: 'x'.repeat(201) }, 'reason', 'Please keep this under 200 characters'],
      [{ date: inDays(20) }, 'reason', 'This field is required'],
      [{ date: inDays(20), reason: 'x', cancelBookings: true }, 'cancelBookings', 'Unknown field'],
      [{ date: inDays(20), time: 9, reason: 'x' }, 'time', String],
    ];
    for (const [body, field, message] of cases) {
      const res = await staff('POST', '/v1/closures', body);
      t.equal(res.statusCode, 400, JSON.stringify(body));
      t.match(res.json(), { message: String, errors: [{ field, message }] }, JSON.stringify(body));
    }
    t.equal((await staff('GET', '/v1/closures?from=2026-13-01')).statusCode, 400);
    t.match((await staff('GET', `/v1/closures?from=${inDays(10)}&to=${inDays(9)}`)).json(), { errors: [{ field: 'to' }] });
    t.equal((await staff('GET', `/v1/closures?from=${inDays(0)}&to=${inDays(401)}`)).statusCode, 400, 'at most 400 days at once');
    t.equal((await staff('DELETE', '/v1/closures/not-a-uuid')).statusCode, 400);
    t.same((await staff('GET', '/v1/closures')).json().data, [], 'nothing half-written');
  });

  t.test('closing one slot: listed bookings are kept, the slot takes no more, and reopening frees it', async (t) => {
    const date = inDays(4);
    const kept = (await book({ date, time: '09:00', name: 'Already Booked' })).json().booking;
    const closed = await staff('POST', '/v1/closures', { date, time: '09:00', reason: '  Van at the mechanic  ' });
    t.equal(closed.statusCode, 201);
    const closure = closed.json();
    t.match(closure, { id: String, date, time: '09:00', reason: 'Van at the mechanic', createdBy: 'Sam', createdAt: String });
    t.same(closure.affectedBookings.map((b: { _id: string; status: string }) => [b._id, b.status]), [[kept._id, 'pending']], 'the booking in the slot is listed, not cancelled');

    t.match(closure, { from: '09:00', to: '10:00', kind: null, resourceId: null }, 'one hour is the range of that hour, for both kinds');
    t.match(await slotAt(date, '09:00'), { remaining: 0, available: false, reason: 'closed' });
    t.match(await slotAt(date, '09:00', 'dropoff'), { remaining: 0, available: false, reason: 'closed' }, 'for the bays too');
    t.match(await slotAt(date, '08:00'), { remaining: 0, available: false, reason: 'closed' }, 'a job from 08:00 would run into the closed hour');
    t.match(await slotAt(date, '10:00'), { remaining: 1, available: true }, 'from 10:00 one van is free (the other is still on the kept job and its travel)');
    t.notMatch(JSON.stringify(await availability(date)), /mechanic/, "staff's reason is never public");

    const refused = await book({ date, time: '09:00', name: 'Too Late' });
    t.equal(refused.statusCode, 409);
    t.same(refused.json(), { message: MESSAGES.slotClosed, errors: [{ field: 'time', message: MESSAGES.slotClosed }] });
    t.equal((await book({ date, time: '11:00', name: 'Later' })).statusCode, 201, 'a time clear of the closure is booked (on the van the kept job frees first)');

    const again = await staff('POST', '/v1/closures', { date, time: '09:00', reason: 'Twice' });
    t.equal(again.statusCode, 409);
    t.match(again.json(), { message: 'This time is already closed', errors: [{ field: 'from' }] });

    const listed = (await staff('GET', `/v1/closures?from=${date}&to=${date}`)).json();
    t.match(listed, { data: [{ id: closure.id, date, time: '09:00', reason: 'Van at the mechanic', activeBookings: 1 }] });

    t.equal((await staff('DELETE', `/v1/closures/${closure.id}`)).statusCode, 204);
    t.match(await slotAt(date, '09:00'), { remaining: 1, available: true, reason: null }, 'the other van');
    t.equal((await staff('DELETE', `/v1/closures/${closure.id}`)).statusCode, 404);
    t.equal((await book({ date, time: '09:00', name: 'After Reopening' })).statusCode, 201);
  });

  t.test('closing a whole date closes every slot; a slot of it cannot be closed again', async (t) => {
    const date = inDays(5);
    const rows = await app.db.insertInto('bookings').values([bookingRow({ date, time: '08:00' }), bookingRow({ date, time: '15:00', status: 'confirmed' }), bookingRow({ date, time: '16:00', status: 'cancelled' })]).returningAll().execute();
    const closed = await staff('POST', '/v1/closures', { date, time: null, reason: 'Public holiday' });
    t.equal(closed.statusCode, 201);
    t.match(closed.json(), { date, time: null, reason: 'Public holiday' });
    t.same(closed.json().affectedBookings.map((b: { _id: string }) => b._id), [rows[0]!.id, rows[1]!.id], 'the active bookings of the date, in schedule order; not the cancelled one');
    t.ok((await availability(date)).every((s) => !s.available && s.remaining === 0 && s.reason === 'closed'));
    t.ok((await quickSlots(date)).every((s) => !s.available && s.reason === 'closed'), 'for the vans');
    t.equal((await book({ date, time: '12:00' })).statusCode, 409);
    t.match((await staff('POST', '/v1/closures', { date, time: '12:00', reason: 'x' })).json(), { message: 'The whole date is already closed' });
    t.match((await staff('POST', '/v1/closures', { date, reason: 'x' })).json(), { message: 'This date is already closed', errors: [{ field: 'date' }] });
    const list = (await staff('GET', `/v1/closures?from=${date}&to=${date}`)).json().data;
    t.match(list, [{ time: null, activeBookings: 2 }]);
    t.equal((await staff('DELETE', `/v1/closures/${list[0].id}`)).statusCode, 204);
    t.ok((await availability(date)).every((s) => s.reason !== 'closed'), 'reopened');
  });

  t.test('a range closed for one van: the other takes the jobs; a range closed for a kind closes only that kind', async (t) => {
    const date = nextWeekday('tuesday', 30);
    const resources: { id: string; name: string }[] = (await staff('GET', '/v1/resources')).json().data;
    const [van1, van2] = ['Van 1', 'Van 2'].map((name) => resources.find((r) => r.name === name)!);
    const workshop = await staff('POST', '/v1/closures', { date, from: '12:00', to: '16:00', resourceId: van2!.id, reason: 'Van 2 in the workshop' });
    t.equal(workshop.statusCode, 201);
    t.match(workshop.json(), { date, time: null, from: '12:00', to: '16:00', kind: null, resourceId: van2!.id, affectedBookings: [] });
    t.match(await slotAt(date, '12:00'), { remaining: 1, available: true }, 'one van is free at noon');
    const first = await book({ date, time: '12:00', name: 'Noon Job' });
    t.equal(first.statusCode, 201);
    t.equal(first.json().booking.resourceId, van1!.id, 'on the van that is not in the workshop');
    const second = await book({ date, time: '12:00', name: 'Noon Too' });
    t.equal(second.statusCode, 409);
    t.equal(second.json().message, MESSAGES.slotFull);
    t.match(await slotAt(date, '11:00'), { remaining: 0, reason: 'full' }, "an 11:00 job would run into Van 1's job and Van 2's closure");
    t.match(await slotAt(date, '16:00'), { remaining: 2, available: true });

    const stocktake = await staff('POST', '/v1/closures', { date, from: '08:00', to: '10:00', kind: 'dropoff', reason: 'Stocktake' });
    t.equal(stocktake.statusCode, 201);
    t.match(stocktake.json(), { from: '08:00', to: '10:00', kind: 'dropoff', resourceId: null });
    t.match(await slotAt(date, '08:00', 'dropoff'), { available: false, reason: 'closed' });
    t.match(await slotAt(date, '10:00', 'dropoff'), { available: true, remaining: 2 });
    t.match(await slotAt(date, '08:00'), { available: true, remaining: 2 }, 'the vans work');
    const twice = await staff('POST', '/v1/closures', { date, from: '08:00', to: '10:00', kind: 'dropoff', reason: 'Again' });
    t.equal(twice.statusCode, 409);
    t.match(twice.json(), { message: CLOSURE_MESSAGES.duplicateSlot });

    const listed = (await staff('GET', `/v1/closures?from=${date}&to=${date}`)).json().data;
    t.match(listed, [
      { from: '08:00', to: '10:00', kind: 'dropoff', activeBookings: 0 },
      { from: '12:00', to: '16:00', resourceId: van2!.id, activeBookings: 0 },
    ]);
    for (const closure of listed) t.equal((await staff('DELETE', `/v1/closures/${closure.id}`)).statusCode, 204);
  });

  t.test('a closure racing bookings for its slot lists every booking that got in; the others are refused', async (t) => {
    const date = inDays(40);
    const [closure, ...answers] = await Promise.all([
      staff('POST', '/v1/closures', { date, time: '16:00', reason: 'Race' }),
      ...Array.from({ length: 4 }, (_, i) => book({ date, time: '16:00', name: `Racer ${i}` })),
    ]);
    t.equal(closure!.statusCode, 201);
    t.ok(answers.every((a) => a.statusCode === 201 || a.statusCode === 409), 'booked or refused, nothing else');
    const admitted = answers.filter((a) => a.statusCode === 201).map((a) => a.json().id as string);
    t.ok(admitted.length <= 2, 'never more jobs than vans');
    t.same(closure!.json().affectedBookings.map((b: { _id: string }) => b._id).sort(), admitted.sort(), 'each booking that got in is listed');
    await staff('DELETE', `/v1/closures/${closure!.json().id}`);
  });

  t.test('weekly closed days: a setting in the schedule, listing the bookings that fall on them', async (t) => {
    const sunday = nextWeekday('sunday', 8);
    const onSunday = (await book({ date: sunday, time: '11:00', name: 'Sunday Customer' })).json().booking;
    t.equal((await staff('PUT', '/v1/schedule/weekly-closed-days', { days: ['funday'] })).statusCode, 400);
    t.equal((await staff('PUT', '/v1/schedule/weekly-closed-days', { days: ['sunday', 'sunday'] })).statusCode, 400);
    t.equal((await staff('PUT', '/v1/schedule/weekly-closed-days', {})).statusCode, 400);

    const set = await staff('PUT', '/v1/schedule/weekly-closed-days', { days: ['sunday', 'monday'] });
    t.equal(set.statusCode, 200);
    t.same(set.json().days, ['monday', 'sunday'], 'in weekday order');
    t.ok(set.json().affectedBookings.some((b: { _id: string }) => b._id === onSunday._id), 'the Sunday booking is listed');
    t.ok(set.json().affectedBookings.every((b: { date: string }) => ['monday', 'sunday'].includes(weekdayOf(b.date))));
    t.same((await staff('GET', '/v1/schedule/weekly-closed-days')).json(), { days: ['monday', 'sunday'] });

    t.ok((await availability(sunday)).every((s) => !s.available && s.reason === 'closed'), 'every Sunday is closed');
    t.ok((await availability(nextWeekday('saturday', 8))).every((s) => s.reason !== 'closed'), 'Saturdays are not');
    const refused = await book({ date: nextWeekday('sunday', 15), time: '11:00' });
    t.equal(refused.statusCode, 409);
    t.equal(refused.json().message, MESSAGES.slotClosed);

    t.same((await staff('PUT', '/v1/schedule/weekly-closed-days', { days: [] })).json(), { days: [], affectedBookings: [] });
    t.ok((await availability(sunday)).every((s) => s.reason !== 'closed'), 'open again');
  });

  t.test('reopening a cancelled booking into a full or closed slot is refused; the same lock as a booking', async (t) => {
    const date = inDays(7);
    const first = (await book({ date, time: '11:00', name: 'First' })).json().booking;
    await book({ date, time: '11:00', name: 'Second' });
    const url = `/v1/bookings/${first._id}/status`;
    t.equal((await staff('POST', url, { status: 'cancelled', version: 1 })).statusCode, 200);
    t.match(await slotAt(date, '11:00'), { remaining: 1, available: true }, 'a cancelled booking frees its place');
    t.equal((await book({ date, time: '11:00', name: 'Third' })).statusCode, 201);

    const refused = await staff('POST', url, { status: 'pending', version: 2 });
    t.equal(refused.statusCode, 409);
    t.match(refused.json(), { message: REOPEN_MESSAGES.full, errors: [{ field: 'status', message: REOPEN_MESSAGES.full }] });
    const details = (await staff('GET', `/v1/bookings/${first._id}`)).json();
    t.match(details.booking, { status: 'cancelled', version: 2 }, 'unchanged');
    t.equal(details.history.length, 1, 'and nothing recorded');

    const closure = (await staff('POST', '/v1/closures', { date, time: '11:00', reason: 'Rain' })).json();
    const third = (await staff('GET', `/v1/bookings?date=${date}&q=third`)).json().data[0];
    t.equal((await staff('POST', `/v1/bookings/${third._id}/status`, { status: 'cancelled', version: 1 })).statusCode, 200);
    const closed = await staff('POST', url, { status: 'pending', version: 2 });
    t.equal(closed.statusCode, 409);
    t.match(closed.json(), { message: REOPEN_MESSAGES.closed });

    await staff('DELETE', `/v1/closures/${closure.id}`);
    const reopened = await staff('POST', url, { status: 'pending', version: 2 });
    t.equal(reopened.statusCode, 200, 'a place is free again');
    t.match(await slotAt(date, '11:00'), { remaining: 0, reason: 'full' });
  });
});
