/**
 * `npm run bench` (second part): the dashboard's queries on 100,000 bookings. Seeds them in one
 * INSERT … SELECT, signs in, and times the staff API calls the dashboard makes (median and p95
 * of 30 runs each, through the whole app: routing, validation, query, serialisation).
 * Uses PostgreSQL when BENCH_DATABASE_URL is set (a database it may fill), PGlite otherwise.
 */
import { sql } from 'kysely';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { REFERENCE_ALPHABET } from '../../src/domain/booking-reference.ts';

const BOOKINGS = Number(process.env.BENCH_BOOKINGS ?? 100_000);
const RUNS = 30;

const app = await buildApp(
  loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATA_DIR: 'memory://',
    ADMIN_PASSWORD: 'benchmark-only-password',
    RATE_LIMIT_LOGIN_MAX: '1000',
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
  }),
);
await app.ready();

/** The reference the seed gives booking `i` (see the insert below). */
function referenceOf(i: number): string {
  return Array.from({ length: 8 }, (_, k) => REFERENCE_ALPHABET[Math.floor(i / 31 ** k) % 31]).join('');
}

const started = performance.now();
await sql`
  insert into bookings (service, vehicle_type, date, time, service_type, name, email, phone, status, created_at,
                        house_number, street_address, suburb, city, postal_code, region,
                        reference, list_price_cents, discount_cents, total_cents, starts_at, ends_at)
  select (array['Quick Clean','Express Clean','Deluxe interior only','Deluxe Clean','Ultimate Clean','Window Tinting'])[1 + i % 6],
         (array['sm','mid','suv'])[1 + i % 3],
         date '2026-01-01' + (i % 700),
         lpad((7 + i % 14)::text, 2, '0') || ':00',
         case when i % 4 = 0 then 'dropoff' else 'onsite' end,
         (array['Aroha','Ben','Cara','Daniel','Ella','Finn','Grace','Hemi'])[1 + i % 8] || ' ' ||
           (array['Smith','Walker','Patel','Ngata','Brown','Wilson','Taylor','Lee','Martin','Clarke'])[1 + (i / 8) % 10] || ' ' || i,
         'customer' || i || '@example.com', '021 555 ' || lpad((i % 10000)::text, 4, '0'),
         (array['pending','confirmed','completed','cancelled'])[1 + i % 4],
         now() - (i || ' minutes')::interval,
         (i % 200)::text, 'Queen Street', 'Auckland Central', 'Auckland', '1010', 'Auckland',
         -- A unique reference per row: i written in base 31 with the references' alphabet.
         (select string_agg(substr(${REFERENCE_ALPHABET}, 1 + ((i / power(31, k)::bigint) % 31)::int, 1), '' order by k) from generate_series(0, 7) as k),
         9900, 0, 9900,
         -- The appointment as instants (the schema checks they agree with date and time); no van:
         -- these rows are for the dashboard's lists, not the schedule.
         ((date '2026-01-01' + (i % 700)) + make_time(7 + i % 14, 0, 0)) at time zone 'Pacific/Auckland',
         ((date '2026-01-01' + (i % 700)) + make_time(7 + i % 14, 0, 0)) at time zone 'Pacific/Auckland' + interval '2 hours'
  from generate_series(1, ${BOOKINGS}) as i`.execute(app.db);
await sql`analyze bookings`.execute(app.db);
console.log(`seeded ${BOOKINGS} bookings in ${((performance.now() - started) / 1000).toFixed(1)} s on ${app.database.kind}`);

const signIn = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { password: 'benchmark-only-password' } });
const cookie = `${signIn.cookies[0]!.name}=${signIn.cookies[0]!.value}`;
const deepCursor = await (async () => {
  let cursor: string | null = null;
  for (let i = 0; i < 50; i++) cursor = (await app.inject({ url: `/v1/bookings?limit=100${cursor ? `&cursor=${cursor}` : ''}`, headers: { cookie } })).json().nextCursor;
  return cursor;
})();

const cases: [string, string][] = [
  ['first page (the dashboard on load)', '/v1/bookings'],
  ['search "smith"', '/v1/bookings?q=smith'],
  ['search "customer4242@"', '/v1/bookings?q=customer4242%40'],
  ['search a reference', `/v1/bookings?q=${referenceOf(4242)}`],
  ['status = cancelled', '/v1/bookings?status=cancelled'],
  ['service + status', '/v1/bookings?service=Deluxe%20Clean&status=pending'],
  ['exact date', '/v1/bookings?date=2026-06-01'],
  ['page 51 (after 5,000 rows)', `/v1/bookings?cursor=${deepCursor}`],
  ['by appointment', '/v1/bookings?sort=schedule'],
  ['services for the filter', '/v1/bookings/services'],
  ['day view, this week', '/v1/bookings/upcoming?range=week'],
];

console.log('call'.padEnd(40), 'median ms'.padStart(10), 'p95 ms'.padStart(8));
for (const [label, url] of cases) {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const res = await app.inject({ url, headers: { cookie } });
    times.push(performance.now() - t0);
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  }
  times.sort((a, b) => a - b);
  console.log(label.padEnd(40), times[Math.floor(RUNS / 2)]!.toFixed(1).padStart(10), times[Math.floor(RUNS * 0.95)]!.toFixed(1).padStart(8));
}
await app.close();
