/**
 * The customers' summary under concurrent writers (migrations/032), on a PostgreSQL server: the
 * embedded database has one connection, so nothing there runs at once. Writers of one customer
 * take turns, and the second counts the first's booking; writers of two customers whose keys share
 * a lock bucket do not wait for each other; a statement naming many customers (bulk) and a writer
 * of one customer in its buckets do wait for each other, whichever came first. A waiting statement
 * is told so by its lock_timeout (SQLSTATE 55P03), while the other transaction is still open.
 */
import pg from 'pg';
import t from 'tap';
import { createServerDatabase } from './helper.ts';
import { bookingRow } from './support/payloads.ts';

const serverUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;

/** Long enough for a lock that is free, short enough to keep the test quick when it is not. */
const WAIT = '300ms';

/** An INSERT of one booking row of the test payloads, as a parameterised statement. */
function insertBooking(overrides: Record<string, unknown>): [string, unknown[]] {
  const row = bookingRow(overrides);
  const columns = Object.keys(row);
  return [`insert into bookings (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')})`, Object.values(row)];
}

t.test('the summary\'s writers wait only for writers of the same customer', { skip: serverUrl ? false : 'needs a PostgreSQL server: set TEST_DATABASE_URL' }, async (t) => {
  const url = await createServerDatabase(t, { migrated: true });
  const [a, b] = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })];
  await Promise.all([a.connect(), b.connect()]);
  t.teardown(() => Promise.all([a.end(), b.end()]));
  await b.query(`set lock_timeout = '${WAIT}'`);

  /** The SQLSTATE `work` fails with on `b`, or 'none' once it succeeded. */
  const outcome = (work: Promise<unknown>) =>
    work.then(
      () => 'none',
      (err: { code?: string }) => err.code ?? 'unknown',
    );
  const summary = async (email: string) =>
    (await a.query<{ bookings_count: number }>('select bookings_count from customers where key = $1', [`e:${email}`])).rows[0]?.bookings_count;

  // Two e-mail addresses whose customer keys fall in one bucket of migrations/018's 256.
  const { rows: pair } = await a.query<{ first: string; second: string }>(`
    with keys as (select 'lock.' || i || '@example.com' as email, hashtext('e:lock.' || i || '@example.com') & 255 as bucket from generate_series(1, 2000) as i)
    select x.email as first, y.email as second from keys x join keys y on x.bucket = y.bucket and x.email < y.email limit 1`);
  const { first, second } = pair[0]!;

  await t.test('a second booking of the same customer waits for the first', async (t) => {
    await a.query('begin');
    await a.query(...insertBooking({ email: first, time: '09:00' }));
    await b.query('begin');
    t.equal(await outcome(b.query(...insertBooking({ email: first, time: '11:00' }))), '55P03', 'the second insert waits for the customer');
    await b.query('rollback');
    await a.query('commit');
    // Both at once, the second let through when the first commits: it counts the first's booking.
    await a.query('begin');
    await a.query(...insertBooking({ email: first, time: '13:00' }));
    await b.query(`set lock_timeout = 0`);
    await b.query('begin');
    const waiting = b.query(...insertBooking({ email: first, time: '15:00' }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await a.query('commit');
    await waiting;
    await b.query('commit');
    await b.query(`set lock_timeout = '${WAIT}'`);
    t.equal(await summary(first), 3, 'three bookings counted, whatever the interleaving');
  });

  await t.test('a booking of another customer in the same bucket does not wait', async (t) => {
    await a.query('begin');
    await a.query(...insertBooking({ email: first, time: '17:00' }));
    await b.query('begin');
    t.equal(await outcome(b.query(...insertBooking({ email: second, time: '17:00' }))), 'none', 'inserted while the first is still open');
    await b.query('commit');
    await a.query('commit');
    t.equal(await summary(first), 4);
    t.equal(await summary(second), 1);
  });

  await t.test('a statement naming many customers and a writer of one in its buckets wait for each other', async (t) => {
    // 40 keys (more than customers_lock's 32), one of them the first customer's: all its buckets exclusive.
    const many = [`e:${first}`, ...Array.from({ length: 39 }, (_, i) => `e:bulk.${i}@example.com`)];
    await a.query('begin');
    await a.query('select customers_refresh($1::text[])', [many]);
    await b.query('begin');
    t.equal(await outcome(b.query(...insertBooking({ email: second, time: '19:00' }))), '55P03', 'a customer in a bulk-locked bucket waits');
    await b.query('rollback');
    await a.query('commit');

    await a.query('begin');
    await a.query(...insertBooking({ email: second, time: '19:00' }));
    await b.query('begin');
    t.equal(await outcome(b.query('select customers_refresh($1::text[])', [many])), '55P03', 'the bulk statement waits for that customer');
    await b.query('rollback');
    await a.query('commit');
    t.equal(await summary(second), 2);
  });
});
