/**
 * `npm run bench` (third part): the built server as a process of its own.
 * - Cold start: `node dist/server/server.js` on a fresh embedded database, until /readyz answers.
 * - Bookings (issue 24): `POST /v1/create-booking` on PostgreSQL (BENCH_DATABASE_URL, else a fresh
 *   database on TEST_DATABASE_URL's server), after WARM_UP bookings, at 50 and then 5 connections
 *   (each run once the e-mails of the one before are sent, on current planner statistics), each
 *   request a Quick Clean at another date and time (two hours apart, so that with 50 vans the
 *   schedule never refuses) and e-mail address, with an Idempotency-Key as the booking page sends, its e-mails
 *   sent to an SMTP server on loopback (a process of its own). Beside it, the same transaction
 *   issued straight through `pg` at the same concurrency: the statements the app sends (read from
 *   PostgreSQL's `log_statement = all`), with rows of the app's sizes (copied from what the app
 *   stored). That is the honest limit of this design. Targets: ≥ 0.5× of it at 50 connections,
 *   p99 ≤ 25 ms at 5.
 * - The server's RSS once its e-mails are sent (target ≤ 150 MB).
 * - The same bookings on the embedded database (one connection inside the server's process, its
 *   tables vacuumed and analysed by the server's own upkeep every second instead of every minute,
 *   so that a run of seconds meets them as a minute's would), and the server's RSS once their
 *   e-mails are sent (target ≤ 200 MB).
 * Prints a markdown table.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { inDays, originalClientPayload } from '../support/payloads.ts';
import { until } from '../support/smtp.ts';
import { TIME_SLOTS } from '../../src/domain/schedule.ts';
import { aucklandInstant, todayInAuckland } from '../../src/domain/booking-dates.ts';
import { newBookingReference } from '../../src/services/booking-reference.ts';
import { preparingClient } from '../../src/db/prepared-statements.ts';
import { loadConfig } from '../../src/config.ts';
import { rssMb, serverDatabase, startBuiltServer, startSmtpSink, stop, type SmtpSink } from './processes.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
/** The load, then the latency: the targets are the rate at 50 connections and the p99 at 5. */
const CONCURRENCY = [50, 5] as const;
const VANS = 50;

/** Start times two hours apart: a Quick Clean (an hour), its van's least gap and the drive within the zone never overlap the next. */
const STARTS = TIME_SLOTS.filter((_, i) => i % 2 === 0);
const DAYS = 300;

/** Request `i`'s job: a Quick Clean on one of 300 days × 7 starts (then again on the next van), and its own e-mail address. */
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
/** The van request `i` is on: every earlier round of the 300 × 7 slots holds the vans before it. */
const vanOf = (i: number) => Math.floor(i / (DAYS * STARTS.length)) % VANS;

let next = 0;

interface Run {
  rate: number;
  p99: number;
}

/** `work` on a connection of its own, closed after it. */
async function onOneConnection(url: string, work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/** Waits until no e-mail is due and not yet handed to SMTP (the reminders are due later), on one connection. */
function emailsDueSent(url: string, timeoutMs: number): Promise<void> {
  const due = "select count(*)::int as count from outbox_emails where status = 'queued' and next_attempt_at <= now()";
  return onOneConnection(url, (client) =>
    until(async () => (await client.query<{ count: number }>(due)).rows[0]!.count === 0, 'the e-mails due to be sent', timeoutMs),
  );
}

/**
 * The planner's statistics brought up to date, as autovacuum has them on a server in use (its
 * naptime is a minute; a run here lasts seconds, on tables that were empty just before).
 */
function analyzed(url: string): Promise<void> {
  return onOneConnection(url, (client) => client.query('analyze'));
}

/** The columns the app's INSERT names (src/db/bookings.repository.ts through createBooking). */
const BOOKING_COLUMNS = [
  'service', 'coating_type', 'vehicle_type', 'selected_vehicle_type', 'date', 'time', 'service_type', 'house_number',
  'street_address', 'suburb', 'city', 'postal_code', 'region', 'landmark', 'save_address', 'name', 'email', 'phone',
  'notes', 'list_price_cents', 'discount_cents', 'total_cents', 'discount_kind', 'discount_percent', 'new_customer',
  'resource_id', 'starts_at', 'ends_at', 'buffer_minutes', 'id', 'manage_nonce', 'manage_token_hash', 'reference',
  'zone_id', 'travel_fee_cents', 'vehicles', 'lines',
] as const;
/** Columns the app writes as JSON text (jsonb). */
const JSON_COLUMNS: readonly string[] = ['vehicles', 'lines'];
const OUTBOX_COLUMNS = ['kind', 'booking_id', 'contact_message_id', 'to_name', 'to_address', 'reply_to_name', 'reply_to_address', 'subject', 'text_body', 'html_body', 'ics', 'ics_method', 'snapshot', 'next_attempt_at'] as const;

const values = (count: number, width: number, from = 0) =>
  Array.from({ length: count }, (_, row) => `(${Array.from({ length: width }, (_, column) => `$${from + row * width + column + 1}`).join(', ')})`).join(', ');

/** The statements of the app's booking transaction, in its order, as PostgreSQL logged them. */
const SQL = {
  keyClaim:
    'insert into "idempotency_keys" ("scope", "key", "fingerprint") values ($1, $2, $3) on conflict ("scope", "key") do update set "fingerprint" = "excluded"."fingerprint", "response_status" = $4, "response_body" = $5, "created_at" = now() where "idempotency_keys"."created_at" <= now() - make_interval(hours => $6) returning "key"',
  placeLocks:
    "select pg_advisory_xact_lock(hashtextextended('email:' || canonical_email($1), 0)), pg_advisory_xact_lock(hashtextextended('phone:' || canonical_phone($2), 0)), pg_advisory_xact_lock_shared(hashtextextended($3, 0)), pg_advisory_xact_lock(hashtextextended($4, 0))",
  facts: `with customer as (select canonical_email($1) as email, canonical_phone($2) as phone)
    select
      (select count(*) from bookings where email_canonical = customer.email and email_canonical is not null and status in ('pending', 'confirmed') and "date" >= $3) as upcoming,
      (exists (select 1 from bookings where email_canonical = customer.email and email_canonical is not null and status <> 'cancelled' and status <> 'offered' and true)
        or exists (select 1 from bookings where phone_canonical = customer.phone and phone_canonical is not null and status <> 'cancelled' and status <> 'offered' and true)) as has_active,
      (exists (select 1 from bookings where email_canonical = customer.email and email_canonical is not null and status <> 'cancelled' and status <> 'offered' and status = 'completed')
        or exists (select 1 from bookings where phone_canonical = customer.phone and phone_canonical is not null and status <> 'cancelled' and status <> 'offered' and status = 'completed')) as has_completed,
      null as new_customers,
      exists (select 1 from bookings where awaiting_email_until IS NOT NULL AND awaiting_email_until <= $4 AND status = 'pending' AND date = $5) as lapsable,
      exists (select 1 from waitlist_entries where email_canonical = customer.email
        and "date" = $5 and status = 'waiting') as waiting,
      exists (select 1 from webhook_endpoints where enabled and 'booking.created' = any(events)) as webhooks,
      (select coalesce(json_agg(json_build_object('id', id, 'kind', kind, 'position', position, 'name', name) order by position, created_at, id), '[]') from resources where active) as resources,
      (select coalesce(json_agg(json_build_object('kind', kind, 'weekday', weekday, 'opens', opens, 'closes', closes)), '[]') from working_hours) as hours,
      (select value from settings where key = $6) as "weeklyClosedDays",
      (select value from settings where key = $7) as "minGap",
      (select coalesce(json_agg(json_build_object('id', id, 'name', name, 'postcodes', postcodes::text, 'travelFeeCents', travel_fee_cents,
          'minutesFromCentre', minutes_from_centre, 'active', active, 'position', position) order by position, created_at, id), '[]') from service_zones) as zones,
      (select coalesce(json_agg(json_build_array(zone_a, zone_b, minutes)), '[]') from zone_travel) as travel,
      (select coalesce(json_agg(json_build_object('date', "date", 'kind', kind, 'resourceId', resource_id, 'wholeDay', from_time is null,
          'start', extract(epoch from starts_at) * 1000, 'end', extract(epoch from ends_at) * 1000)), '[]')
         from closures where during && tstzrange(to_timestamp($8), to_timestamp($9), '[)')) as closures,
      (select coalesce(json_agg(json_build_array(resource_id, extract(epoch from lower(held)) * 1000, extract(epoch from upper(held)) * 1000,
          extract(epoch from ends_at) * 1000, zone_id)), '[]')
         from bookings where held && tstzrange(to_timestamp($10), to_timestamp($11), '[)') and resource_id is not null and status in ('offered', 'pending', 'confirmed', 'completed', 'no-show')) as busy
    from customer`,
  booking: `insert into "bookings" (${BOOKING_COLUMNS.map((c) => `"${c}"`).join(', ')}) values ${values(1, BOOKING_COLUMNS.length)} on conflict ("reference") do nothing returning *`,
  outbox: `insert into "outbox_emails" (${OUTBOX_COLUMNS.map((c) => `"${c}"`).join(', ')}) values ${values(3, OUTBOX_COLUMNS.length)}`,
  keyAnswer: 'update "idempotency_keys" set "response_status" = $1, "response_body" = $2 where "scope" = $3 and "key" = $4 returning "key"',
};

/**
 * The app's booking transaction straight through `pg`, with the rows of a booking the app stored
 * as templates (the same sizes: the address, the e-mails' snapshots, the idempotent answer).
 */
async function rawTransaction(url: string) {
  // Connections of the app's own client class, with the server's default limit: each statement
  // prepared where the app's connections prepare it (src/db/prepared-statements.ts).
  const Client = preparingClient(loadConfig({}).db.preparedStatements);
  const pool = new pg.Pool({ connectionString: url, max: Math.max(...CONCURRENCY), Client });
  // An idle connection ended when the database is dropped after a failure: that failure is the one to report.
  pool.on('error', () => {});
  const { rows: [template] } = await pool.query<Record<string, unknown>>('select * from bookings order by created_at limit 1');
  const { rows: mails } = await pool.query<Record<string, unknown>>(`select ${OUTBOX_COLUMNS.join(', ')} from outbox_emails where booking_id = $1 order by id`, [template!.id]);
  const { rows: [answer] } = await pool.query<Record<string, unknown>>("select fingerprint, response_status, response_body from idempotency_keys where scope = 'create-booking' limit 1");
  const { rows: vans } = await pool.query<{ id: string }>("select id from resources where kind = 'onsite' and active order by position, created_at, id");
  if (!template || mails.length !== 3 || !answer || vans.length < VANS) throw new Error('the app stored no booking to copy');
  const first = template;
  // Sent e-mails keep their bodies and drop the snapshot they were composed from; the reminder
  // (due later) still holds the one the transaction wrote, as each of the three rows had it.
  const snapshot = mails.find((mail) => mail.snapshot !== null)?.snapshot;
  if (!snapshot) throw new Error('no e-mail snapshot to copy');
  const duration = (first.ends_at as Date).getTime() - (first.starts_at as Date).getTime();

  async function book(client: pg.PoolClient, i: number): Promise<void> {
    // The customer's own e-mail address and phone, as the app's requests have them.
    const { date, time, email, phone } = originalClientPayload(slotOf(i));
    const key = randomUUID();
    const id = randomUUID();
    const now = new Date();
    const dayStart = aucklandInstant(date, '00:00') / 1000;
    const dayEnd = aucklandInstant(date, '24:00') / 1000;
    const startsAt = aucklandInstant(date, time);
    const row: Record<string, unknown> = {
      ...first,
      date,
      time,
      email,
      phone,
      resource_id: vans[vanOf(i)]!.id,
      starts_at: new Date(startsAt),
      ends_at: new Date(startsAt + duration),
      id,
      manage_nonce: randomBytes(16).toString('base64url'),
      manage_token_hash: randomBytes(32).toString('hex'),
      reference: newBookingReference(),
    };
    await client.query('begin');
    try {
      await client.query(SQL.keyClaim, ['create-booking', key, answer!.fingerprint, null, null, 24]);
      await client.query(SQL.placeLocks, [email, phone, 'schedule', `place:onsite:${date}`]);
      await client.query(SQL.facts, [email, phone, todayInAuckland(now), now, date, 'weekly_closed_days', 'min_gap_minutes', dayStart, dayEnd, dayStart, dayEnd]);
      await client.query(SQL.booking, BOOKING_COLUMNS.map((column) => (JSON_COLUMNS.includes(column) ? JSON.stringify(row[column]) : row[column])));
      await client.query(SQL.outbox, mails.flatMap((mail) => OUTBOX_COLUMNS.map((column) => (column === 'booking_id' ? id : column === 'snapshot' ? snapshot : column === 'text_body' || column === 'html_body' || column === 'ics' ? null : mail[column]))));
      await client.query(SQL.keyAnswer, [answer!.response_status, answer!.response_body, 'create-booking', key]);
      await client.query('commit');
    } catch (error) {
      await client.query('rollback');
      throw error;
    }
  }

  return {
    async run(connections: number): Promise<Run> {
      await analyzed(url);
      const latencies: number[] = [];
      const deadline = performance.now() + DURATION * 1000;
      await Promise.all(
        Array.from({ length: connections }, async () => {
          const client = await pool.connect();
          try {
            while (performance.now() < deadline) {
              const started = performance.now();
              await book(client, next++);
              latencies.push(performance.now() - started);
            }
          } finally {
            client.release();
          }
        }),
      );
      latencies.sort((a, b) => a - b);
      return { rate: latencies.length / DURATION, p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0 };
    },
    end: () => pool.end(),
  };
}

const rows: string[] = [];

// Cold start on the embedded database.
const dataDir = await mkdtemp(path.join(tmpdir(), 'valet-bench-'));
try {
  const cold = await startBuiltServer({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  rows.push(`| cold start to /readyz, embedded database (first start: initdb) | ${(cold.readyMs / 1000).toFixed(1)} s | | | ${(await rssMb(cold.child)).toFixed(0)} MB |`);
  await stop(cold.child);
  const warm = await startBuiltServer({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  rows.push(`| start to /readyz, embedded database (existing files) | ${(warm.readyMs / 1000).toFixed(1)} s | | | ${(await rssMb(warm.child)).toFixed(0)} MB |`);
  await stop(warm.child);
} finally {
  await rm(dataDir, { recursive: true, force: true });
}

/** The settings of a booking run: every request a new customer on a free van, no brake in the way. */
const BOOKING_RUN_ENV = {
  LOG_LEVEL: 'info',
  MAIL_FROM: 'bookings@example.com',
  RATE_LIMIT_FORMS_MAX: '1000000000',
  RATE_LIMIT_BOOKINGS_PER_DAY: '1000000000',
  BOOKING_MAX_ACTIVE_PER_EMAIL: '1000',
  ONSITE_TEAMS: String(VANS),
  // Every benchmark request is a new customer: the hourly brake on them is off for a load test.
  ONLINE_NEW_BOOKINGS_PER_HOUR: '0',
};

/** Bookings made before the measured runs, so that they meet tables in use, not empty ones. */
const WARM_UP = 500;

/** `POST /v1/create-booking` as the booking page sends it: with an Idempotency-Key of its own. */
function bookingRun(base: string, connections: number, options: { duration: number } | { amount: number }) {
  return autocannon({
    url: `${base}/v1/create-booking`,
    connections,
    ...options,
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => ({
          ...request,
          headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
          body: JSON.stringify(originalClientPayload(slotOf(next++))),
        }),
      },
    ],
  });
}

/**
 * `POST /v1/create-booking` at each concurrency in turn, after WARM_UP bookings. Each run starts
 * once `settled` says the e-mails of the run before are sent: otherwise the run at 5
 * connections would measure the server working off the 50-connection run's backlog (about a
 * thousand e-mails: its p99 was 0.7–1.1 s on the slower machine, 0.12 s once they were sent).
 */
async function bookingRuns(base: string, settled: () => Promise<unknown>): Promise<Record<number, Run & { accepted: number }>> {
  const warmUp = await bookingRun(base, 5, { amount: WARM_UP });
  if (warmUp['2xx'] !== WARM_UP) throw new Error(`warm-up: ${warmUp.non2xx} non-2xx answers, ${warmUp.errors} errors`);
  const runs: Record<number, Run & { accepted: number }> = {};
  for (const connections of CONCURRENCY) {
    await settled();
    const result = await bookingRun(base, connections, { duration: DURATION });
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`create-booking: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
    runs[connections] = { rate: result.requests.average, p99: result.latency.p99, accepted: result['2xx'] };
  }
  return runs;
}

/**
 * Waits until the sink has had no new e-mail for two seconds, at least `least` in all: the
 * embedded database cannot be asked from outside the server's process.
 */
async function sinkQuiet(sink: SmtpSink, least: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let last = -1;
  for (;;) {
    const count = await sink.delivered();
    if (count === last && count >= least) return count;
    if (Date.now() > deadline) throw new Error(`e-mails still being sent after ${timeoutMs} ms (${count} of at least ${least})`);
    last = count;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

const [many, few] = CONCURRENCY;
const sink = await startSmtpSink();
try {
  // The same bookings on the embedded database: one connection inside the server's process, so
  // the rate is not compared with anything; what counts is the memory once the e-mails are sent.
  const embeddedDir = await mkdtemp(path.join(tmpdir(), 'valet-bench-'));
  try {
    // Its upkeep every second: a run of seconds then meets the tables as the default minute would.
    const server = await startBuiltServer({ ...BOOKING_RUN_ENV, DATA_DIR: embeddedDir, SMTP_URL: sink.url, EMBEDDED_UPKEEP_SECONDS: '1' });
    try {
      const before = await sink.delivered();
      const runs = await bookingRuns(server.base, () => sinkQuiet(sink, 0, 120_000));
      const accepted = runs[many]!.accepted + runs[few]!.accepted;
      // Each booking sends at least its confirmation at once (its reminder is due later).
      const delivered = (await sinkQuiet(sink, before + accepted, 120_000)) - before;
      rows.push(
        `| POST /v1/create-booking on the embedded database, ${many} then ${few} connections (RSS target ≤ 200 MB) | ${runs[many]!.rate.toFixed(0)} and ${runs[few]!.rate.toFixed(0)} bookings/s | | | **${(await rssMb(server.child)).toFixed(0)} MB** (${delivered} e-mails sent) |`,
      );
    } finally {
      await stop(server.child);
    }
  } finally {
    await rm(embeddedDir, { recursive: true, force: true });
  }

  const database = await serverDatabase();
  if (!database) {
    rows.push('| POST /v1/create-booking on PostgreSQL | not run: set BENCH_DATABASE_URL or TEST_DATABASE_URL | | | |');
  } else {
    try {
      const server = await startBuiltServer({ ...BOOKING_RUN_ENV, DATABASE_URL: database.url, SMTP_URL: sink.url, DB_POOL_MAX: '20' });
      let app: Record<number, Run>;
      let appRss = 0;
      let delivered = 0;
      try {
        const before = await sink.delivered();
        app = await bookingRuns(server.base, async () => {
          await emailsDueSent(database.url, 120_000);
          await analyzed(database.url);
        });
        // The e-mails of the last bookings are still being sent: the memory is read once they are.
        await emailsDueSent(database.url, 60_000);
        appRss = await rssMb(server.child);
        delivered = (await sink.delivered()) - before;
      } finally {
        // Also after a failure: a server left running would outlive the benchmark.
        await stop(server.child);
      }

      const raw: Record<number, Run> = {};
      const transaction = await rawTransaction(database.url);
      for (const connections of CONCURRENCY) raw[connections] = await transaction.run(connections);
      await transaction.end();

      rows.push(
        `| POST /v1/create-booking on PostgreSQL, ${many} connections (target ≥ 0.5× the same transaction through \`pg\`; RSS target ≤ 150 MB) | ${app[many]!.rate.toFixed(0)} bookings/s | ${raw[many]!.rate.toFixed(0)} transactions/s | **${(app[many]!.rate / raw[many]!.rate).toFixed(2)}×** | **${appRss.toFixed(0)} MB** (${delivered} e-mails sent) |`,
        `| p99 at ${many} connections | ${app[many]!.p99.toFixed(0)} ms | ${raw[many]!.p99.toFixed(1)} ms | | |`,
        `| POST /v1/create-booking on PostgreSQL, ${few} connections | ${app[few]!.rate.toFixed(0)} bookings/s | ${raw[few]!.rate.toFixed(0)} transactions/s | ${(app[few]!.rate / raw[few]!.rate).toFixed(2)}× | |`,
        `| p99 at ${few} connections (target ≤ 25 ms) | **${app[few]!.p99.toFixed(0)} ms** | ${raw[few]!.p99.toFixed(1)} ms | | |`,
      );
    } finally {
      await database.drop();
    }
  }
} finally {
  await stop(sink.child);
}

console.log('\nThe built server as its own process (request logging on for the bookings, their e-mails sent to an SMTP server on loopback)\n');
console.log('| run | the app | the same transaction straight through `pg` | app / `pg` | server RSS at the end |');
console.log('|---|---:|---:|---:|---:|');
for (const row of rows) console.log(row);
