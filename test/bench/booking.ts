/**
 * `npm run bench` (third part): the built server as a process of its own.
 * - Cold start: `node dist/server/server.js` on a fresh embedded database, until /readyz answers.
 * - Bookings: `POST /v1/create-booking` on PostgreSQL (BENCH_DATABASE_URL, else a fresh database
 *   on TEST_DATABASE_URL's server) at 50 connections, each request a Quick Clean at another date
 *   and time (two hours apart, so that with 50 vans the schedule never refuses) and e-mail
 *   address, and an Idempotency-Key as the booking page sends, beside a raw `pg` INSERT of the
 *   same row at
 *   the same concurrency: the limit the database sets (target ≥ 0.5× with p99 ≤ 25 ms).
 * - The server's RSS at the end of each run (target ≤ 150 MB).
 * Prints a markdown table.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { bookingRow, inDays, originalClientPayload } from '../support/payloads.ts';
import { TIME_SLOTS } from '../../src/domain/schedule.ts';
import { rssMb, serverDatabase, startBuiltServer, stop } from './processes.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;

/** Start times two hours apart: a Quick Clean (an hour) and its van's travel (30 minutes) never overlap the next. */
const STARTS = TIME_SLOTS.filter((_, i) => i % 2 === 0);
const DAYS = 300;

/** Request `i`'s job: a Quick Clean on one of 300 days × 7 starts (then again on another van), and its own e-mail address. */
function slotOf(i: number) {
  return {
    service: 'Quick Clean',
    vehicleType: 'sm',
    selectedVehicleType: 'sm',
    date: inDays(2 + (i % DAYS)),
    time: STARTS[Math.floor(i / DAYS) % STARTS.length]!,
    email: `bench.${i}@example.com`,
  };
}

const rows: string[] = [];

// Cold start on the embedded database.
const dataDir = await mkdtemp(path.join(tmpdir(), 'valet-bench-'));
try {
  const cold = await startBuiltServer({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  rows.push(`| cold start to /readyz, embedded database (first start: initdb) | ${(cold.readyMs / 1000).toFixed(1)} s | | | | ${(await rssMb(cold.child)).toFixed(0)} MB |`);
  await stop(cold.child);
  const warm = await startBuiltServer({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  rows.push(`| start to /readyz, embedded database (existing files) | ${(warm.readyMs / 1000).toFixed(1)} s | | | | ${(await rssMb(warm.child)).toFixed(0)} MB |`);
  await stop(warm.child);
} finally {
  await rm(dataDir, { recursive: true, force: true });
}

const database = await serverDatabase();
if (!database) {
  rows.push('| POST /v1/create-booking on PostgreSQL | not run: set BENCH_DATABASE_URL or TEST_DATABASE_URL | | | | |');
} else {
  try {
    const server = await startBuiltServer({
      DATABASE_URL: database.url,
      LOG_LEVEL: 'info',
      RATE_LIMIT_FORMS_MAX: '1000000000',
      RATE_LIMIT_BOOKINGS_PER_DAY: '1000000000',
      BOOKING_MAX_ACTIVE_PER_EMAIL: '1000',
      ONSITE_TEAMS: '50',
      // Every benchmark request is a new customer: the hourly brake on them is off for a load test.
      ONLINE_NEW_BOOKINGS_PER_HOUR: '0',
      DB_POOL_MAX: '20',
    });
    let next = 0;
    const result = await autocannon({
      url: `${server.base}/v1/create-booking`,
      connections: CONNECTIONS,
      duration: DURATION,
      requests: [
        {
          method: 'POST',
          // As the booking page sends it: with an Idempotency-Key of its own.
          setupRequest: (request) => ({
            ...request,
            headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
            body: JSON.stringify(originalClientPayload(slotOf(next++))),
          }),
        },
      ],
    });
    const appRss = await rssMb(server.child);
    await stop(server.child);
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`create-booking: ${result.non2xx} non-2xx answers, ${result.errors} errors`);

    // The same row, straight into the table, at the same concurrency.
    const pool = new pg.Pool({ connectionString: database.url, max: CONNECTIONS });
    const columns = Object.keys(bookingRow());
    const insert = `INSERT INTO bookings (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`;
    const latencies: number[] = [];
    let count = 0;
    const deadline = performance.now() + DURATION * 1000;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (performance.now() < deadline) {
          const { date, time, email } = slotOf(next++);
          const values = Object.values(bookingRow({ date, time, email }));
          const started = performance.now();
          await pool.query(insert, values);
          latencies.push(performance.now() - started);
          count += 1;
        }
      }),
    );
    await pool.end();
    latencies.sort((a, b) => a - b);
    const rawRate = count / DURATION;
    const rawP99 = latencies[Math.floor(latencies.length * 0.99)] ?? 0;
    rows.push(
      `| POST /v1/create-booking with an Idempotency-Key, PostgreSQL, ${CONNECTIONS} connections (target ≥ 0.5×, p99 ≤ 25 ms) | ${result.requests.average.toFixed(0)} req/s | ${result.latency.p99} ms | ${(result.requests.average / rawRate).toFixed(2)}× | ${rawRate.toFixed(0)} rows/s, p99 ${rawP99.toFixed(1)} ms | ${appRss.toFixed(0)} MB |`,
    );
  } finally {
    await database.drop();
  }
}

console.log('\nThe built server as its own process (request logging on for the bookings)\n');
console.log('| run | result | p99 | against raw `pg` INSERT | raw `pg` INSERT | server RSS at the end (target ≤ 150 MB) |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const row of rows) console.log(row);
