/**
 * Issue 40, the staff's side of travel: the day schedule gives each on-site job's zone, each van's
 * gaps between consecutive jobs with the drive each needs under today's travel times (marked too
 * short when staff have since made a drive longer), and each van's route of the day: its stops in
 * order with directions, and about how long it drives. One booking's details name its zone. Both
 * databases.
 */
import t from 'tap';
import { aucklandInstant } from '../src/domain/booking-dates.ts';
import type { ScheduleGap as Gap } from '../src/services/staff-schedule.service.ts';
import { buildTestApp, forEachBackend, login } from './helper.ts';
import { nextWeekday, originalClientPayload, testNow } from './support/payloads.ts';

interface Lane {
  resource: { id: string; name: string; kind: string };
  jobs: { _id: string; zoneId: string | null; outsideServiceArea: boolean }[];
  gaps: Gap[];
  route: { stops: { bookingId: string; time: string; firstName: string; address: string; zoneName: string | null; directionsUrl: string }[]; minutes: number; unknownStops: number } | null;
}

const maps = (address: string) => `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(address)}`;

forEachBackend(t, async (t, backend) => {
  let clock = testNow;
  const app = await buildTestApp(t, { backend, now: () => clock });
  const cookie = await login(app);
  const headers = { cookie, origin: 'http://localhost:80' };
  const day = nextWeekday(3);
  const zoneId = async (name: string) => (await app.db.selectFrom('service_zones').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  const schedule = async (query = `?date=${day}`) => {
    const res = await app.inject({ url: `/v1/schedule${query}`, headers });
    t.equal(res.statusCode, 200, `GET /v1/schedule${query}`);
    return res.json() as { date: string; lanes: Lane[] };
  };
  // Quick Clean, mid-size: 75 minutes of work, so 09:00, 11:00 and 14:00 leave 45 and 105 minutes.
  const book = async (name: string, time: string, postalCode: string, suburb: string, extra: Record<string, unknown> = {}) => {
    const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ service: 'Quick Clean', name, email: `${name.split(' ')[0]!.toLowerCase()}@example.co.nz`, date: day, time, postalCode, suburb, ...extra }) });
    t.equal(res.statusCode, 201, `${name} booked`, { body: res.body });
    return res.json().id as string;
  };

  const central = await book('Aroha Ngata', '09:00', '1010', 'Auckland Central');
  const shore = await book('Ben Wiremu', '11:00', '0622', 'Takapuna');
  const south = await book('Chloe Tan', '14:00', '2110', 'Papakura');
  const dropoff = await book('Dan Bay', '10:00', '1010', 'Auckland Central', { serviceType: 'dropoff' });

  // The engine spreads jobs over the vans by the driving they add; staff put these on one van.
  const van = (await schedule()).lanes.find((l) => l.resource.kind === 'onsite')!.resource;
  for (const id of [central, shore, south]) {
    const booking = (await app.inject({ url: `/v1/bookings/${id}`, headers })).json().booking;
    if (booking.resourceId === van.id) continue;
    const moved = await app.inject({ method: 'POST', url: `/v1/bookings/${id}/move`, headers, payload: { version: booking.version, date: day, time: booking.time, resourceId: van.id } });
    t.equal(moved.statusCode, 200, `${booking.name} moved to ${van.name}`, { body: moved.body });
  }
  const vanLane = async (query?: string) => (await schedule(query)).lanes.find((l) => l.resource.id === van.id)!;

  t.test('the day schedule: each gap of a van with the drive it needs, between named zones', async (t) => {
    const answer = await schedule();
    const lane = answer.lanes.find((l) => l.resource.id === van.id)!;
    t.same(lane.jobs.map((j) => j._id), [central, shore, south], 'one van, three jobs');
    t.equal(lane.gaps.length, 2, 'a gap between each two consecutive jobs');
    const [first, second] = lane.gaps as [Gap, Gap];
    t.match(first, { fromBookingId: central, toBookingId: shore, fromZone: 'Central Auckland', toZone: 'North Shore', driveMinutes: 40, tooShort: false }, 'the default: through the centre, 15 + 25');
    t.match(second, { fromBookingId: shore, toBookingId: south, fromZone: 'North Shore', toZone: 'South Auckland', driveMinutes: 50, tooShort: false });
    t.same([first.gapMinutes, second.gapMinutes], [45, 105], "from the end of a job's work (75 minutes) to the next start");
    t.ok(first.gapMinutes >= 40 && second.gapMinutes >= 50, 'the engine left room for each drive');

    const bays = answer.lanes.filter((l) => l.resource.kind === 'dropoff');
    t.ok(bays.length > 0);
    for (const bay of bays) {
      t.same(bay.gaps, [], `${bay.resource.name}: no drives between jobs at the centre`);
      t.equal(bay.route, null);
    }
    t.ok(bays.some((bay) => bay.jobs.some((j) => j._id === dropoff && j.zoneId === null && !j.outsideServiceArea)), 'a drop-off has no zone and is not outside the area');
  });

  t.test("a van's route: the stops in order with directions, and the day's driving", async (t) => {
    clock = new Date(aucklandInstant(day, '07:00'));
    t.teardown(() => {
      clock = testNow;
    });
    const answer = await schedule('');
    t.equal(answer.date, day, 'today, as the Today view asks');
    const route = answer.lanes.find((l) => l.resource.id === van.id)!.route!;
    t.same(
      route.stops.map((s) => [s.bookingId, s.time, s.firstName, s.zoneName]),
      [
        [central, '09:00', 'Aroha', 'Central Auckland'],
        [shore, '11:00', 'Ben', 'North Shore'],
        [south, '14:00', 'Chloe', 'South Auckland'],
      ],
    );
    t.equal(route.stops[1]!.address, '7 Ellerslie-Panmure Highway, Takapuna, Auckland, 0622', 'the address on one line');
    t.equal(route.stops[1]!.directionsUrl, maps('7 Ellerslie-Panmure Highway, Takapuna, Auckland, 0622'));
    t.equal(route.stops[1]!.directionsUrl, 'https://www.google.com/maps/dir/?api=1&destination=7%20Ellerslie-Panmure%20Highway%2C%20Takapuna%2C%20Auckland%2C%200622');
    t.equal(route.minutes, 15 + 40 + 50 + 25, 'out from the centre, between the stops, and back');
    t.equal(route.unknownStops, 0);
  });

  t.test('a drive made longer since: the gap is marked too short, and the driving grows', async (t) => {
    const [a, b] = [await zoneId('Central Auckland'), await zoneId('North Shore')].sort();
    await app.db.insertInto('zone_travel').values({ zone_a: a!, zone_b: b!, minutes: 120 }).execute();
    t.teardown(() => app.db.deleteFrom('zone_travel').execute());
    const lane = await vanLane();
    t.match(lane.gaps[0], { driveMinutes: 120, tooShort: true, fromZone: 'Central Auckland', toZone: 'North Shore' }, "today's travel times, not those the job was placed under");
    t.ok(lane.gaps[0]!.gapMinutes < 120);
    t.match(lane.gaps[1], { driveMinutes: 50, tooShort: false });
    t.equal(lane.route!.minutes, 15 + 120 + 50 + 25);
  });

  t.test('a job outside the service area: no known drive, marked, and left out of the driving', async (t) => {
    const zone = (await app.db.selectFrom('bookings').select('zone_id').where('id', '=', south).executeTakeFirstOrThrow()).zone_id;
    await app.db.updateTable('bookings').set({ zone_id: null }).where('id', '=', south).execute();
    t.teardown(() => app.db.updateTable('bookings').set({ zone_id: zone }).where('id', '=', south).execute());
    const lane = await vanLane();
    t.match(lane.gaps[1], { fromZone: 'North Shore', toZone: null, driveMinutes: null, tooShort: false });
    t.match(lane.jobs[2], { zoneId: null, outsideServiceArea: true });
    t.equal(lane.route!.stops[2]!.zoneName, null);
    t.same([lane.route!.minutes, lane.route!.unknownStops], [15 + 40, 1], 'only the drives known: out to the first stop and to the second');
    const details = (await app.inject({ url: `/v1/bookings/${south}`, headers })).json().booking;
    t.match(details, { zoneId: null, zoneName: null, outsideServiceArea: true });
  });

  t.test("one booking's details name its zone and show its travel fee", async (t) => {
    const details = (await app.inject({ url: `/v1/bookings/${central}`, headers })).json().booking;
    t.match(details, { zoneName: 'Central Auckland', outsideServiceArea: false, quote: { travelFeeCents: 0 } });
    const list = (await app.inject({ url: `/v1/bookings`, headers })).json().data as Record<string, unknown>[];
    t.notOk('zoneName' in list[0]!, 'lists give the zone id only');
    const far = await book('Eru Hohaia', '10:00', '0931', 'Orewa', { date: nextWeekday(4) });
    const farDetails = (await app.inject({ url: `/v1/bookings/${far}`, headers })).json().booking;
    t.match(farDetails, { zoneName: 'Hibiscus Coast', quote: { travelFeeCents: 2500 } }, "the Hibiscus Coast's fee");
  });
});
