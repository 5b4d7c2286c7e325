/**
 * Two server processes on one PostgreSQL database and one Redis, as behind a load balancer
 * (docs/operating.md, "Running several instances"): what one instance promises holds across both. Needs
 * the PostgreSQL server (the embedded database is one process per DATA_DIR), so it runs in the
 * PostgreSQL pass and says so elsewhere, like the other server-only tests.
 */
import { randomInt, randomUUID } from 'node:crypto';
import pg from 'pg';
import t from 'tap';
import { createServerDatabase, TEST_ADMIN_PASSWORD } from './helper.ts';
import { inDays, originalClientPayload } from './support/payloads.ts';
import { connectTestRedis, TEST_REDIS_URL } from './support/redis.ts';
import { startBuiltServer, waitFor, type ServerProcess } from './support/server-process.ts';
import { startSmtp, until } from './support/smtp.ts';

const serverUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;

t.test('two instances on one PostgreSQL keep every promise across both', { skip: serverUrl ? false : 'needs a PostgreSQL server: set TEST_DATABASE_URL' }, async (t) => {
  const redis = await connectTestRedis();
  // Visitors' addresses of this run's own (through X-Forwarded-For from the trusted loopback), so
  // that parallel runs sharing the Redis never share a counter.
  const prefix = `198.18.${randomInt(0, 256)}`;
  t.teardown(async () => {
    const keys = await redis.keys(`valet-rate-limit:*${prefix}.*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  const databaseUrl = await createServerDatabase(t);
  // Both instances' senders deliver the one outbox to this server.
  const smtp = await startSmtp(t);
  const env = {
    SMTP_URL: smtp.url,
    MAIL_POLL_MS: '100',
    DATABASE_URL: databaseUrl,
    REDIS_URL: TEST_REDIS_URL,
    TRUST_PROXY: '127.0.0.1',
    ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    BOOKING_SLOT_CAPACITY: '1',
    RATE_LIMIT_FORMS_MAX: '4',
    RATE_LIMIT_BOOKINGS_PER_DAY: '100000',
    BOOKING_MAX_ACTIVE_PER_EMAIL: '1000',
    // The races below queue twenty requests on each instance's pool: on a busy machine the
    // production wait for a connection (2 s) ran out and answered 503 (see test/helper.ts).
    DB_CONNECT_TIMEOUT_MS: '30000',
  };
  // Started together on a fresh database: both migrate it and store the password hash at once.
  const instances: ServerProcess[] = await Promise.all([startBuiltServer(t, env), startBuiltServer(t, env)]);
  for (const instance of instances) {
    const ready = await waitFor(async () => (await fetch(`${instance.base}/readyz`)).status === 200, 90_000);
    t.ok(ready, `ready${ready ? '' : `: ${instance.output()}`}`);
  }
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  t.teardown(() => db.end());

  const post = (instance: number, url: string, body: object, address: string, headers: Record<string, string> = {}) =>
    fetch(`${instances[instance % 2]!.base}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address, ...headers },
      body: JSON.stringify(body),
    });

  t.test('40 simultaneous bookings of one time with one van, spread over both, give exactly one 201', async (t) => {
    const payload = originalClientPayload({ name: 'Slot Racer', date: inDays(5), time: '10:00' });
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => post(i, '/v1/create-booking', payload, `${prefix}.${i + 1}`)));
    const statuses = answers.map((answer) => answer.status);
    t.equal(statuses.filter((status) => status === 201).length, 1, 'one booking');
    t.same([...new Set(statuses.filter((status) => status !== 201))], [409], 'every other one is refused as full');
    const rows = await db.query(`SELECT count(*)::int AS n FROM bookings WHERE date = $1 AND time = '10:00'`, [inDays(5)]);
    t.equal(rows.rows[0].n, 1, 'one row');
  });

  t.test('10 simultaneous submissions with one Idempotency-Key, spread over both, make one booking', async (t) => {
    const key = randomUUID();
    const payload = originalClientPayload({ name: 'Retrying Customer', date: inDays(6), time: '11:00' });
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => post(i, '/v1/create-booking', payload, `${prefix}.${100 + i}`, { 'idempotency-key': key })));
    t.same(answers.map((answer) => answer.status), Array(10).fill(201));
    const ids = new Set(await Promise.all(answers.map(async (answer) => (await answer.json()).id)));
    t.equal(ids.size, 1, 'one id in every answer');
    const rows = await db.query(`SELECT count(*)::int AS n FROM bookings WHERE name = 'Retrying Customer'`);
    t.equal(rows.rows[0].n, 1, 'one row');
  });

  t.test("the forms' rate limit is one budget across both (Redis)", async (t) => {
    const address = `${prefix}.200`;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await post(i, '/v1/contact-us-form', { name: '' }, address)).status);
    t.same(statuses, [400, 400, 400, 400, 429, 429], 'four posts in all, whichever instance, then refused on both');
  });

  t.test('a staff session made on one instance works on the other', async (t) => {
    const login = await post(0, '/v1/auth/login', { password: TEST_ADMIN_PASSWORD }, `${prefix}.201`);
    t.equal(login.status, 204);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const other = await fetch(`${instances[1]!.base}/v1/getall-booking`, { headers: { cookie } });
    t.equal(other.status, 200);
    t.equal((await fetch(`${instances[1]!.base}/v1/getall-booking`)).status, 401, 'and nothing without it');
    const logout = await fetch(`${instances[1]!.base}/v1/auth/logout`, { method: 'POST', headers: { cookie } });
    t.equal(logout.status, 204, 'signed out on the other instance');
    t.equal((await fetch(`${instances[0]!.base}/v1/getall-booking`, { headers: { cookie } })).status, 401, 'which ends it on the first');
  });

  t.test('every outbox e-mail is delivered once, whichever instance sends it', async (t) => {
    const bookings = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        post(i, '/v1/create-booking', originalClientPayload({ name: `Mail Check ${i}`, email: `mail.check.${i}@example.co.nz`, date: inDays(8 + i), time: '10:00' }), `${prefix}.${60 + i}`),
      ),
    );
    t.same(bookings.map((answer) => answer.status), Array(12).fill(201));
    // Everything due now (a reminder waits for its day): each booking's confirmation and staff notification.
    const due = async () => (await db.query(`SELECT status, count(*)::int AS n FROM outbox_emails WHERE kind <> 'booking-reminder' GROUP BY status`)).rows as { status: string; n: number }[];
    await until(async () => (await due()).every((row) => row.status === 'sent'), 'every due e-mail sent', 30_000);
    const sent = (await due()).find((row) => row.status === 'sent')!.n;
    t.ok(sent >= 2 * 14, `${sent} e-mails sent`);
    t.equal(smtp.received.length, sent, 'the SMTP server received each once');
    t.equal(new Set(smtp.received.map((mail) => mail.messageId)).size, sent, 'no message twice');
    const perCustomer = Array.from({ length: 12 }, (_, i) => smtp.received.filter((mail) => JSON.stringify(mail.to).includes(`"mail.check.${i}@example.co.nz"`)).length);
    t.same(perCustomer, Array(12).fill(1), 'one confirmation per customer');
  });
});
