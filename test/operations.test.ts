import { Writable } from 'node:stream';
import t from 'tap';
import { buildTestApp, login, proxiedServerDatabase } from './helper.ts';
import { originalClientPayload } from './support/payloads.ts';

const serverUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;

t.test('healthz and readyz answer when the database is up', async (t) => {
  const app = await buildTestApp(t);
  const health = await app.inject('/healthz');
  t.equal(health.statusCode, 200);
  t.same(health.json(), { status: 'ok' });
  const ready = await app.inject('/readyz');
  t.equal(ready.statusCode, 200);
  t.same(ready.json(), { status: 'ok' });
});

t.test('every answer carries a request id, and a sane one given by a proxy is kept', async (t) => {
  const app = await buildTestApp(t);
  const generated = await app.inject('/healthz');
  t.match(generated.headers['x-request-id'], /^[0-9a-f-]{36}$/);
  const given = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'lb-1234' } });
  t.equal(given.headers['x-request-id'], 'lb-1234');
  const hostile = await app.inject({ url: '/healthz', headers: { 'x-request-id': '<script>alert(1)</script>' } });
  t.match(hostile.headers['x-request-id'], /^[0-9a-f-]{36}$/);
});

t.test('logs are JSON with request ids and never hold personal data', async (t) => {
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const app = await buildTestApp(t, { env: { LOG_LEVEL: 'info' }, logStream });
  const payload = originalClientPayload({ name: 'Wiremu Private', email: 'wiremu.private@example.com', phone: '021 999 8888', notes: 'Secret gate code 4321', houseNumber: '99Z' });
  t.equal((await app.inject({ method: 'POST', url: '/v1/create-booking', payload })).statusCode, 201);
  t.equal((await app.inject({ method: 'POST', url: '/v1/create-booking', payload: { ...payload, email: 'wiremu.private@' } })).statusCode, 400);
  const cookie = await login(app);
  await app.inject({ url: '/v1/getall-booking', headers: { cookie, authorization: 'Bearer top-secret-token' } });
  await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { password: 'a wrong guess' } });

  t.ok(lines.length > 5, 'something was logged');
  const entries = lines.map((line) => JSON.parse(line));
  t.ok(entries.some((e) => e.reqId && e.msg === 'booking created' && e.bookingId), 'the booking is logged by id with the request id');
  const all = lines.join('\n');
  for (const secret of ['Wiremu', 'wiremu.private', '021 999 8888', 'Secret gate', '99Z', cookie.split('=')[1]!, 'top-secret-token', 'a wrong guess']) {
    t.notOk(all.includes(secret), `no "${secret.slice(0, 12)}" in the logs`);
  }
});

t.test('the OpenAPI document is generated from the schemas', async (t) => {
  const app = await buildTestApp(t);
  const res = await app.inject('/v1/openapi.json');
  t.equal(res.statusCode, 200);
  const doc = res.json();
  t.match(doc.openapi, /^3\./);
  t.ok(doc.paths['/v1/create-booking']?.post, 'create-booking');
  t.ok(doc.paths['/v1/contact-us-form']?.post, 'contact-us-form');
  t.ok(doc.paths['/v1/auth/login']?.post, 'login');
  t.same(doc.paths['/v1/getall-booking']?.get?.security, [{ staffSession: [] }], 'staff endpoint names its cookie');
  t.equal(doc.components.securitySchemes.staffSession.in, 'cookie');
  t.equal(doc.paths['/v1/create-booking'].post.requestBody.content['application/json'].schema.additionalProperties, false);
});

t.test('while PostgreSQL is unreachable the server stays up, answers 503 fast, and recovers by itself', { skip: serverUrl ? false : 'needs a PostgreSQL server: set TEST_DATABASE_URL' }, async (t) => {
  const { url, proxy } = await proxiedServerDatabase(t);
  const app = await buildTestApp(t, { env: { DATABASE_URL: url, DB_CONNECT_TIMEOUT_MS: '1000' } });
  const book = (time: string) => app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ time }) });

  t.equal((await book('07:00')).statusCode, 201);
  await proxy.cut();

  const started = Date.now();
  const during = await book('08:00');
  t.equal(during.statusCode, 503);
  t.match(during.json(), { message: /temporarily unavailable/, errors: [] });
  t.ok(Number(during.headers['retry-after']) > 0, 'Retry-After');
  t.ok(Date.now() - started < 3000, 'answered within the connect timeout');
  t.equal((await app.inject('/readyz')).statusCode, 503);
  t.equal((await app.inject('/healthz')).statusCode, 200, 'the process is still up');
  t.equal((await app.inject('/')).statusCode, 200, 'pages need no database');

  await proxy.restore();
  const deadline = Date.now() + 30_000;
  let ready = 503;
  while (ready !== 200 && Date.now() < deadline) {
    ready = (await app.inject('/readyz')).statusCode;
    if (ready !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  t.equal(ready, 200, 'ready again');
  t.equal((await book('08:00')).statusCode, 201, 'bookings work again');
});

t.test('started while PostgreSQL is unreachable, it serves 503 and finishes start-up when the database comes', { skip: serverUrl ? false : 'needs a PostgreSQL server: set TEST_DATABASE_URL' }, async (t) => {
  const { url, proxy } = await proxiedServerDatabase(t);
  await proxy.cut();
  const app = await buildTestApp(t, { env: { DATABASE_URL: url, DB_CONNECT_TIMEOUT_MS: '1000' } });

  t.equal((await app.inject('/healthz')).statusCode, 200);
  const early = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload() });
  t.equal(early.statusCode, 503);
  t.equal((await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { password: 'x' } })).statusCode, 503);

  await proxy.restore();
  const deadline = Date.now() + 30_000;
  let status = 503;
  while (status === 503 && Date.now() < deadline) {
    status = (await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload() })).statusCode;
    if (status === 503) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  t.equal(status, 201, 'migrations ran and the booking was taken');
});
