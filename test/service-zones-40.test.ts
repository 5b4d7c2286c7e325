/**
 * Issue 40, the staff half of the service area: the zones and the driving minutes between them,
 * edited through the API, and the days to re-plan. A change never moves or re-prices a booking
 * already taken. Both databases.
 */
import t from 'tap';
import { sql } from 'kysely';
import { parsePostcodes } from '../src/domain/service-area.ts';
import { sharedWith, ZONE_MESSAGES, zoneWriteConflict } from '../src/services/service-area.service.ts';
import { buildTestApp, forEachBackend, login } from './helper.ts';
import { nextWeekday, originalClientPayload } from './support/payloads.ts';

interface Zone {
  id: string;
  name: string;
  postcodes: string;
  ranges: { from: number; to: number }[];
  travelFeeCents: number;
  minutesFromCentre: number;
  active: boolean;
  position: number;
}

interface Pair {
  zoneA: string;
  zoneB: string;
  minutes: number;
  set: boolean;
}

forEachBackend(t, async (t, backend) => {
  const app = await buildTestApp(t, { backend });
  const cookie = await login(app);
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: object) =>
    app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  const zones = async (): Promise<Zone[]> => (await call('GET', '/v1/service-zones')).json().data;
  const zoneNamed = async (name: string) => (await zones()).find((z) => z.name === name)!;
  const pairOf = (pairs: Pair[], a: string, b: string) => pairs.find((p) => (p.zoneA === a && p.zoneB === b) || (p.zoneA === b && p.zoneB === a))!;

  t.test('anonymous requests are refused on every route', async (t) => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const [method, url] of [
      ['GET', '/v1/service-zones'],
      ['POST', '/v1/service-zones'],
      ['PATCH', `/v1/service-zones/${id}`],
      ['GET', '/v1/zone-travel'],
      ['PUT', '/v1/zone-travel'],
      ['GET', '/v1/schedule/travel-shortfalls'],
    ] as const) {
      const res = await app.inject({ method, url, ...(method === 'GET' ? {} : { payload: { name: 'Forged', postcodes: '9000', travelFeeCents: 0, minutesFromCentre: 0 } }) });
      t.equal(res.statusCode, 401, `${method} ${url}`);
      t.match(res.json(), { message: String, errors: [] });
    }
    t.equal((await zones()).length, 7, 'nothing forged was written');
  });

  t.test('the default zones, in order, with their postcodes as text and ranges', async (t) => {
    const list = await zones();
    t.same(
      list.map((z) => [z.name, z.postcodes, z.travelFeeCents, z.minutesFromCentre, z.active, z.position]),
      [
        ['Central Auckland', '1010-1072', 0, 15, true, 0],
        ['East Auckland', '2010-2016', 0, 20, true, 1],
        ['South Auckland', '2022-2025, 2102-2105, 2110-2113', 0, 25, true, 2],
        ['West Auckland', '0600-0618', 0, 25, true, 3],
        ['North Shore', '0620-0632', 0, 25, true, 4],
        ['Hibiscus Coast', '0930-0933', 2500, 45, true, 5],
        ['Franklin', '2120-2123', 3000, 50, true, 6],
      ],
    );
    t.same(list[0]!.ranges, [{ from: 1010, to: 1072 }]);
  });

  t.test('a zone is added at the end; an overlap with an active zone is refused naming it, and nothing is written', async (t) => {
    const created = await call('POST', '/v1/service-zones', { name: '  Waiheke Island ', postcodes: '1081, 1971-1971', travelFeeCents: 6000, minutesFromCentre: 90 });
    t.equal(created.statusCode, 201);
    t.match(created.json(), { name: 'Waiheke Island', postcodes: '1081, 1971', travelFeeCents: 6000, minutesFromCentre: 90, active: true, position: 7 });
    t.equal((await zones()).at(-1)!.name, 'Waiheke Island');

    const overlap = await call('POST', '/v1/service-zones', { name: 'Devonport', postcodes: '0624, 0700', travelFeeCents: 0, minutesFromCentre: 20 });
    t.equal(overlap.statusCode, 409);
    t.same(overlap.json(), { message: sharedWith('North Shore'), errors: [{ field: 'postcodes', message: 'Those postcodes are already in North Shore' }] });
    t.notOk((await zones()).some((z) => z.name === 'Devonport'), 'nothing written');

    const duplicate = await call('POST', '/v1/service-zones', { name: 'waiheke island', postcodes: '9000', travelFeeCents: 0, minutesFromCentre: 20 });
    t.equal(duplicate.statusCode, 409);
    t.same(duplicate.json().errors, [{ field: 'name', message: ZONE_MESSAGES.nameTaken }]);
  });

  t.test('bad input is a 400 naming each field; an unknown zone is a 404', async (t) => {
    const bad = await call('POST', '/v1/service-zones', { name: ' ', postcodes: '10x0', travelFeeCents: -1, minutesFromCentre: 241 });
    t.equal(bad.statusCode, 400);
    t.same(bad.json().errors, [
      { field: 'name', message: ZONE_MESSAGES.nameRequired },
      { field: 'postcodes', message: parsePostcodes('10x0') },
      { field: 'travelFeeCents', message: ZONE_MESSAGES.fee },
      { field: 'minutesFromCentre', message: ZONE_MESSAGES.minutes },
    ]);
    const backwards = await call('PATCH', `/v1/service-zones/${(await zoneNamed('Franklin')).id}`, { postcodes: '2130-2120' });
    t.same(backwards.json(), { message: 'The range 2130-2120 ends before it starts', errors: [{ field: 'postcodes', message: 'The range 2130-2120 ends before it starts' }] });
    t.equal((await call('PATCH', `/v1/service-zones/${(await zoneNamed('Franklin')).id}`, { name: 'x'.repeat(41) })).statusCode, 400);
    t.equal((await call('POST', '/v1/service-zones', { name: 'Fee as text', postcodes: '9000', travelFeeCents: '10', minutesFromCentre: 1 })).statusCode, 400);
    t.equal((await call('PATCH', '/v1/service-zones/not-an-id', { active: false })).statusCode, 400);
    const missing = await call('PATCH', '/v1/service-zones/00000000-0000-4000-8000-000000000000', { active: false });
    t.equal(missing.statusCode, 404);
    t.equal(missing.json().message, ZONE_MESSAGES.notFound);
    t.equal((await zoneNamed('Franklin')).postcodes, '2120-2123', 'nothing changed');
  });

  t.test("rename; a deactivated zone's postcodes may be taken by another; reactivating it then is refused", async (t) => {
    const franklin = await zoneNamed('Franklin');
    const renamed = await call('PATCH', `/v1/service-zones/${franklin.id}`, { name: 'Franklin District' });
    t.equal(renamed.statusCode, 200);
    t.equal(renamed.json().name, 'Franklin District');
    const clash = await call('PATCH', `/v1/service-zones/${franklin.id}`, { name: 'NORTH SHORE' });
    t.equal(clash.statusCode, 409);
    t.same(clash.json().errors, [{ field: 'name', message: ZONE_MESSAGES.nameTaken }]);

    t.equal((await call('PATCH', `/v1/service-zones/${franklin.id}`, { active: false })).json().active, false);
    const pukekohe = await call('POST', '/v1/service-zones', { name: 'Pukekohe', postcodes: '2120', travelFeeCents: 3500, minutesFromCentre: 55 });
    t.equal(pukekohe.statusCode, 201, "the inactive zone's postcode is free");
    const served = await app.inject('/v1/service-area?postalCode=2120');
    t.same(served.json(), { served: true, zone: { name: 'Pukekohe', travelFeeCents: 3500 }, message: 'We come to Pukekohe — travel fee $35.00' });

    const back = await call('PATCH', `/v1/service-zones/${franklin.id}`, { active: true });
    t.equal(back.statusCode, 409);
    t.same(back.json().errors, [{ field: 'active', message: sharedWith('Pukekohe') }]);
    const moved = await call('PATCH', `/v1/service-zones/${franklin.id}`, { active: true, postcodes: '2121-2123' });
    t.equal(moved.statusCode, 200, 'reactivated with the other postcodes');
    t.match(moved.json(), { active: true, postcodes: '2121-2123', name: 'Franklin District' });
  });

  t.test('a write the database refuses (a racing writer) is still a 409 naming the field', async (t) => {
    const raced = async (query: Promise<unknown>) => {
      try {
        await query;
      } catch (error) {
        return error;
      }
      throw new Error('the database accepted it');
    };
    const overlap = await raced(sql`INSERT INTO service_zones (name, postcodes, travel_fee_cents, minutes_from_centre, position) VALUES ('Racer', '{[1050,1051)}', 0, 10, 99)`.execute(app.db));
    const answer = await zoneWriteConflict(app.db, overlap, '{[1050,1051)}', undefined, 'postcodes');
    t.match(answer, { statusCode: 409, message: sharedWith('Central Auckland'), errors: [{ field: 'postcodes' }] });
    const name = await raced(sql`INSERT INTO service_zones (name, postcodes, travel_fee_cents, minutes_from_centre, position) VALUES ('CENTRAL auckland', '{[9000,9001)}', 0, 10, 99)`.execute(app.db));
    t.match(await zoneWriteConflict(app.db, name, undefined, undefined, 'postcodes'), { statusCode: 409, errors: [{ field: 'name', message: ZONE_MESSAGES.nameTaken }] });
  });

  t.test('travel: every pair with its default; set, reset; bad input refused', async (t) => {
    const central = await zoneNamed('Central Auckland');
    const east = await zoneNamed('East Auckland');
    const matrix = (await call('GET', '/v1/zone-travel')).json();
    const n = matrix.zones.length;
    t.equal(matrix.pairs.length, (n * (n + 1)) / 2, 'every pair once, each zone with itself');
    t.same(pairOf(matrix.pairs, central.id, east.id), { zoneA: central.id, zoneB: east.id, minutes: 35, set: false }, 'the sum of their minutes from the centre');
    t.match(pairOf(matrix.pairs, central.id, central.id), { minutes: 10, set: false }, 'within a zone: half, at least 10');

    const set = await call('PUT', '/v1/zone-travel', { zoneA: east.id, zoneB: central.id, minutes: 25 });
    t.equal(set.statusCode, 200);
    t.match(pairOf(set.json().pairs, central.id, east.id), { minutes: 25, set: true });
    t.equal((await app.db.selectFrom('zone_travel').selectAll().execute()).length, 1, 'one row, either way round');
    const reset = await call('PUT', '/v1/zone-travel', { zoneA: central.id, zoneB: east.id, minutes: null });
    t.match(pairOf(reset.json().pairs, central.id, east.id), { minutes: 35, set: false });
    t.equal((await app.db.selectFrom('zone_travel').selectAll().execute()).length, 0, 'the row is gone');

    const tooLong = await call('PUT', '/v1/zone-travel', { zoneA: central.id, zoneB: east.id, minutes: 241 });
    t.equal(tooLong.statusCode, 400);
    t.same(tooLong.json().errors, [{ field: 'minutes', message: ZONE_MESSAGES.minutes }]);
    const unknown = await call('PUT', '/v1/zone-travel', { zoneA: central.id, zoneB: '00000000-0000-4000-8000-000000000000', minutes: 20 });
    t.equal(unknown.statusCode, 400);
    t.same(unknown.json().errors, [{ field: 'zoneB', message: ZONE_MESSAGES.unknownZone }]);
  });

  t.test('a booking taken keeps its zone, fee and place when its zone changes or goes', async (t) => {
    const date = nextWeekday(4, 3);
    const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date, time: '10:00', postalCode: '0931', suburb: 'Orewa' }) });
    t.equal(res.statusCode, 201);
    const id: string = res.json().id;
    const row = () => app.db.selectFrom('bookings').select(['zone_id', 'travel_fee_cents', 'total_cents', 'resource_id', 'starts_at', 'ends_at', 'buffer_minutes', 'date', 'time']).where('id', '=', id).executeTakeFirstOrThrow();
    const before = await row();
    const hibiscus = await zoneNamed('Hibiscus Coast');
    t.equal(before.zone_id, hibiscus.id);
    t.equal(before.travel_fee_cents, 2500);

    t.equal((await call('PATCH', `/v1/service-zones/${hibiscus.id}`, { travelFeeCents: 4000, minutesFromCentre: 90 })).statusCode, 200);
    t.same(await row(), before, 'a new fee and minutes leave it as it was');
    t.equal((await call('PATCH', `/v1/service-zones/${hibiscus.id}`, { active: false })).statusCode, 200);
    t.same(await row(), before, 'deactivating its zone leaves it as it was');
    t.match((await app.inject('/v1/service-area?postalCode=0931')).json(), { served: false, zone: null, message: /our vans don't come to that postcode/ }, 'no new booking there');
    t.equal((await call('PATCH', `/v1/service-zones/${hibiscus.id}`, { active: true, travelFeeCents: 2500, minutesFromCentre: 45 })).statusCode, 200);
  });

  t.test('the days to re-plan show two jobs of a van once the drive between their zones outgrows their gap', async (t) => {
    const date = nextWeekday(3, 3);
    const book = async (time: string, postalCode: string, email: string) => {
      const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date, time, postalCode, email, service: 'Quick Clean' }) });
      t.equal(res.statusCode, 201, `booked ${time} at ${postalCode}`);
      return res.json().booking;
    };
    const first = await book('09:00', '1010', 'first@example.com');
    let second = await book('13:00', '0622', 'second@example.com');
    if (second.resourceId !== first.resourceId) {
      const moved = await call('POST', `/v1/bookings/${second._id}/move`, { version: second.version, date, time: '13:00', resourceId: first.resourceId });
      t.equal(moved.statusCode, 200, moved.body);
      second = moved.json().booking;
    }
    const shortfalls = async () => (await call('GET', '/v1/schedule/travel-shortfalls')).json().days as { date: string; shortfalls: Record<string, unknown>[] }[];
    t.same(await shortfalls(), [], 'nothing to re-plan under the defaults');

    const gap = Math.round((Date.parse(second.startsAt) - Date.parse(first.endsAt)) / 60_000);
    const central = await zoneNamed('Central Auckland');
    const north = await zoneNamed('North Shore');
    t.equal((await call('PUT', '/v1/zone-travel', { zoneA: north.id, zoneB: central.id, minutes: gap + 1 })).statusCode, 200);
    const van = (await call('GET', '/v1/resources')).json().data.find((r: { id: string }) => r.id === first.resourceId);
    t.same(await shortfalls(), [
      {
        date,
        shortfalls: [
          {
            resourceId: first.resourceId,
            resourceName: van.name,
            from: { id: first._id, reference: first.reference, time: '09:00', startsAt: first.startsAt, endsAt: first.endsAt, zoneName: 'Central Auckland' },
            to: { id: second._id, reference: second.reference, time: '13:00', startsAt: second.startsAt, endsAt: second.endsAt, zoneName: 'North Shore' },
            gapMinutes: gap,
            driveMinutes: gap + 1,
          },
        ],
      },
    ]);
    const kept = await app.db.selectFrom('bookings').select(['starts_at', 'resource_id', 'version']).where('id', '=', second._id).executeTakeFirstOrThrow();
    t.same({ startsAt: kept.starts_at.toISOString(), resourceId: kept.resource_id, version: kept.version }, { startsAt: second.startsAt, resourceId: first.resourceId, version: second.version }, 'nothing was moved');

    await call('PUT', '/v1/zone-travel', { zoneA: north.id, zoneB: central.id, minutes: gap });
    t.same(await shortfalls(), [], 'a drive as long as the gap fits');
    const cancelled = await call('POST', `/v1/bookings/${second._id}/status`, { status: 'cancelled', version: second.version });
    t.equal(cancelled.statusCode, 200, cancelled.body);
    await call('PUT', '/v1/zone-travel', { zoneA: north.id, zoneB: central.id, minutes: 240 });
    t.same(await shortfalls(), [], 'a cancelled job holds no place');
  });
});
