/**
 * Issue 20, the staff half of the API: the vans and bays (resources), the working hours and the
 * travel buffer, the day and week of the schedule, and the staff move through the engine. Each
 * endpoint behind the staff session, in the OpenAPI document, its answers and the rows it wrote.
 * Both databases.
 */
import t from 'tap';
import { weekdayOf } from '../src/domain/availability.ts';
import { MESSAGES, SLOT_MESSAGES } from '../src/domain/messages.ts';
import { RESOURCE_BUSY_MESSAGE } from '../src/services/scheduling.service.ts';
import { RESOURCE_MESSAGES } from '../src/services/resources.service.ts';
import { SCHEDULE_MESSAGES } from '../src/services/staff-schedule.service.ts';
import { forEachBackend } from './helper.ts';
import { bookingRow, inDays, today } from './support/payloads.ts';
import { scheduleTestApp } from './support/schedule.ts';

/** The first date from `from` days ahead that falls on one of the weekdays. */
function nextWeekday(weekdays: string[], from: number): string {
  for (let n = from; ; n++) if (weekdays.includes(weekdayOf(inDays(n)))) return inDays(n);
}

const WORKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'];

interface Resource {
  id: string;
  name: string;
  kind: string;
  active: boolean;
  position: number;
}

forEachBackend(t, async (t, backend) => {
  const { app, cookie, staff, book } = await scheduleTestApp(t, backend);
  const patch = (url: string, payload: object, headers: Record<string, string> = { cookie }) => app.inject({ method: 'PATCH', url, headers, payload });
  const resourcesNow = async (): Promise<Resource[]> => (await staff('GET', '/v1/resources')).json().data;
  const named = async (name: string) => (await resourcesNow()).find((r) => r.name === name)!;
  const outboxKinds = async (bookingId: string) =>
    (await app.db.selectFrom('outbox_emails').select('kind').where('booking_id', '=', bookingId).execute()).map((row) => row.kind);

  t.test('the new endpoints are staff only, refuse other sites, and are documented with the session', async (t) => {
    const id = '00000000-0000-4000-8000-000000000000';
    const endpoints = [
      ['GET', '/v1/resources'],
      ['POST', '/v1/resources'],
      ['PATCH', `/v1/resources/${id}`],
      ['GET', '/v1/working-hours'],
      ['PUT', '/v1/working-hours/onsite'],
      ['PUT', '/v1/min-gap'],
      ['GET', '/v1/schedule'],
      ['GET', '/v1/schedule/week'],
      ['POST', `/v1/bookings/${id}/move`],
    ] as const;
    for (const [method, url] of endpoints) {
      const res = await app.inject({ method, url, ...(method === 'GET' ? {} : { payload: {} }) });
      t.equal(res.statusCode, 401, `${method} ${url}`);
      t.match(res.json(), { message: String, errors: [] });
    }
    for (const [method, url, body] of [
      ['POST', '/v1/resources', { name: 'Forged', kind: 'onsite' }],
      ['PATCH', `/v1/resources/${id}`, { active: false }],
      ['PUT', '/v1/working-hours/onsite', {}],
      ['PUT', '/v1/min-gap', { minutes: 0 }],
      ['POST', `/v1/bookings/${id}/move`, { version: 1, date: inDays(3), time: '10:00' }],
    ] as const) {
      const res = await app.inject({ method, url, payload: body, headers: { cookie, 'sec-fetch-site': 'cross-site' } });
      t.equal(res.statusCode, 403, `${method} ${url} from another site`);
    }
    t.equal((await resourcesNow()).length, 4, 'nothing forged was written');

    const doc = (await app.inject('/v1/openapi.json')).json();
    for (const [method, url] of endpoints) {
      const path = url.replace(id, '{id}').replace('/onsite', '/{kind}');
      const entry = doc.paths[path]?.[method.toLowerCase()];
      t.ok(entry, `${method} ${path} documented`);
      t.same(entry?.security, [{ staffSession: [] }], `${method} ${path} needs the session`);
    }
  });

  t.test('resources: the seeded vans and bays; add, rename, reorder; bad input is a 400 in the error shape', async (t) => {
    const seeded = await resourcesNow();
    t.same(
      seeded.map((r) => [r.name, r.kind, r.active]),
      [
        ['Van 1', 'onsite', true],
        ['Van 2', 'onsite', true],
        ['Bay 1', 'dropoff', true],
        ['Bay 2', 'dropoff', true],
      ],
    );

    const added = await staff('POST', '/v1/resources', { name: '  Van 3  ', kind: 'onsite' });
    t.equal(added.statusCode, 201);
    t.match(added.json(), { id: String, name: 'Van 3', kind: 'onsite', active: true, position: 4 });
    const row = await app.db.selectFrom('resources').selectAll().where('id', '=', added.json().id).executeTakeFirstOrThrow();
    t.match(row, { name: 'Van 3', kind: 'onsite', active: true, position: 4 }, 'stored');

    const cases: [object, number, string, string][] = [
      [{ name: 'van 3', kind: 'onsite' }, 409, 'name', RESOURCE_MESSAGES.nameTaken],
      [{ name: '   ', kind: 'onsite' }, 400, 'name', RESOURCE_MESSAGES.nameRequired],
      [{ name: 'x'.repeat(41), kind: 'onsite' }, 400, 'name', RESOURCE_MESSAGES.nameTooLong],
      [{ name: 'Truck', kind: 'truck' }, 400, 'kind', RESOURCE_MESSAGES.kindRequired],
      [{ name: 'Truck' }, 400, 'kind', 'This field is required'],
      [{ name: 'Truck', kind: 'onsite', colour: 'red' }, 400, 'colour', 'Unknown field'],
    ];
    for (const [body, status, field, message] of cases) {
      const res = await staff('POST', '/v1/resources', body);
      t.equal(res.statusCode, status, JSON.stringify(body));
      t.match(res.json(), { message: String, errors: [{ field, message }] }, JSON.stringify(body));
    }
    t.equal((await resourcesNow()).length, 5, 'none of those was stored');

    const renamed = await patch(`/v1/resources/${added.json().id}`, { name: 'Van Three', position: 0 });
    t.equal(renamed.statusCode, 200);
    t.match(renamed.json(), { name: 'Van Three', position: 0 });
    t.same((await resourcesNow()).slice(0, 2).map((r) => r.name), ['Van 1', 'Van Three'], 'a tie in position goes to the older one');
    t.equal((await patch(`/v1/resources/${added.json().id}`, { name: 'Bay 1' })).statusCode, 409, 'a taken name');
    t.equal((await patch(`/v1/resources/${added.json().id}`, { position: -1 })).statusCode, 400);
    t.equal((await patch('/v1/resources/00000000-0000-4000-8000-000000000000', { name: 'Ghost' })).statusCode, 404);
    t.equal((await patch('/v1/resources/not-a-uuid', { name: 'Ghost' })).statusCode, 400);

    const off = await patch(`/v1/resources/${added.json().id}`, { active: false, position: 4 });
    t.equal(off.statusCode, 200, 'a van without jobs can be deactivated');
    t.match(off.json(), { active: false, position: 4 });
    t.equal((await app.db.selectFrom('resources').select('active').where('id', '=', added.json().id).executeTakeFirstOrThrow()).active, false);
  });

  t.test('deactivating a van that holds upcoming jobs is refused, listing them, until they are moved', async (t) => {
    const date = inDays(6);
    const job = (await book({ date, time: '09:00', name: 'Holds Van 1', service: 'Quick Clean', vehicleType: 'sm', selectedVehicleType: 'sm' })).json().booking;
    const van1 = await named('Van 1');
    t.equal(job.resourceId, van1.id, 'the first van takes the first job');

    const refused = await patch(`/v1/resources/${van1.id}`, { active: false });
    t.equal(refused.statusCode, 409);
    t.match(refused.json(), { message: RESOURCE_MESSAGES.holdsJobs, errors: [{ field: 'active', message: RESOURCE_MESSAGES.holdsJobs }] });
    t.same(refused.json().bookings.map((b: { _id: string }) => b._id), [job._id], 'the job it holds is listed');
    t.equal((await named('Van 1')).active, true, 'still active');

    const van2 = await named('Van 2');
    const moved = await staff('POST', `/v1/bookings/${job._id}/move`, { version: job.version, date, time: '09:00', resourceId: van2.id });
    t.equal(moved.statusCode, 200, 'moved to the other van');
    const off = await patch(`/v1/resources/${van1.id}`, { active: false });
    t.equal(off.statusCode, 200, 'then deactivated');
    const last = await patch(`/v1/resources/${van2.id}`, { active: false });
    t.equal(last.statusCode, 409, 'not while it holds the moved job');
    t.equal((await patch(`/v1/resources/${van1.id}`, { active: true })).statusCode, 200, 'reactivated');
  });

  t.test('working hours: the defaults, a week set per kind listing the jobs now outside, and the travel buffer', async (t) => {
    const hours = (await staff('GET', '/v1/working-hours')).json();
    t.same(hours.onsite.monday, { opens: '07:00', closes: '21:00' });
    t.same(hours.onsite.sunday, { opens: '07:00', closes: '21:00' });
    t.same(hours.dropoff.friday, { opens: '08:00', closes: '18:00' });
    t.same(hours.dropoff.saturday, { opens: '09:00', closes: '17:00' });
    t.equal(hours.dropoff.sunday, null);
    t.equal(hours.minGapMinutes, 15, 'the least gap between two jobs of a van, by default');

    const saturday = nextWeekday(['saturday'], 2);
    const job = (await book({ date: saturday, time: '10:00', serviceType: 'dropoff', name: 'Saturday Drop', service: 'Quick Clean', vehicleType: 'sm', selectedVehicleType: 'sm' })).json().booking;
    t.ok(job?._id, 'a Saturday drop-off is booked');
    const week = { ...hours.dropoff, saturday: null };
    const set = await staff('PUT', '/v1/working-hours/dropoff', week);
    t.equal(set.statusCode, 200);
    t.equal(set.json().hours.saturday, null);
    t.same(set.json().hours.monday, { opens: '08:00', closes: '18:00' });
    t.same(set.json().outside.map((b: { _id: string }) => b._id), [job._id], 'the Saturday job is listed, not moved');
    t.equal((await app.db.selectFrom('working_hours').selectAll().where('kind', '=', 'dropoff').where('weekday', '=', 6).execute()).length, 0, 'no Saturday row');
    t.match((await staff('GET', `/v1/bookings/${job._id}`)).json().booking, { status: 'pending', date: saturday, time: '10:00', resourceId: job.resourceId });

    for (const [body, field] of [
      [{ monday: { opens: '06:00', closes: '18:00' } }, 'monday.opens'],
      [{ monday: { opens: '10:00', closes: '22:00' } }, 'monday.closes'],
      [{ monday: { opens: '12:00', closes: '10:00' } }, 'monday.closes'],
      [{ funday: null }, 'funday'],
    ] as const) {
      const res = await staff('PUT', '/v1/working-hours/dropoff', body);
      t.equal(res.statusCode, 400, JSON.stringify(body));
      t.match(res.json(), { message: String, errors: [{ field }] }, JSON.stringify(body));
    }
    t.equal((await staff('PUT', '/v1/working-hours/trucks', {})).statusCode, 400, 'an unknown kind');
    t.same((await staff('GET', '/v1/working-hours')).json().dropoff.monday, { opens: '08:00', closes: '18:00' }, 'nothing half-written');
    t.equal((await staff('PUT', '/v1/working-hours/dropoff', hours.dropoff)).statusCode, 200, 'restored');

    const buffer = await staff('PUT', '/v1/min-gap', { minutes: 45 });
    t.equal(buffer.statusCode, 200);
    t.same(buffer.json(), { minutes: 45 });
    t.equal((await staff('GET', '/v1/working-hours')).json().minGapMinutes, 45);
    for (const minutes of [-1, 241, 1.5]) {
      const res = await staff('PUT', '/v1/min-gap', { minutes });
      t.equal(res.statusCode, 400, String(minutes));
      t.match(res.json(), { errors: [{ field: 'minutes' }] });
    }
    const placed = (await book({ date: inDays(9), time: '15:00', name: 'New Buffer', service: 'Quick Clean', vehicleType: 'sm', selectedVehicleType: 'sm' })).json().booking;
    t.equal(placed.bufferMinutes, 45, 'a job placed now gets the new buffer');
    t.equal((await staff('PUT', '/v1/min-gap', { minutes: 30 })).statusCode, 200);
  });

  t.test('the day: a lane per van and bay with its jobs and closures, kind-wide closures, and the jobs needing a van or bay', async (t) => {
    const date = nextWeekday(WORKDAYS, 12);
    const quick = { service: 'Quick Clean', vehicleType: 'sm', selectedVehicleType: 'sm' };
    const first = (await book({ ...quick, date, time: '09:00', name: 'First Van Job' })).json().booking;
    const second = (await book({ ...quick, date, time: '09:00', name: 'Second Van Job' })).json().booking;
    const bay = (await book({ ...quick, date, time: '10:00', serviceType: 'dropoff', name: 'Bay Job' })).json().booking;
    const van2 = await named('Van 2');
    const workshop = (await staff('POST', '/v1/closures', { date, from: '12:00', to: '16:00', resourceId: van2.id, reason: 'Workshop' })).json();
    const holiday = (await staff('POST', '/v1/closures', { date, from: '17:00', to: '18:00', kind: 'dropoff', reason: 'Stocktake' })).json();
    const [stray] = await app.db.insertInto('bookings').values([bookingRow({ date: inDays(2), time: '11:00', name: 'Needs A Van' })]).returningAll().execute();
    await app.db.insertInto('bookings').values([bookingRow({ date: inDays(2), time: '12:00', name: 'Cancelled Stray', status: 'cancelled' })]).execute();

    const res = await staff('GET', `/v1/schedule?date=${date}`);
    t.equal(res.statusCode, 200);
    const day = res.json();
    t.equal(day.date, date);
    t.same(day.hours, { onsite: { opens: '07:00', closes: '21:00' }, dropoff: { opens: '08:00', closes: '18:00' } });
    t.equal(day.weeklyClosed, false);
    const lanes = Object.fromEntries(day.lanes.map((l: { resource: Resource; jobs: { name: string }[]; closures: { id: string }[] }) => [l.resource.name, l]));
    t.same(Object.keys(lanes), ['Van 1', 'Van 2', 'Bay 1', 'Bay 2'], 'active ones, in order');
    t.same(lanes['Van 1'].jobs.map((j: { _id: string }) => j._id), [first._id]);
    t.same(lanes['Van 2'].jobs.map((j: { _id: string }) => j._id), [second._id]);
    t.match(lanes['Van 2'].jobs[0], { startsAt: second.startsAt, endsAt: second.endsAt, bufferMinutes: 30 });
    t.same(lanes['Van 2'].closures.map((c: { id: string }) => c.id), [workshop.id], "the van's own closure is in its lane");
    t.same(lanes['Bay 1'].jobs.map((j: { _id: string }) => j._id), [bay._id]);
    t.same(day.closures.map((c: { id: string }) => c.id), [holiday.id], 'the drop-off closure is kind-wide');
    t.match(day.closures[0], { kind: 'dropoff', from: '17:00', to: '18:00' });
    t.same(day.unassigned.map((b: { _id: string }) => b._id), [stray!.id], 'the job holding no van, not the cancelled one');

    t.equal((await staff('GET', '/v1/schedule?date=2026-02-30')).statusCode, 400);
    t.match((await staff('GET', '/v1/schedule?date=soon')).json(), { message: String, errors: [{ field: String }] });
    t.equal((await staff('GET', '/v1/schedule?day=today')).statusCode, 400);
    t.equal((await staff('GET', '/v1/schedule')).json().date, today, 'today by default');

    const week = await staff('GET', `/v1/schedule/week?from=${date}`);
    t.equal(week.statusCode, 200);
    const body = week.json();
    t.equal(body.dates.length, 7);
    t.same([body.from, body.to], [date, body.dates[6]]);
    const van1Row = body.rows.find((r: { resource: Resource }) => r.resource.name === 'Van 1');
    t.same(van1Row.days[0], { date, jobs: 1, bookedMinutes: 60, openMinutes: 14 * 60 });
    const bayRow = body.rows.find((r: { resource: Resource }) => r.resource.name === 'Bay 1');
    t.match(bayRow.days[0], { jobs: 1, bookedMinutes: 60, openMinutes: 10 * 60 });
    const strays = (await staff('GET', `/v1/schedule/week?from=${inDays(2)}`)).json().unassigned;
    t.same(strays[0], { date: inDays(2), jobs: 1 });
    t.equal((await staff('GET', '/v1/schedule/week?from=tomorrow')).statusCode, 400);
  });

  t.test('a staff move: through the engine, recorded with the vans, e-mailed; refusals give the reason', async (t) => {
    const date = inDays(15);
    const quick = { service: 'Quick Clean', vehicleType: 'sm', selectedVehicleType: 'sm' };
    const a = (await book({ ...quick, date, time: '09:00', name: 'Job A', email: 'a@example.com' })).json().booking;
    const b = (await book({ ...quick, date, time: '09:00', name: 'Job B', email: 'b@example.com' })).json().booking;
    const van1 = await named('Van 1');
    const van2 = await named('Van 2');
    t.same([a.resourceId, b.resourceId], [van1.id, van2.id]);
    const move = (id: string, body: object) => staff('POST', `/v1/bookings/${id}/move`, body);

    const overlap = await move(a._id, { version: 1, date, time: '09:00', resourceId: van2.id });
    t.equal(overlap.statusCode, 409, 'Van 2 is busy then');
    t.same(overlap.json(), { message: RESOURCE_BUSY_MESSAGE, errors: [{ field: 'time', message: RESOURCE_BUSY_MESSAGE }] });
    const buffer = await move(a._id, { version: 1, date, time: '10:00', resourceId: van2.id });
    t.equal(buffer.statusCode, 409, "10:00 is inside Van 2's travel buffer (09:00-10:00 + 30 min)");

    const c = (await book({ ...quick, date, time: '13:00', name: 'Job C', email: 'c@example.com' })).json().booking;
    const full = await move(c._id, { version: 1, date, time: '09:00' });
    t.equal(full.statusCode, 409, 'both vans are busy at 09:00');
    t.same(full.json(), { message: MESSAGES.slotFull, errors: [{ field: 'time', message: MESSAGES.slotFull }] });
    const late = await move(c._id, { version: 1, date, time: '20:00' });
    t.equal(late.statusCode, 200, 'an hour-long job fits at 20:00 (it ends at 21:00; the buffer may run past closing)');
    const deluxe = (await book({ service: 'Deluxe Clean', vehicleType: 'mid', selectedVehicleType: 'mid', date, time: '14:00', name: 'Long Job', email: 'd@example.com' })).json().booking;
    const closing = await move(deluxe._id, { version: 1, date, time: '19:00' });
    t.equal(closing.statusCode, 409);
    t.equal(closing.json().message, SLOT_MESSAGES.endsAfterClosing);
    const closure = (await staff('POST', '/v1/closures', { date: inDays(16), reason: 'Holiday' })).json();
    t.equal((await move(deluxe._id, { version: 1, date: inDays(16), time: '09:00' })).json().message, MESSAGES.slotClosed);
    await staff('DELETE', `/v1/closures/${closure.id}`);
    t.same(
      (await app.db.selectFrom('bookings').select(['date', 'time', 'version']).where('id', '=', deluxe._id).executeTakeFirstOrThrow()),
      { date, time: '14:00', version: 1 },
      'refusals change nothing',
    );

    const before = await outboxKinds(a._id);
    const moved = await move(a._id, { version: 1, date: inDays(16), time: '11:00', resourceId: van2.id });
    t.equal(moved.statusCode, 200);
    t.match(moved.json().booking, { _id: a._id, date: inDays(16), time: '11:00', resourceId: van2.id, version: 2, status: 'pending' });
    t.match(moved.json().history.at(-1), {
      by: 'Sam',
      from: 'pending',
      to: 'pending',
      move: { from: { date, time: '09:00', resourceId: van1.id }, to: { date: inDays(16), time: '11:00', resourceId: van2.id } },
    });
    const row = await app.db.selectFrom('bookings').selectAll().where('id', '=', a._id).executeTakeFirstOrThrow();
    t.match(row, { date: inDays(16), time: '11:00', resource_id: van2.id, version: 2 });
    t.equal(row.ends_at.getTime() - row.starts_at.getTime(), 60 * 60_000, 'it keeps its duration');
    const change = await app.db.selectFrom('booking_status_changes').selectAll().where('booking_id', '=', a._id).executeTakeFirstOrThrow();
    t.match(change, { from_date: date, from_time: '09:00', to_date: inDays(16), to_time: '11:00', from_resource_id: van1.id, to_resource_id: van2.id, changed_by: 'Sam' });
    const after = await outboxKinds(a._id);
    t.equal(after.filter((k) => k === 'booking-moved').length - before.filter((k) => k === 'booking-moved').length, 1, "the customer's moved e-mail is queued");

    const stale = await move(a._id, { version: 1, date: inDays(16), time: '12:00' });
    t.equal(stale.statusCode, 409, 'a second tab that saw version 1');
    t.match(stale.json(), { message: /changed by someone else/, booking: { version: 2, time: '11:00' } });
    const same = await move(a._id, { version: 2, date: inDays(16), time: '11:00' });
    t.equal(same.statusCode, 400);
    t.match(same.json(), { message: SCHEDULE_MESSAGES.nothingChanged });
    const other = await move(a._id, { version: 2, date: inDays(16), time: '11:00', resourceId: van1.id });
    t.equal(other.statusCode, 200, 'only the van changes');
    t.equal((await outboxKinds(a._id)).filter((k) => k === 'booking-moved').length, after.filter((k) => k === 'booking-moved').length, 'no e-mail: the customer sees no change');

    const bay1 = await named('Bay 1');
    t.match((await move(a._id, { version: 3, date, time: '15:00', resourceId: bay1.id })).json(), { errors: [{ field: 'resourceId' }] }, 'a van job cannot take a bay');
    for (const [body, field] of [
      [{ version: 3, date: inDays(-1), time: '10:00' }, 'date'],
      [{ version: 3, date: '2026-02-30', time: '10:00' }, 'date'],
      [{ version: 3, date: inDays(400), time: '10:00' }, 'date'],
      [{ version: 3, date, time: '21:00' }, 'time'],
      [{ version: 3, date, time: '10:30' }, 'time'],
      [{ version: 3, date }, 'time'],
      [{ version: 0, date, time: '10:00' }, 'version'],
    ] as const) {
      const res = await move(a._id, body);
      t.equal(res.statusCode, 400, JSON.stringify(body));
      t.match(res.json(), { message: String, errors: [{ field }] }, JSON.stringify(body));
    }
    t.equal((await move('00000000-0000-4000-8000-000000000000', { version: 1, date, time: '10:00' })).statusCode, 404);

    t.equal((await staff('POST', `/v1/bookings/${b._id}/status`, { status: 'cancelled', version: 1 })).statusCode, 200);
    const cancelled = await move(b._id, { version: 2, date, time: '15:00' });
    t.equal(cancelled.statusCode, 409);
    t.match(cancelled.json(), { message: SCHEDULE_MESSAGES.notPlaced });

    const today0 = await move(c._id, { version: 2, date: today, time: '20:00' });
    t.equal(today0.statusCode, 200, 'staff may move a job to today, before the customer window');
  });

  t.test('a job that holds no van is given one at its own time, with no e-mail', async (t) => {
    const [stray] = await app.db.insertInto('bookings').values([bookingRow({ date: inDays(20), time: '10:00', name: 'Overbooked' })]).returningAll().execute();
    const res = await staff('POST', `/v1/bookings/${stray!.id}/move`, { version: 1, date: inDays(20), time: '10:00' });
    t.equal(res.statusCode, 200);
    t.equal(res.json().booking.resourceId, (await named('Van 1')).id);
    t.same(await outboxKinds(stray!.id), []);
    t.notOk((await staff('GET', '/v1/schedule')).json().unassigned.some((b: { _id: string }) => b._id === stray!.id), 'no longer needs one');
  });
});
