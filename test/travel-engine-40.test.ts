/**
 * Issue 40's engine cases through the API, on both backends: a job in a zone 90 minutes' drive
 * from the van's job before cannot start 60 minutes after it ends and can 120 minutes after, and
 * the same for the job after; availability gives the reason `travel`; a van named by staff that
 * cannot get there is refused with its own message; of two free vans the one with the nearer
 * neighbours gets the job; a change of the travel table moves nothing; and migration 034 on a
 * database holding on-site bookings inside and outside the area.
 */
import { sql } from 'kysely';
import t from 'tap';
import type { App } from '../src/app.ts';
import { MESSAGES } from '../src/domain/messages.ts';
import { openDatabase } from '../src/db/connect.ts';
import { migrateTo } from '../src/db/migrator.ts';
import { RESOURCE_TOO_FAR_MESSAGE } from '../src/services/scheduling.service.ts';
import { buildTestApp, createServerDatabase, forEachBackend, login } from './helper.ts';
import { bookingRow, nextWeekday, originalClientPayload } from './support/payloads.ts';

const QUICK = { service: 'Quick Clean', coatingType: '', vehicleType: 'sm', selectedVehicleType: 'sm' };
/** Postcodes of the default zones: Central Auckland (15 minutes from the centre) and the North Shore (25). */
const CENTRAL = '1010';
const NORTH_SHORE = '0622';

let emails = 0;
async function book(app: App, overrides: Record<string, unknown>) {
  emails += 1;
  return app.inject({
    method: 'POST',
    url: '/v1/create-booking',
    payload: originalClientPayload({ ...QUICK, email: `travel.${emails}@example.co.nz`, name: `Travel Customer ${emails}`, ...overrides }),
  });
}

async function zoneId(app: App, name: string): Promise<string> {
  return (await app.db.selectFrom('service_zones').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
}

async function setTravel(app: App, a: string, b: string, minutes: number): Promise<void> {
  const [za, zb] = [await zoneId(app, a), await zoneId(app, b)].sort();
  await sql`insert into zone_travel (zone_a, zone_b, minutes) values (${za}, ${zb}, ${minutes})
    on conflict (zone_a, zone_b) do update set minutes = excluded.minutes`.execute(app.db);
}

forEachBackend(t, async (t, backend) => {
  t.test('a job 90 minutes from the van’s job before cannot start 60 minutes after it ends, and can 120 minutes after', async (t) => {
    const app = await buildTestApp(t, { backend });
    const cookie = await login(app);
    // One van, so that the other cannot take the job instead.
    const vans = await app.db.selectFrom('resources').select(['id', 'name']).where('kind', '=', 'onsite').orderBy('position').execute();
    const off = await app.inject({ method: 'PATCH', url: `/v1/resources/${vans[1]!.id}`, headers: { cookie }, payload: { active: false } });
    t.equal(off.statusCode, 200, off.body);
    await setTravel(app, 'Central Auckland', 'North Shore', 90);
    const date = nextWeekday(3);

    const first = await book(app, { date, time: '09:00', postalCode: CENTRAL });
    t.equal(first.statusCode, 201, first.body);
    t.equal(first.json().booking.bufferMinutes, 15, 'held for the least gap after the work');

    const slots = (await app.inject(`/v1/availability?date=${date}&service=Quick+Clean&vehicleType=sm&serviceType=onsite&postalCode=${NORTH_SHORE}`)).json().slots;
    const at = (time: string) => slots.find((s: { time: string }) => s.time === time);
    t.match(at('11:00'), { available: false, reason: 'travel', remaining: 0 }, '60 minutes after the job in Central: the van cannot be there');
    t.match(at('12:00'), { available: true, reason: null, remaining: 1 }, '120 minutes after: it can');
    t.match(at('07:00'), { available: false, reason: 'travel' }, 'before it: 07:00-08:00 leaves 60 minutes to drive back to Central for 09:00');
    const central = (await app.inject(`/v1/availability?date=${date}&service=Quick+Clean&vehicleType=sm&serviceType=onsite&postalCode=${CENTRAL}`)).json().slots;
    t.match(central.find((s: { time: string }) => s.time === '10:00'), { available: false, reason: 'full' }, 'in the same zone 10:00 is still inside the least gap');
    t.match(central.find((s: { time: string }) => s.time === '11:00'), { available: true }, 'and 11:00 is a short drive away');

    const tooSoon = await book(app, { date, time: '11:00', postalCode: NORTH_SHORE });
    t.equal(tooSoon.statusCode, 409);
    t.same(tooSoon.json(), { message: MESSAGES.slotTravel, errors: [{ field: 'time', message: MESSAGES.slotTravel }] });
    t.equal((await book(app, { date, time: '12:00', postalCode: NORTH_SHORE })).statusCode, 201, 'two hours after: accepted');
    const rows = await app.db.selectFrom('bookings').select(['time', 'zone_id']).where('date', '=', date).orderBy('time').execute();
    t.same(
      rows.map((r) => r.time),
      ['09:00', '12:00'],
      'nothing was written for the refused job',
    );
    t.equal(rows[1]!.zone_id, await zoneId(app, 'North Shore'), 'the job holds its zone');

    // A van named by staff that cannot get there is refused with its own message while another could.
    const on = await app.inject({ method: 'PATCH', url: `/v1/resources/${vans[1]!.id}`, headers: { cookie }, payload: { active: true } });
    t.equal(on.statusCode, 200, on.body);
    const staffJob = await app.inject({
      method: 'POST',
      url: '/v1/bookings',
      headers: { cookie },
      payload: { ...originalClientPayload({ ...QUICK, date, time: '14:00', postalCode: CENTRAL, email: 'staff.named@example.co.nz' }), resourceId: vans[0]!.id },
    });
    t.equal(staffJob.statusCode, 409, staffJob.body);
    t.equal(staffJob.json().message, RESOURCE_TOO_FAR_MESSAGE, '12:00-13:00 on the North Shore leaves an hour, not 90 minutes');
  });

  t.test('of two free vans, the one whose neighbours are nearer gets the job', async (t) => {
    const app = await buildTestApp(t, { backend });
    const date = nextWeekday(4);
    // 09:00 in Central goes to Van 1 (first in order); the same time on the North Shore to Van 2.
    const central = await book(app, { date, time: '09:00', postalCode: CENTRAL });
    const shore = await book(app, { date, time: '09:00', postalCode: NORTH_SHORE });
    const vanOf = async (id: string) =>
      (await app.db.selectFrom('bookings').innerJoin('resources', 'resources.id', 'bookings.resource_id').select('resources.name').where('bookings.id', '=', id).executeTakeFirstOrThrow()).name;
    t.equal(await vanOf(central.json().id), 'Van 1');
    t.equal(await vanOf(shore.json().id), 'Van 2');
    // Both vans are free at 12:00 and leave it the same idle time: the drive decides.
    const nextOnShore = await book(app, { date, time: '12:00', postalCode: NORTH_SHORE });
    t.equal(await vanOf(nextOnShore.json().id), 'Van 2', 'the North Shore job follows the van already there');
    const nextInCentral = await book(app, { date, time: '12:00', postalCode: CENTRAL });
    t.equal(await vanOf(nextInCentral.json().id), 'Van 1', 'and the Central one the van in Central');
  });

  t.test('a change of the travel table moves nothing: the jobs stay where they were placed', async (t) => {
    const app = await buildTestApp(t, { backend });
    const date = nextWeekday(5);
    const first = await book(app, { date, time: '09:00', postalCode: CENTRAL });
    const second = await book(app, { date, time: '11:00', postalCode: NORTH_SHORE });
    t.equal(second.statusCode, 201);
    const before = await app.db.selectFrom('bookings').select(['id', 'resource_id', 'starts_at', 'zone_id', 'status']).orderBy('time').execute();
    await setTravel(app, 'Central Auckland', 'North Shore', 200);
    await sql`update service_zones set travel_fee_cents = 9900, active = false where name = 'North Shore'`.execute(app.db);
    const after = await app.db.selectFrom('bookings').select(['id', 'resource_id', 'starts_at', 'zone_id', 'status']).orderBy('time').execute();
    t.same(after, before, 'every booking where it was, with its zone');
    t.equal(first.json().quote.travelFeeCents, 0);
    const stored = await app.db.selectFrom('bookings').select(['travel_fee_cents', 'total_cents']).where('id', '=', second.json().id).executeTakeFirstOrThrow();
    t.same(stored, { travel_fee_cents: 0, total_cents: second.json().quote.totalCents }, 'and its price');
    const refused = await book(app, { date, time: '15:00', postalCode: NORTH_SHORE });
    t.equal(refused.statusCode, 400, 'a deactivated zone takes no new on-site booking');
    t.equal(refused.json().errors[0].field, 'postalCode');
  });

  t.test('migration 034 gives existing on-site bookings the zone of their postcode and leaves the rest where they are', async (t) => {
    // The migrations up to 033 on a database of its own, bookings as they stood, then 034.
    const url = backend === 'postgres' ? await createServerDatabase(t) : undefined;
    const handle = await openDatabase({ databaseUrl: url, dataDir: 'memory://', poolMax: 1, connectTimeoutMs: 10_000 }, console);
    t.teardown(() => handle.close());
    await migrateTo(handle.db, '033_customer_phone_search');
    const resource = (await sql<{ id: string }>`insert into resources (name, kind, position) values ('Van 1', 'onsite', 0) returning id`.execute(handle.db)).rows[0]!.id;
    const date = nextWeekday(2);
    const rows = [
      bookingRow({ name: 'Inside', postal_code: ' 1010 ', date, time: '09:00' }),
      bookingRow({ name: 'Hibiscus', postal_code: '0931', date, time: '12:00' }),
      bookingRow({ name: 'Christchurch', postal_code: '8011', region: 'Canterbury', city: 'Christchurch', date, time: '15:00' }),
      bookingRow({ name: 'Typed oddly', postal_code: 'AKL', date, time: '18:00' }),
      bookingRow({ name: 'Drop-off', service_type: 'dropoff', postal_code: '1010', date, time: '10:00' }),
    ].map((row) => ({ ...row, resource_id: row.service_type === 'onsite' ? resource : null, buffer_minutes: row.service_type === 'onsite' ? 30 : 0 }));
    await handle.db.insertInto('bookings').values(rows).execute();
    await sql`insert into settings (key, value) values ('travel_buffer_minutes', '45')`.execute(handle.db);
    const placedBefore = await handle.db.selectFrom('bookings').select(['name', 'resource_id', 'starts_at', 'ends_at', 'buffer_minutes', 'total_cents', 'status']).orderBy('name').execute();

    t.same(await migrateTo(handle.db, '034_service_area'), ['034_service_area']);
    const after = await handle.db
      .selectFrom('bookings')
      .leftJoin('service_zones', 'service_zones.id', 'bookings.zone_id')
      .select(['bookings.name', 'service_zones.name as zone', 'bookings.travel_fee_cents'])
      .orderBy('bookings.name')
      .execute();
    t.same(
      after.map((r) => [r.name, r.zone, r.travel_fee_cents]),
      [
        ['Christchurch', null, 0],
        ['Drop-off', null, 0],
        ['Hibiscus', 'Hibiscus Coast', 0],
        ['Inside', 'Central Auckland', 0],
        ['Typed oddly', null, 0],
      ],
      'the zone of each postcode; outside every zone or not a postcode: none; no fee on a price already quoted',
    );
    t.same(
      await handle.db.selectFrom('bookings').select(['name', 'resource_id', 'starts_at', 'ends_at', 'buffer_minutes', 'total_cents', 'status']).orderBy('name').execute(),
      placedBefore,
      'nothing moved, nothing cancelled, no total changed',
    );
    t.equal((await sql<{ n: number }>`select count(*)::int as n from settings where key = 'travel_buffer_minutes'`.execute(handle.db)).rows[0]!.n, 0, 'the flat buffer setting is gone');
    await t.rejects(
      sql`update bookings set travel_fee_cents = 500 where name = 'Drop-off'`.execute(handle.db),
      /bookings_travel_fee_onsite_only|bookings_total_is_lines/,
      'the database refuses a travel fee outside the total or on a drop-off',
    );
  });
});
