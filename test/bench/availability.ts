/**
 * `npm run bench` (fourth part): what the wizard asks the scheduling engine, with 100,000 bookings
 * in PostgreSQL (BENCH_DATABASE_URL, else a fresh database on TEST_DATABASE_URL's server).
 * - The built server as a process of its own, on a database it migrated and seeded (two vans, two
 *   bays); then 100,000 bookings written with one `generate_series` INSERT over 1,000 days (the
 *   past 635 and the 365 ahead, 100 a day): each day 6 on-site jobs on the vans and 6 drop-offs on
 *   the bays, none overlapping (the exclusion constraint checks), and 88 without a van or bay (as
 *   the old hourly rule left them, a tenth of them cancelled), of every length from 1 to 8 hours;
 *   on-site jobs at postcodes of four zones of the service area (issue 40), with their zones.
 * - `GET /v1/availability` for one date and `GET /v1/availability/days` for 62 days, each with a
 *   job (Deluxe Clean, SUV, on-site; with a postcode, so the drive between zones is checked), for a
 *   visit of three vehicles with an add-on (issue 41), and without one (the shortest job, both
 *   kinds), one request
 *   at a time over a kept-alive connection, dates spread over the booking window: p50 and p95
 *   against the targets (p95 ≤ 5 ms for a date, ≤ 25 ms for 62 days).
 * Prints a markdown table.
 */
import pg from 'pg';
import { addDaysToDay, todayInAuckland } from '../../src/domain/booking-dates.ts';
import { serverDatabase, startBuiltServer, stop } from './processes.ts';
import { percentile } from './latency.ts';

const BOOKINGS = 100_000;
/** Bookings per day: 1,000 days of them. */
const PER_DAY = 100;
const DAYS_BEHIND = 635;
const SAMPLES = Number(process.env.BENCH_AVAILABILITY_SAMPLES ?? 1000);
/** Requests before those measured, for each case. */
const WARMUP = 100;
/**
 * Before any case is measured, every case asks once about each of its 300 dates: the server is then
 * as warm as one that has served for a while (its code optimised, the rows read). Without it the
 * first case measured was the slowest whatever it was (2026-11-29: p95 5.6 ms measured first,
 * 2.2 ms for the same requests measured again at the end of the same run).
 */
const SERVER_WARMUP_DATES = 300;

/**
 * Row i: day i / 100, k = i % 100 its place in the day.
 * - k 0-5: on-site Quick Clean (small car, 60 minutes + the 15-minute least gap) at 07:00-12:00, on
 *   Van 1 (07:00, 09:00, 11:00) and Van 2 (08:00, 10:00, 12:00), in Central, North Shore, South and
 *   East Auckland by k % 4;
 * - k 14-19: drop-off Quick Clean at 08:00-13:00, on Bay 1 (08:00-11:00, back to back) and Bay 2
 *   (12:00, 13:00);
 * - the rest: on-site (k < 14) or drop-off, a package by k % 5, no van or bay; k % 10 = 9 cancelled.
 */
const INSERT = `
WITH r AS (
  SELECT
    (SELECT id FROM resources WHERE name = 'Van 1') AS van1, (SELECT id FROM resources WHERE name = 'Van 2') AS van2,
    (SELECT id FROM resources WHERE name = 'Bay 1') AS bay1, (SELECT id FROM resources WHERE name = 'Bay 2') AS bay2
),
jobs (n, service, coating_type, vehicle_type, selected_vehicle_type, minutes, cents) AS (
  VALUES (0, 'Quick Clean', '', 'sm', 'sm', 60, 6900),
         (1, 'Express Clean', '', 'mid', 'mid', 105, 10900),
         (2, 'Deluxe Clean', '', 'suv', 'suv', 240, 24900),
         (3, 'Ultimate Clean', '', 'mid', 'mid', 300, 31900),
         (4, 'Ceramic Coating', 'coat2', 'sm', 'Hatchback', 480, 69900)
),
rows AS (
  SELECT i, i % ${PER_DAY} AS k,
    ((now() AT TIME ZONE 'Pacific/Auckland')::date - ${DAYS_BEHIND} + i / ${PER_DAY}) AS day
  FROM generate_series(0, ${BOOKINGS - 1}) AS i
),
placed AS (
  SELECT rows.*,
    CASE WHEN k < 14 THEN 'onsite' ELSE 'dropoff' END AS service_type,
    CASE WHEN k < 14 THEN 7 + k WHEN k < 28 THEN 8 + (k - 14) % 10 ELSE 7 + k % 14 END AS hour,
    CASE WHEN k < 6 AND k % 2 = 0 THEN r.van1 WHEN k < 6 THEN r.van2 WHEN k BETWEEN 14 AND 17 THEN r.bay1 WHEN k BETWEEN 18 AND 19 THEN r.bay2 END AS resource_id,
    CASE WHEN k < 6 OR k BETWEEN 14 AND 19 THEN 0 ELSE k % 5 END AS job,
    (ARRAY['1010', '0622', '2110', '2012'])[k % 4 + 1] AS postcode
  FROM rows, r
)
INSERT INTO bookings (
  service, coating_type, vehicle_type, selected_vehicle_type, "date", "time", service_type,
  house_number, street_address, suburb, city, postal_code, region, landmark, save_address,
  name, email, phone, notes, reference, list_price_cents, discount_cents, total_cents,
  status, resource_id, starts_at, ends_at, buffer_minutes, zone_id
)
SELECT
  j.service, j.coating_type, j.vehicle_type, j.selected_vehicle_type, p.day, lpad(p.hour::text, 2, '0') || ':00', p.service_type,
  '1', 'Queen Street', 'Auckland Central', 'Auckland', p.postcode, 'Auckland', '', false,
  'Bench Customer ' || p.i, 'bench.' || p.i || '@example.com', '021 555 0000', '',
  (SELECT string_agg(substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', ((p.i / (31::bigint ^ d)::bigint) % 31)::int + 1, 1), '' ORDER BY d DESC) FROM generate_series(0, 7) AS d),
  j.cents, 0, j.cents,
  CASE WHEN p.resource_id IS NULL AND p.k % 10 = 9 THEN 'cancelled' WHEN p.k % 3 = 0 THEN 'confirmed' ELSE 'pending' END,
  p.resource_id,
  (p.day + make_time(p.hour, 0, 0)) AT TIME ZONE 'Pacific/Auckland',
  ((p.day + make_time(p.hour, 0, 0)) AT TIME ZONE 'Pacific/Auckland') + make_interval(mins => j.minutes),
  CASE WHEN p.service_type = 'onsite' THEN 15 ELSE 0 END,
  CASE WHEN p.service_type = 'onsite' THEN (SELECT z.id FROM service_zones z WHERE z.active AND z.postcodes @> p.postcode::integer) END
FROM placed p JOIN jobs j ON j.n = p.job`;

/** One request at a time: each URL's latency, after a warm-up. */
async function measure(urls: (i: number) => string): Promise<{ p50: number; p95: number; p99: number }> {
  const latencies: number[] = [];
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const started = performance.now();
    const res = await fetch(urls(i));
    const body = await res.text();
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`${urls(i)}: ${res.status} ${body}`);
    if (i >= WARMUP) latencies.push(ms);
  }
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95), p99: percentile(latencies, 0.99) };
}

const rows: string[] = [];
const database = await serverDatabase();
if (!database) {
  rows.push('| GET /v1/availability on PostgreSQL | not run: set BENCH_DATABASE_URL or TEST_DATABASE_URL | | | | |');
} else {
  try {
    const server = await startBuiltServer({ DATABASE_URL: database.url, LOG_LEVEL: 'warn', DB_POOL_MAX: '10' });
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const writing = performance.now();
    await client.query(INSERT);
    // As autovacuum leaves a live database: hint bits set and the visibility map made, which its
    // first pass after 100,000 inserts would otherwise do during the first requests measured.
    await client.query('VACUUM (ANALYZE)');
    const { rows: counted } = await client.query<{ total: number; placed: number }>(
      `SELECT count(*)::int AS total, count(resource_id)::int AS placed FROM bookings`,
    );
    await client.end();
    const { total, placed } = counted[0]!;
    if (total !== BOOKINGS) throw new Error(`${total} bookings written, not ${BOOKINGS}`);
    console.log(`${total} bookings (${placed} on a van or bay) written in ${((performance.now() - writing) / 1000).toFixed(1)} s`);

    const tomorrow = addDaysToDay(todayInAuckland(new Date()), 1);
    const job = 'service=Deluxe%20Clean&vehicleType=suv&serviceType=onsite&postalCode=0622';
    // Issue 41: a visit of three vehicles (a Quick Clean with pet hair, an Express Clean, a Quick Clean), 5 hours in all.
    const threeVehicles =
      'service=Quick%20Clean&vehicleType=sm&addOns=pet-hair&service=Express%20Clean&vehicleType=mid&addOns=&service=Quick%20Clean&vehicleType=suv&addOns=&serviceType=onsite&postalCode=0622';
    const oneDate = (query: string) => (i: number) => `${server.base}/v1/availability?date=${addDaysToDay(tomorrow, i % 300)}${query}`;
    const days = (query: string) => (i: number) => {
      const from = addDaysToDay(tomorrow, i % 300);
      return `${server.base}/v1/availability/days?from=${from}&to=${addDaysToDay(from, 61)}${query}`;
    };
    const runs = [
      { name: 'GET /v1/availability, one date, a job (Deluxe Clean, SUV, on-site at a North Shore postcode)', urls: oneDate(`&${job}`), target: 5 },
      { name: 'GET /v1/availability, one date, no job (shortest, both kinds)', urls: oneDate(''), target: 5 },
      { name: 'GET /v1/availability/days, 62 days, a job (Deluxe Clean, SUV, on-site at a North Shore postcode)', urls: days(`&${job}`), target: 25 },
      { name: 'GET /v1/availability/days, 62 days, no job (shortest, both kinds)', urls: days(''), target: 25 },
      { name: 'GET /v1/availability, one date, three vehicles with add-ons (on-site, North Shore)', urls: oneDate(`&${threeVehicles}`), target: 5 },
      { name: 'GET /v1/availability/days, 62 days, three vehicles with add-ons (on-site, North Shore)', urls: days(`&${threeVehicles}`), target: 25 },
    ];
    for (const run of runs) {
      for (let i = 0; i < SERVER_WARMUP_DATES; i++) await (await fetch(run.urls(i))).text();
    }
    for (const run of runs) {
      const { p50, p95, p99 } = await measure(run.urls);
      rows.push(`| ${run.name} | ${p50.toFixed(2)} ms | ${p95.toFixed(2)} ms | ${p99.toFixed(2)} ms | ≤ ${run.target} ms | ${p95 <= run.target ? 'met' : '**missed**'} |`);
    }
    await stop(server.child);
  } finally {
    await database.drop();
  }
}

console.log(`\nAvailability with ${BOOKINGS.toLocaleString('en')} bookings on PostgreSQL, the built server, one request at a time (${SAMPLES} each, after ${WARMUP} to warm up, once every case had asked about each of its ${SERVER_WARMUP_DATES} dates)\n`);
console.log('| request | p50 | p95 | p99 | target (p95) | |');
console.log('|---|---:|---:|---:|---:|---|');
for (const row of rows) console.log(row);
