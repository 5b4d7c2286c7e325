import { randomInt } from 'node:crypto';
import { Writable } from 'node:stream';
import t from 'tap';
import type { Test } from 'tap';
import type { InjectOptions } from 'fastify';
import { buildTestApp, forEachBackend, login, TEST_ADMIN_PASSWORD, type Backend } from './helper.ts';
import { originalClientPayload } from './support/payloads.ts';

interface LogEntry {
  msg: string;
  reqId?: string;
  method?: string;
  path?: string;
  status?: number;
  ms?: number;
}

async function appWithCapturedLog(t: Test, env: Record<string, string>, backend?: Backend) {
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const app = await buildTestApp(t, { backend, env: { LOG_LEVEL: 'info', ...env }, logStream });
  const accessLines = () => lines.map((line) => JSON.parse(line) as LogEntry).filter((entry) => entry.msg === 'request');
  return { app, lines, accessLines };
}

forEachBackend(t, async (t, backend) => {
  t.test('a booking, a contact message, a sign-in, a staff search and an export leave no personal data in the log, and one access line each', async (t) => {
    const { app, lines, accessLines } = await appWithCapturedLog(t, {}, backend);
    const unique = String(randomInt(100_000, 999_999));
    const marker = {
      name: `Hinemoa Markername${unique}`,
      email: `marker.${unique}@example.org`,
      phone: `021 7${unique}`,
      notes: `Gate code marker ${unique}`,
      message: `Contact marker message ${unique}`,
      search: `needle${unique}`,
      wrongPassword: `wrong guess ${unique}`,
    };

    const requestIds: string[] = [];
    const send = async (options: InjectOptions, expectedStatus: number) => {
      const res = await app.inject(options);
      t.equal(res.statusCode, expectedStatus, `${options.method ?? 'GET'} ${options.url}`);
      requestIds.push(String(res.headers['x-request-id']));
      return res;
    };

    await send({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ name: marker.name, email: marker.email, phone: marker.phone, notes: marker.notes }) }, 201);
    await send({ method: 'POST', url: '/v1/contact-us-form', payload: { name: marker.name, email: marker.email, phone: marker.phone, message: marker.message } }, 201);
    await send({ method: 'POST', url: '/v1/auth/login', payload: { password: marker.wrongPassword } }, 401);
    const cookie = await login(app);
    const headers = { cookie };
    const search = await send({ url: `/v1/bookings?q=${encodeURIComponent(marker.email)}`, headers }, 200);
    t.equal(search.json().data.length, 1, 'the search found the booking');
    await send({ url: `/v1/bookings?q=${marker.search}`, headers }, 200);
    const csv = await send({ url: `/v1/bookings/export.csv?q=${encodeURIComponent(marker.name)}`, headers }, 200);
    t.ok(csv.body.includes(marker.email), 'the export holds the booking');

    const all = lines.join('\n');
    for (const [what, value] of Object.entries({ ...marker, password: TEST_ADMIN_PASSWORD, session: cookie.split('=')[1]! })) {
      t.notOk(all.includes(value), `no ${what} in the log`);
    }
    // Percent-encoded and partial forms of the search terms too.
    for (const value of [encodeURIComponent(marker.email), encodeURIComponent(marker.name), unique]) {
      t.notOk(all.includes(value), `no "${value}" in the log`);
    }

    const access = accessLines();
    for (const id of requestIds) {
      const mine = access.filter((entry) => entry.reqId === id);
      t.equal(mine.length, 1, `one access line for request ${id}`);
    }
    t.equal(access.length, requestIds.length + 1, 'one line per request (the sign-in helper included), no more');
    const searchLine = access.find((entry) => entry.reqId === requestIds[3]);
    t.match(searchLine, { method: 'GET', path: '/v1/bookings', status: 200, ms: Number }, 'method, path without its query, status, time');
    t.notOk(lines.some((line) => line.includes('incoming request') || line.includes('request completed')), "Fastify's own request lines are off");
  });
});

t.test('LOG_REQUESTS=errors logs only answers of 400 and above', async (t) => {
  const { app, accessLines } = await appWithCapturedLog(t, { LOG_REQUESTS: 'errors' });
  await app.inject('/healthz');
  await app.inject('/pricing');
  const missing = await app.inject('/v1/no-such-endpoint?q=secret');
  t.equal(missing.statusCode, 404);
  t.same(
    accessLines().map(({ method, path, status }) => ({ method, path, status })),
    [{ method: 'GET', path: '/v1/no-such-endpoint', status: 404 }],
  );
});

t.test('LOG_REQUESTS=none writes no access lines', async (t) => {
  const { app, lines, accessLines } = await appWithCapturedLog(t, { LOG_REQUESTS: 'none' });
  const startUpLines = lines.length;
  await app.inject('/healthz');
  await app.inject('/v1/no-such-endpoint');
  t.same(accessLines(), []);
  t.same(lines.slice(startUpLines), [], 'nothing at all for plain requests');
});

t.test('LOG_REQUESTS accepts only all, errors or none', async (t) => {
  const { loadConfig } = await import('../src/config.ts');
  t.throws(() => loadConfig({ LOG_REQUESTS: 'some' }), /^Invalid configuration: LOG_REQUESTS/);
  t.equal(loadConfig({}).logRequests, 'all', 'every request by default');
});
