/**
 * `npm run bench` (last part): the owner's Insights (issue 44) for a quarter with 100,000 bookings,
 * on the embedded database (PGlite, as the server runs by default) and on PostgreSQL
 * (BENCH_DATABASE_URL, else a fresh database on TEST_DATABASE_URL's server; skipped when neither is
 * set).
 * - The customers benchmark's seed (test/bench/customer-bookings.ts: 100,000 bookings of 25,000
 *   customers over 1,000 days, 100 a day, a quarter completed, a tenth cancelled), then two vans
 *   holding one job at each start of the day (even hours on one, odd on the other) and a payment
 *   for every completed job, by one of the four methods.
 * - `GET /v1/insights?from=&to=` for 91 days ending on one of the past 500 days, one request at a
 *   time over a kept-alive connection: p50, p95 and p99 against the target (p95 ≤ 50 ms).
 * Prints a markdown table.
 */
import { sql, type Kysely } from 'kysely';
import { addDaysToDay, todayInAuckland } from '../../src/domain/booking-dates.ts';
import { BENCH_PASSWORD } from './processes.ts';
import { onEachDatabase } from './seeded-servers.ts';
import { timeGets } from './latency.ts';
import { BOOKINGS, CUSTOMER_BOOKINGS_INSERT } from './customer-bookings.ts';

const SAMPLES = Number(process.env.BENCH_INSIGHTS_SAMPLES ?? 300);
const WARMUP = 30;
const TARGET_MS = 50;
const QUARTER_DAYS = 91;

/**
 * Written with the triggers off (session_replication_role = replica): a payment's trigger refreshes
 * its customer's summary under an advisory lock, and 25,000 of them in one statement run out of
 * lock slots. So the payments are given their job's lines and completion here, as the trigger of
 * migrations/042 would give them.
 */
const VANS_AND_PAYMENTS = `
SET session_replication_role = replica;
INSERT INTO resources (name, kind, position) VALUES ('Bench Van 1', 'onsite', 901), ('Bench Van 2', 'onsite', 902);
UPDATE bookings b SET resource_id = (SELECT id FROM resources WHERE name = CASE WHEN extract(hour FROM b.starts_at AT TIME ZONE 'Pacific/Auckland')::int % 2 = 0 THEN 'Bench Van 1' ELSE 'Bench Van 2' END)
WHERE b.id IN (SELECT DISTINCT ON (starts_at) id FROM bookings WHERE status <> 'cancelled' ORDER BY starts_at, id);
INSERT INTO booking_payments (booking_id, quoted_cents, amount_cents, payment_method, paid_at, gst_cents, completed_at, completed_by, lines, booking_completed)
SELECT id, total_cents, total_cents, (ARRAY['cash', 'bank-transfer', 'card', 'other'])[1 + abs(hashtext(id::text)) % 4], ends_at, 0, ends_at, 'bench', lines, true
FROM bookings WHERE status = 'completed';
SET session_replication_role = DEFAULT;`;

async function seed(db: Kysely<any>): Promise<string> {
  const writing = performance.now();
  await sql.raw(CUSTOMER_BOOKINGS_INSERT).execute(db);
  for (const statement of VANS_AND_PAYMENTS.split(';').filter((s) => s.trim() !== '')) await sql.raw(statement).execute(db);
  // Vacuumed and analysed, as autovacuum leaves a live database: the index of migration 041 then
  // answers without visiting the rows.
  await sql`VACUUM ANALYZE`.execute(db);
  const { rows } = await sql<{ bookings: number; payments: number; held: number }>`
    SELECT (SELECT count(*)::int FROM bookings) AS bookings, (SELECT count(*)::int FROM booking_payments) AS payments,
      (SELECT count(*)::int FROM bookings WHERE resource_id IS NOT NULL) AS held`.execute(db);
  const { bookings, payments, held } = rows[0]!;
  if (bookings !== BOOKINGS) throw new Error(`${bookings} bookings written, not ${BOOKINGS}`);
  return `${bookings} bookings (${held} on the vans), ${payments} payments written in ${((performance.now() - writing) / 1000).toFixed(1)} s`;
}

async function run(label: string, base: string, rows: string[]): Promise<void> {
  const login = await fetch(`${base}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password: BENCH_PASSWORD }) });
  if (login.status !== 204) throw new Error(`sign-in: ${login.status}`);
  const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
  const today = todayInAuckland(new Date());
  const url = (i: number) => {
    const to = addDaysToDay(today, -1 - ((i * 37) % 500));
    return `${base}/v1/insights?from=${addDaysToDay(to, 1 - QUARTER_DAYS)}&to=${to}`;
  };
  const { p50, p95, p99 } = await timeGets(url, cookie, SAMPLES, WARMUP);
  rows.push(`| GET /v1/insights, a quarter (${QUARTER_DAYS} days) | ${label} | ${p50.toFixed(2)} ms | ${p95.toFixed(2)} ms | ${p99.toFixed(2)} ms | ≤ ${TARGET_MS} ms | ${p95 <= TARGET_MS ? 'met' : '**missed**'} |`);
  console.log(rows.at(-1));
}

const rows: string[] = [];
await onEachDatabase('insights', seed, (label, base) => run(label, base, rows), (label) => void rows.push(`| GET /v1/insights | ${label} | not run: set BENCH_DATABASE_URL or TEST_DATABASE_URL | | | | |`));

console.log(`\nInsights with ${BOOKINGS.toLocaleString('en')} bookings, the built server, one request at a time (${SAMPLES}, after ${WARMUP} to warm up)\n`);
console.log('| request | database | p50 | p95 | p99 | target (p95) | |');
console.log('|---|---|---:|---:|---:|---:|---|');
for (const row of rows) console.log(row);
