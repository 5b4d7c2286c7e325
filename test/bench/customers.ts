/**
 * `npm run bench` (fifth part): the dashboard's Customers view with 100,000 bookings, on the
 * embedded database (PGlite, as the server runs by default) and on PostgreSQL (BENCH_DATABASE_URL,
 * else a fresh database on TEST_DATABASE_URL's server; skipped when neither is set).
 * - The database migrated and seeded with one `generate_series` INSERT: 100,000 bookings over 1,000
 *   days (the past 635 and the 365 ahead) by 25,000 customers (4 bookings each, their e-mail
 *   written in varying case and with stray spaces, one customer in twenty known only by phone), a
 *   quarter of them completed, a tenth cancelled; the customers summary is filled by the database's
 *   own triggers (migrations/018). Then the built server as a process of its own on it.
 * - `GET /v1/customers` (the first page and pages further down, by their cursors), a search (a
 *   common first name, part of an e-mail, a phone number by its digits, a booking reference) and one
 *   customer's page (`GET /v1/customers/{id}`), one request at a time over a kept-alive
 *   connection: p50, p95 and p99 against the target (p95 ≤ 10 ms each).
 * Prints a markdown table.
 */
import { sql, type Kysely } from 'kysely';
import { BENCH_PASSWORD } from './processes.ts';
import { onEachDatabase } from './seeded-servers.ts';
import { timeGets } from './latency.ts';
import { BOOKINGS, CUSTOMERS, CUSTOMER_BOOKINGS_INSERT as INSERT, FIRST_NAMES, SURNAMES } from './customer-bookings.ts';

const SAMPLES = Number(process.env.BENCH_CUSTOMERS_SAMPLES ?? 1000);
const WARMUP = 100;
const TARGET_MS = 10;
/** Customer c's e-mail local part and phone digits, as the seed writes them. */
const localOf = (c: number) => `${FIRST_NAMES[c % 8]!.toLowerCase()}.${SURNAMES[Math.floor(c / 8) % 10]!.toLowerCase()}${c}`;
const phoneDigitsOf = (c: number) => `02${1 + (c % 9)}${String((c * 7919 + 13) % 10_000_000).padStart(7, '0')}`;

async function seed(db: Kysely<any>): Promise<string> {
  const writing = performance.now();
  await sql.raw(INSERT).execute(db);
  await sql`ANALYZE`.execute(db);
  const { rows } = await sql<{ bookings: number; customers: number }>`
    SELECT (SELECT count(*)::int FROM bookings) AS bookings, (SELECT count(*)::int FROM customers) AS customers`.execute(db);
  const { bookings, customers } = rows[0]!;
  if (bookings !== BOOKINGS || customers !== CUSTOMERS) throw new Error(`${bookings} bookings and ${customers} customers written, not ${BOOKINGS} and ${CUSTOMERS}`);
  return `${bookings} bookings of ${customers} customers written in ${((performance.now() - writing) / 1000).toFixed(1)} s`;
}

/** Signs in, walks 50 pages to collect cursors and customer ids, then times each call. */
async function run(label: string, base: string, rows: string[]): Promise<void> {
  const login = await fetch(`${base}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password: BENCH_PASSWORD }) });
  if (login.status !== 204) throw new Error(`sign-in: ${login.status}`);
  const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
  const cursors: string[] = [];
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 50; page++) {
    const res = await fetch(`${base}/v1/customers?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { headers: { cookie } });
    const body = (await res.json()) as { data: { id: string }[]; nextCursor: string | null };
    ids.push(...body.data.map((c) => c.id));
    cursor = body.nextCursor;
    if (!cursor) break;
    cursors.push(cursor);
  }
  const bookings = await fetch(`${base}/v1/bookings?limit=100`, { headers: { cookie } });
  const references = ((await bookings.json()) as { data: { reference: string }[] }).data.map((b) => b.reference);
  const searches = (i: number) => {
    const c = (i * 7919) % CUSTOMERS;
    switch (i % 4) {
      case 0:
        return FIRST_NAMES[i % FIRST_NAMES.length]!;
      case 1:
        return `${localOf(c)}@`;
      case 2:
        return phoneDigitsOf(c);
      default:
        return references[i % references.length]!.toLowerCase();
    }
  };
  const runs = [
    { name: 'GET /v1/customers, the first page and pages down to the 50th', url: (i: number) => `${base}/v1/customers${i % 2 ? `?cursor=${cursors[i % cursors.length]}` : ''}` },
    { name: 'GET /v1/customers?q= (a first name, part of an e-mail, a phone by its digits, a reference)', url: (i: number) => `${base}/v1/customers?q=${encodeURIComponent(searches(i))}` },
    { name: "GET /v1/customers/{id} (a customer's bookings and messages)", url: (i: number) => `${base}/v1/customers/${ids[(i * 31) % ids.length]}` },
  ];
  for (const r of runs) {
    const { p50, p95, p99 } = await timeGets(r.url, cookie, SAMPLES, WARMUP);
    rows.push(`| ${r.name} | ${label} | ${p50.toFixed(2)} ms | ${p95.toFixed(2)} ms | ${p99.toFixed(2)} ms | ≤ ${TARGET_MS} ms | ${p95 <= TARGET_MS ? 'met' : '**missed**'} |`);
    console.log(rows.at(-1));
  }
}

const rows: string[] = [];
await onEachDatabase('customers', seed, (label, base) => run(label, base, rows), (label) => void rows.push(`| GET /v1/customers… | ${label} | not run: set BENCH_DATABASE_URL or TEST_DATABASE_URL | | | | |`));

console.log(`\nCustomers with ${BOOKINGS.toLocaleString('en')} bookings (${CUSTOMERS.toLocaleString('en')} customers), the built server, one request at a time (${SAMPLES} each, after ${WARMUP} to warm up)\n`);
console.log('| request | database | p50 | p95 | p99 | target (p95) | |');
console.log('|---|---|---:|---:|---:|---:|---|');
for (const row of rows) console.log(row);
