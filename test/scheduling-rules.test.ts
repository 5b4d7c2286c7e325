/**
 * Issue 20's cases, through the API on both backends: the six-job day on two vans is refused after
 * the second job; a job that would end after closing, a drop-off outside the drop-off hours and on a
 * Sunday are refused with their reasons; Auckland's daylight-saving days store the right instants;
 * back-to-back jobs (one ends, plus its least gap, exactly when the next starts) both fit on one
 * van; and the migration's legacy path gives bookings taken under the old hourly rule resources in
 * creation order, leaving the one that cannot fit without.
 */
import { sql } from 'kysely';
import t from 'tap';
import type { App } from '../src/app.ts';
import { weekdayOf } from '../src/domain/availability.ts';
import { addDaysToDay } from '../src/domain/booking-dates.ts';
import { MESSAGES, SLOT_MESSAGES } from '../src/domain/messages.ts';
import { seedResources } from '../src/services/resources.service.ts';
import { buildTestApp, forEachBackend, login } from './helper.ts';
import { bookingRow, inDays, originalClientPayload } from './support/payloads.ts';

/** The first date from `from` on that falls on `weekday`. */
function nextWeekday(from: string, weekday: string): string {
  let day = from;
  while (weekdayOf(day) !== weekday) day = addDaysToDay(day, 1);
  return day;
}

let emails = 0;
/** A booking with an e-mail address of its own (the cap of upcoming bookings per address never interferes). */
function payload(overrides: Record<string, unknown>) {
  emails += 1;
  return originalClientPayload({ email: `rules.${emails}@example.co.nz`, name: `Rules Customer ${emails}`, ...overrides });
}

const CERAMIC_1Y = { service: 'Ceramic Coating', coatingType: 'coat1', vehicleType: 'mid', selectedVehicleType: 'Sedan' };
const CERAMIC_3Y = { service: 'Ceramic Coating', coatingType: 'coat2', vehicleType: 'mid', selectedVehicleType: 'Sedan' };
const ULTIMATE = { service: 'Ultimate Clean', coatingType: '', vehicleType: 'mid', selectedVehicleType: 'mid' };
const QUICK_SMALL = { service: 'Quick Clean', coatingType: '', vehicleType: 'sm', selectedVehicleType: 'sm' };
const EXPRESS_SMALL = { service: 'Express Clean', coatingType: '', vehicleType: 'sm', selectedVehicleType: 'sm' };
const DELUXE_SUV = { service: 'Deluxe Clean', coatingType: '', vehicleType: 'suv', selectedVehicleType: 'suv' };

async function book(app: App, overrides: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: '/v1/create-booking', payload: payload(overrides) });
}

interface StoredPlace {
  id: string;
  resource_id: string | null;
  starts_at: string;
  ends_at: string;
  held_from: string;
  held_to: string;
  buffer_minutes: number;
}

/** The stored place of a booking, instants as ISO text in UTC. */
async function placeOf(app: App, id: string): Promise<StoredPlace> {
  const { rows } = await sql<StoredPlace>`
    select id, resource_id, buffer_minutes,
      to_char(starts_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as starts_at,
      to_char(ends_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as ends_at,
      to_char(lower(held) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as held_from,
      to_char(upper(held) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as held_to
    from bookings where id = ${id}::uuid`.execute(app.db);
  return rows[0]!;
}

async function resourceIds(app: App, kind: 'onsite' | 'dropoff'): Promise<string[]> {
  const rows = await app.db.selectFrom('resources').select('id').where('kind', '=', kind).orderBy('position').execute();
  return rows.map((r) => r.id);
}

forEachBackend(t, async (t, backend) => {
  t.test('two vans: two Ceramic Coatings at 09:00 are booked, then every Ultimate Clean at 10:00 and 11:00 is refused as full', async (t) => {
    const app = await buildTestApp(t, { backend });
    const date = inDays(4);
    const first = await book(app, { ...CERAMIC_1Y, date, time: '09:00' });
    const second = await book(app, { ...CERAMIC_1Y, date, time: '09:00' });
    t.equal(first.statusCode, 201, 'the first coating', { body: first.body });
    t.equal(second.statusCode, 201, 'the second coating', { body: second.body });
    for (const time of ['10:00', '10:00', '11:00', '11:00']) {
      const res = await book(app, { ...ULTIMATE, date, time });
      t.equal(res.statusCode, 409, `Ultimate Clean at ${time} refused`);
      t.equal(res.json().message, MESSAGES.slotFull, 'as full');
      t.same(res.json().errors, [{ field: 'time', message: MESSAGES.slotFull }]);
    }
    const places = await Promise.all([first.json().id, second.json().id].map((id: string) => placeOf(app, id)));
    t.not(places[0]!.resource_id, null);
    t.not(places[1]!.resource_id, null);
    t.not(places[0]!.resource_id, places[1]!.resource_id, 'one van each');
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from bookings where "date" = ${date}`.execute(app.db);
    t.equal(rows[0]!.n, 2, 'two jobs stored for the day, not six');
    const slots = (await app.inject(`/v1/availability?date=${date}&service=Ultimate%20Clean&vehicleType=mid&serviceType=onsite`)).json().slots;
    t.match(slots.find((s: { time: string }) => s.time === '10:00'), { available: false, remaining: 0, reason: 'full' }, 'availability agrees');
  });

  t.test('a job that would end after closing is refused with its reason; one that ends at closing is booked', async (t) => {
    const app = await buildTestApp(t, { backend });
    const date = inDays(5);
    const late = await book(app, { ...CERAMIC_1Y, date, time: '20:00' });
    t.equal(late.statusCode, 409);
    t.equal(late.json().message, SLOT_MESSAGES.endsAfterClosing);
    const threeYears = await book(app, { ...CERAMIC_3Y, date, time: '14:00' });
    t.equal(threeYears.statusCode, 409, 'eight hours from 14:00 end at 22:00, after 21:00');
    t.equal(threeYears.json().message, SLOT_MESSAGES.endsAfterClosing);
    const atClosing = await book(app, { ...CERAMIC_3Y, date, time: '13:00' });
    t.equal(atClosing.statusCode, 201, 'eight hours from 13:00 end at 21:00, closing time (the buffer may run past)');
    const place = await placeOf(app, atClosing.json().id);
    t.equal(place.buffer_minutes, 15, 'held for the least gap after the work');
    const slots = (await app.inject(`/v1/availability?date=${date}&service=Ceramic%20Coating&vehicleType=mid&coatingType=coat1&serviceType=onsite`)).json().slots;
    t.match(slots.find((s: { time: string }) => s.time === '20:00'), { available: false, reason: 'ends-after-closing' });
  });

  t.test('drop-offs only inside the drop-off hours: 07:00, 19:00 and Sunday are refused, 08:00 and 17:00 are booked', async (t) => {
    const app = await buildTestApp(t, { backend });
    const monday = nextWeekday(inDays(2), 'monday');
    const saturday = nextWeekday(inDays(2), 'saturday');
    const sunday = nextWeekday(inDays(2), 'sunday');
    const dropoff = (date: string, time: string, job = QUICK_SMALL) => book(app, { ...job, serviceType: 'dropoff', date, time });

    for (const [date, time, why] of [
      [monday, '07:00', 'before the bays open on a weekday'],
      [monday, '19:00', 'after the bays close on a weekday'],
      [saturday, '08:00', 'before the bays open on a Saturday'],
      [sunday, '10:00', 'on a Sunday'],
    ] as const) {
      const res = await dropoff(date, time);
      t.equal(res.statusCode, 409, `${date} ${time}: ${why}`);
      t.equal(res.json().message, SLOT_MESSAGES.outsideHours, 'outside the hours');
    }
    const tooLong = await dropoff(monday, '16:00', DELUXE_SUV);
    t.equal(tooLong.statusCode, 409, 'four hours from 16:00 end after 18:00');
    t.equal(tooLong.json().message, SLOT_MESSAGES.endsAfterClosing);
    t.equal((await dropoff(monday, '08:00')).statusCode, 201, 'weekday opening');
    t.equal((await dropoff(monday, '17:00')).statusCode, 201, 'one hour before the weekday closing');
    t.equal((await dropoff(saturday, '09:00')).statusCode, 201, 'Saturday opening');
    t.equal((await book(app, { ...QUICK_SMALL, serviceType: 'onsite', date: sunday, time: '07:00' })).statusCode, 201, 'vans work on Sundays from 07:00');

    const sundaySlots = (await app.inject(`/v1/availability?date=${sunday}&service=Quick%20Clean&vehicleType=sm&serviceType=dropoff`)).json().slots;
    t.ok(sundaySlots.every((s: { reason: string }) => s.reason === 'outside-hours'), 'Sunday offers no drop-off time');
  });

  t.test("Auckland's daylight-saving days store the right instants", async (t) => {
    let clock = new Date('2026-03-01T00:00:00Z');
    const app = await buildTestApp(t, { backend, now: () => clock });
    const cases = [
      // 2026-04-05: NZDT (+13) ends at 03:00; the working day is in NZST (+12).
      { date: '2026-04-04', time: '09:00', job: CERAMIC_3Y, startsAt: '2026-04-03T20:00:00Z', endsAt: '2026-04-04T04:00:00Z', heldTo: '2026-04-04T04:15:00Z', offset: '+13:00' },
      { date: '2026-04-05', time: '07:00', job: QUICK_SMALL, startsAt: '2026-04-04T19:00:00Z', endsAt: '2026-04-04T20:00:00Z', heldTo: '2026-04-04T20:15:00Z', offset: '+12:00' },
      { date: '2026-04-05', time: '09:00', job: CERAMIC_3Y, startsAt: '2026-04-04T21:00:00Z', endsAt: '2026-04-05T05:00:00Z', heldTo: '2026-04-05T05:15:00Z', offset: '+12:00' },
      // 2026-09-27: NZDT (+13) starts at 02:00.
      { date: '2026-09-26', time: '09:00', job: CERAMIC_3Y, startsAt: '2026-09-25T21:00:00Z', endsAt: '2026-09-26T05:00:00Z', heldTo: '2026-09-26T05:15:00Z', offset: '+12:00' },
      { date: '2026-09-27', time: '07:00', job: QUICK_SMALL, startsAt: '2026-09-26T18:00:00Z', endsAt: '2026-09-26T19:00:00Z', heldTo: '2026-09-26T19:15:00Z', offset: '+13:00' },
      { date: '2026-09-27', time: '09:00', job: CERAMIC_3Y, startsAt: '2026-09-26T20:00:00Z', endsAt: '2026-09-27T04:00:00Z', heldTo: '2026-09-27T04:15:00Z', offset: '+13:00' },
      { date: '2026-09-27', time: '13:00', job: CERAMIC_3Y, startsAt: '2026-09-27T00:00:00Z', endsAt: '2026-09-27T08:00:00Z', heldTo: '2026-09-27T08:15:00Z', offset: '+13:00' },
      // 2027-04-04: NZDT ends again.
      { date: '2027-04-04', time: '09:00', job: CERAMIC_3Y, startsAt: '2027-04-03T21:00:00Z', endsAt: '2027-04-04T05:00:00Z', heldTo: '2027-04-04T05:15:00Z', offset: '+12:00', clock: '2026-11-01T00:00:00Z' },
      { date: '2027-04-04', time: '13:00', job: CERAMIC_3Y, startsAt: '2027-04-04T01:00:00Z', endsAt: '2027-04-04T09:00:00Z', heldTo: '2027-04-04T09:15:00Z', offset: '+12:00', clock: '2026-11-01T00:00:00Z' },
    ];
    for (const c of cases) {
      if (c.clock) clock = new Date(c.clock);
      const res = await book(app, { ...c.job, date: c.date, time: c.time });
      t.equal(res.statusCode, 201, `${c.date} ${c.time} booked`, { body: res.body });
      if (res.statusCode !== 201) continue;
      t.match(await placeOf(app, res.json().id), { starts_at: c.startsAt, ends_at: c.endsAt, held_from: c.startsAt, held_to: c.heldTo }, `${c.date} ${c.time}`);
      const slots = (await app.inject(`/v1/availability?date=${c.date}&serviceType=onsite`)).json().slots;
      t.equal(slots.find((s: { time: string }) => s.time === c.time).startsAt, `${c.date}T${c.time}:00${c.offset}`, 'availability gives the same instant');
    }
    // The hours are wall time on these days too: eight hours from 14:00 end at 22:00.
    const tooLate = await book(app, { ...CERAMIC_3Y, date: '2027-04-04', time: '14:00' });
    t.equal(tooLate.statusCode, 409, 'and 14:00 ends after closing on that day too');
    t.equal(tooLate.json().message, SLOT_MESSAGES.endsAfterClosing);
  });

  t.test('back-to-back jobs, the next starting exactly when the one before ends plus its gap, both fit on one van or bay', async (t) => {
    const app = await buildTestApp(t, { backend });
    const cookie = await login(app);
    const date = nextWeekday(inDays(3), 'wednesday');
    const [van1, van2] = await resourceIds(app, 'onsite');
    const [bay1, bay2] = await resourceIds(app, 'dropoff');
    for (const resourceId of [van2, bay2]) {
      const closed = await app.inject({ method: 'POST', url: '/v1/closures', headers: { cookie }, payload: { date, resourceId, reason: 'In the workshop' } });
      t.equal(closed.statusCode, 201, 'Van 2 and Bay 2 closed for the day', { body: closed.body });
    }
    // Express Clean, small car: 90 minutes, plus a least gap set to 30 (longer than the drive
    // within Central Auckland): Van 1 is held 09:00-11:00.
    t.equal((await app.inject({ method: 'PUT', url: '/v1/min-gap', headers: { cookie }, payload: { minutes: 30 } })).statusCode, 200);
    const first = await book(app, { ...EXPRESS_SMALL, date, time: '09:00' });
    t.equal(first.statusCode, 201, 'Express Clean at 09:00', { body: first.body });
    const overlapping = await book(app, { ...EXPRESS_SMALL, date, time: '10:00' });
    t.equal(overlapping.statusCode, 409, 'inside the least gap');
    t.equal(overlapping.json().message, MESSAGES.slotFull);
    const next = await book(app, { ...EXPRESS_SMALL, date, time: '11:00' });
    t.equal(next.statusCode, 201, 'Express Clean at 11:00, when the first van is free again', { body: next.body });
    const [a, b] = await Promise.all([placeOf(app, first.json().id), placeOf(app, next.json().id)]);
    t.equal(a.resource_id, van1);
    t.equal(b.resource_id, van1);
    t.equal(a.held_to, b.held_from, 'the first is held up to the instant the second starts');

    // Drop-offs have no buffer: Quick Clean (60 minutes) at 09:00 and 10:00 on Bay 1.
    const drop1 = await book(app, { ...QUICK_SMALL, serviceType: 'dropoff', date, time: '09:00' });
    const drop2 = await book(app, { ...QUICK_SMALL, serviceType: 'dropoff', date, time: '10:00' });
    t.equal(drop1.statusCode, 201, 'drop-off at 09:00', { body: drop1.body });
    t.equal(drop2.statusCode, 201, 'drop-off at 10:00', { body: drop2.body });
    const [c, d] = await Promise.all([placeOf(app, drop1.json().id), placeOf(app, drop2.json().id)]);
    t.equal(c.resource_id, bay1);
    t.equal(d.resource_id, bay1);
    t.equal(c.buffer_minutes, 0);
    t.equal(c.ends_at, d.starts_at);
    t.equal(c.held_to, d.held_from);
  });

  t.test("the migration's legacy path: bookings of the old rule get resources in creation order; the one that cannot fit stays unassigned", async (t) => {
    const app = await buildTestApp(t, { backend });
    const date = inDays(6);
    // Three overlapping on-site jobs on two vans, written in another order than they were made.
    const made = ['2026-01-01T10:00:00Z', '2026-01-01T11:00:00Z', '2026-01-01T12:00:00Z'];
    const rows = [
      bookingRow({ name: 'Third', email: 'legacy.3@example.com', date, time: '10:00', service: 'Deluxe Clean', vehicle_type: 'sm', selected_vehicle_type: 'sm', buffer_minutes: 30 }),
      bookingRow({ name: 'First', email: 'legacy.1@example.com', date, time: '09:00', service: 'Deluxe Clean', vehicle_type: 'sm', selected_vehicle_type: 'sm', buffer_minutes: 30 }),
      bookingRow({ name: 'Second', email: 'legacy.2@example.com', date, time: '11:00', service: 'Deluxe Clean', vehicle_type: 'sm', selected_vehicle_type: 'sm', buffer_minutes: 30, status: 'confirmed' }),
    ];
    const createdAt = { Third: made[2]!, First: made[0]!, Second: made[1]! };
    const inserted = await app.db
      .insertInto('bookings')
      .values(rows.map((row) => ({ ...row, awaiting_first_placement: true })))
      .returning(['id', 'name'])
      .execute();
    for (const row of inserted) {
      await sql`update bookings set created_at = ${createdAt[row.name as keyof typeof createdAt]}::timestamptz where id = ${row.id}::uuid`.execute(app.db);
    }
    const result = await seedResources(app.db, { onsite: 2, dropoff: 2 });
    t.same(result, { created: 0, placed: 2, unplaced: 1 });
    const vans = await resourceIds(app, 'onsite');
    const after = await app.db.selectFrom('bookings').select(['name', 'resource_id', 'awaiting_first_placement']).where('date', '=', date).execute();
    const byName = Object.fromEntries(after.map((row) => [row.name, row]));
    t.ok(vans.includes(byName.First!.resource_id!), 'the first made gets a van');
    t.ok(vans.includes(byName.Second!.resource_id!), 'the second made gets a van');
    t.not(byName.First!.resource_id, byName.Second!.resource_id, 'each its own');
    t.equal(byName.Third!.resource_id, null, 'the last made, overlapping both, waits for staff');
    t.ok(after.every((row) => row.awaiting_first_placement === false), 'each tried once');
    t.same(await seedResources(app.db, { onsite: 2, dropoff: 2 }), { created: 0, placed: 0, unplaced: 0 }, 'a second start does nothing');
  });

  t.test('the database forbids what the engine refuses: an overlapping row on one van fails with 23P01', async (t) => {
    const app = await buildTestApp(t, { backend });
    const date = inDays(7);
    const [van1] = await resourceIds(app, 'onsite');
    await app.db.insertInto('bookings').values(bookingRow({ date, time: '09:00', resource_id: van1, buffer_minutes: 30 })).execute();
    const error = await app.db
      .insertInto('bookings')
      .values(bookingRow({ date, time: '10:00', resource_id: van1 }))
      .execute()
      .then(() => undefined, (e: unknown) => e as { code?: string });
    t.equal(error?.code, '23P01', 'exclusion_violation');
  });
});
