/**
 * Issue 24: a page that is the same for everyone is answered, once cached, by the lean path in
 * front of Fastify (src/direct-pages.ts), with the same bytes and headers as Fastify's answer and
 * one access line per request; and the production server's access lines all reach its output,
 * written asynchronously, even when it is stopped right after a burst of requests.
 */
import { once } from 'node:events';
import { Writable } from 'node:stream';
import t from 'tap';
import { baseUrl, buildTestApp, createServerDatabase, TEST_ADMIN_PASSWORD } from './helper.ts';
import { startBuiltServer, waitFor } from './support/server-process.ts';

interface AccessLine {
  msg: string;
  reqId?: string;
  method?: string;
  path?: string;
  status?: number;
  ms?: number;
}

const PER_REQUEST = new Set(['date', 'x-request-id', 'connection', 'keep-alive']);
const headersOf = (res: Response) => Object.fromEntries([...res.headers].filter(([name]) => !PER_REQUEST.has(name)));

t.test('a form page: the same body for everyone from the lean path, and a cookie of its own for each answer', async (t) => {
  const app = await buildTestApp(t, { listen: true });
  const base = baseUrl(app);
  const cookieOf = (res: Response) => /^form_started=(\d+\.[0-9a-f]{32}\.[\w-]+);/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  const first = await fetch(`${base}/contact`, { headers: { 'accept-encoding': 'br' } });
  t.ok(app.directPages.has('/contact'), 'the contact page is on the lean path once rendered');
  const second = await fetch(`${base}/contact`, { headers: { 'accept-encoding': 'br' } });
  const [firstBody, secondBody] = [Buffer.from(await first.arrayBuffer()), Buffer.from(await second.arrayBuffer())];
  t.ok(secondBody.equals(firstBody), 'the same bytes, compressed once');
  t.equal(second.headers.get('etag'), first.headers.get('etag'));
  t.equal(second.headers.get('cache-control'), 'no-cache');
  t.ok(cookieOf(first) && cookieOf(second), 'each answer sets the form guard’s cookie');
  t.not(cookieOf(second), cookieOf(first), 'with a token of its own');
  t.match(second.headers.get('set-cookie'), /; HttpOnly; SameSite=Lax$/);
  const revalidated = await fetch(`${base}/contact`, { headers: { 'if-none-match': first.headers.get('etag')! } });
  t.equal(revalidated.status, 304);
  t.ok(cookieOf(revalidated), 'a revalidated view gets a new cookie too: its time to fill starts now');
  t.notMatch(secondBody.toString('latin1'), /name="submission"/, 'no token in the page');
  await fetch(`${base}/booking/find`);
  t.ok(app.directPages.has('/booking/find'), 'so is the find-booking form');
});

t.test('the booking page: on the lean path until midnight in Auckland, then the new day\'s page', async (t) => {
  // 23:59:30 in Auckland (NZDT, UTC+13) on 2026-12-10.
  let clock = new Date('2026-12-10T10:59:30Z');
  const app = await buildTestApp(t, { listen: true, now: () => clock });
  const base = baseUrl(app);
  const earliest = async () => /"minDate":"(\d{4}-\d{2}-\d{2})"/.exec(await (await fetch(`${base}/booking`)).text())?.[1];
  t.equal(await earliest(), '2026-12-11', 'tomorrow is the earliest date');
  t.ok(app.directPages.has('/booking'), 'then the page is on the lean path');
  const lean = await fetch(`${base}/booking`);
  t.match(lean.headers.get('set-cookie'), /^form_started=\d+\.[0-9a-f]{32}\./, 'with the form guard’s cookie on each answer');
  t.match(await lean.text(), /"minDate":"2026-12-11"/);
  clock = new Date('2026-12-10T11:00:30Z'); // 00:00:30 on the 11th in Auckland
  t.equal(await earliest(), '2026-12-12', 'after midnight, the new day’s page: not the cached one');
  t.equal(await earliest(), '2026-12-12', 'and the lean path sends that one from then on');
  t.ok(app.directPages.has('/booking'));

  // A package's page at the address the pricing page links to goes the same way; other queries do not.
  const chosen = async (address: string) => {
    const res = await fetch(`${base}${address}`, { headers: { 'accept-encoding': 'br' } });
    return { status: res.status, cookie: res.headers.get('set-cookie'), body: Buffer.from(await res.arrayBuffer()) };
  };
  const fromFastify = await chosen('/booking?package=ceramic-coating');
  t.ok(app.directPages.has('/booking?package=ceramic-coating'), 'a package page is on the lean path once rendered');
  const fromLean = await chosen('/booking?package=ceramic-coating');
  t.equal(fromLean.status, 200);
  t.ok(fromLean.body.equals(fromFastify.body), 'with the bytes Fastify sent');
  t.match(fromLean.cookie, /^form_started=/, 'and a form guard cookie of its own');
  for (const other of ['/booking?package=ceramic-coating&x=1', '/booking?package=Ceramic%20Coating', '/booking?package=nothing-such']) {
    t.equal((await chosen(other)).status, 200, other);
    t.notOk(app.directPages.has(other), `${other}: Fastify answers it, each time`);
  }
  clock = new Date('2026-12-11T11:00:30Z'); // the next midnight
  const packageDay = async () => /"minDate":"(\d{4}-\d{2}-\d{2})"/.exec(await (await fetch(`${base}/booking?package=ceramic-coating`)).text())?.[1];
  t.equal(await packageDay(), '2026-12-13', 'after midnight, the new day\'s package page');
  t.equal(await packageDay(), '2026-12-13', 'from the lean path too');
  t.ok(app.directPages.has('/booking?package=ceramic-coating'));
});

t.test('a page the same for everyone: the lean path sends what Fastify sent, and logs it', async (t) => {
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const app = await buildTestApp(t, { env: { LOG_LEVEL: 'info' }, logStream, listen: true });
  const base = baseUrl(app);
  const access = () => lines.map((line) => JSON.parse(line) as AccessLine).filter((entry) => entry.msg === 'request');

  t.notOk(app.directPages.has('/pricing'), 'not before it was rendered');
  const first = await fetch(`${base}/pricing`, { headers: { 'accept-encoding': 'br', 'x-request-id': 'first-request' } });
  t.ok(app.directPages.has('/pricing'), 'Fastify rendered it and handed it on');
  const second = await fetch(`${base}/pricing`, { headers: { 'accept-encoding': 'br', 'x-request-id': 'second-request' } });
  t.equal(second.status, 200);
  t.equal(second.headers.get('x-request-id'), 'second-request', 'the client’s request id');
  t.same(headersOf(second), headersOf(first), 'the same headers as Fastify’s answer');
  const [firstBody, secondBody] = [Buffer.from(await first.arrayBuffer()), Buffer.from(await second.arrayBuffer())];
  t.ok(secondBody.equals(firstBody), 'the same bytes');
  t.equal(second.headers.get('content-encoding'), 'br');
  t.match(secondBody.toString(), /<style>[^<]+<\/style>/, 'with the inlined style block');
  t.match(second.headers.get('content-security-policy'), /style-src 'self' 'sha256-[^']+' 'sha256-[^']+'/, 'the policy that allows it');

  const plain = await fetch(`${base}/pricing`, { headers: { 'accept-encoding': 'identity', 'x-request-id': 'bad id!' } });
  t.equal(plain.headers.get('content-encoding'), null, 'uncompressed for a client that takes no encoding');
  t.match(plain.headers.get('x-request-id'), /^[0-9a-f-]{36}$/, 'a malformed request id is replaced');
  t.match(await plain.text(), /^<!doctype html>/);

  const notModified = await fetch(`${base}/pricing`, { headers: { 'if-none-match': first.headers.get('etag')! } });
  t.equal(notModified.status, 304, 'a repeat visit is a 304');
  t.equal(notModified.headers.get('etag'), first.headers.get('etag'));

  // What is not such a page still goes through Fastify: a query string, HEAD, a form.
  t.equal((await fetch(`${base}/pricing?x=1`)).status, 200);
  t.notOk(app.directPages.has('/pricing?x=1'));
  t.equal((await fetch(`${base}/pricing`, { method: 'HEAD' })).status, 200);
  await fetch(`${base}/booking?package=Deluxe%20Clean`);
  t.notOk(app.directPages.has('/booking?package=Deluxe%20Clean'), 'nor a package\'s page at another address than the site links to');

  await waitFor(async () => access().length >= 7, 5000);
  const pricing = access().filter((entry) => entry.path === '/pricing');
  t.same(
    pricing.map(({ reqId, method, status }) => ({ reqId, method, status })),
    [
      { reqId: 'first-request', method: 'GET', status: 200 },
      { reqId: 'second-request', method: 'GET', status: 200 },
      { reqId: plain.headers.get('x-request-id'), method: 'GET', status: 200 },
      { reqId: notModified.headers.get('x-request-id'), method: 'GET', status: 304 },
      { reqId: pricing[4]?.reqId, method: 'GET', status: 200 },
      { reqId: pricing[5]?.reqId, method: 'HEAD', status: 200 },
    ],
    'one access line per request, the lean path’s as Fastify’s',
  );
  t.ok(pricing.every((entry) => typeof entry.ms === 'number'), 'each with its time');
});

t.test('LOG_REQUESTS=errors: the lean path writes no line for its answers', async (t) => {
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const app = await buildTestApp(t, { env: { LOG_LEVEL: 'info', LOG_REQUESTS: 'errors' }, logStream, listen: true });
  const base = baseUrl(app);
  await fetch(`${base}/about`);
  await fetch(`${base}/about`);
  t.ok(app.directPages.has('/about'));
  t.notOk(lines.join('').includes('"msg":"request"'));
});

// One production server for both (each start costs seconds on a busy machine): on PostgreSQL when
// there is one (a migrated copy starts at once); the embedded database runs initdb first.
t.test('the production server: a lone access line reaches the log within about a second on a quiet server (LOG_BUFFER_BYTES); every line of a burst is written even when stopped right after it', async (t) => {
  const database: Record<string, string> = process.env.TEST_DATABASE_URL ? { DATABASE_URL: await createServerDatabase(t, { migrated: true }) } : { DATA_DIR: 'memory://' };
  const server = await startBuiltServer(t, { LOG_LEVEL: 'info', LOG_REQUESTS: 'all', ADMIN_PASSWORD: TEST_ADMIN_PASSWORD, ...database });
  t.ok(await waitFor(async () => (await fetch(`${server.base}/readyz`).catch(() => undefined))?.status === 200, 180_000), 'ready');
  await fetch(`${server.base}/pricing`, { headers: { 'x-request-id': 'lone-line' } }).then((res) => res.arrayBuffer());
  // Far less than the 4 KB batch: only the timer writes it.
  t.ok(await waitFor(async () => server.output().includes('"reqId":"lone-line"'), 5_000), 'written without more traffic or a stop');
  t.equal(server.child.exitCode, null, 'the server is still running');

  const COUNT = 300;
  const ids = Array.from({ length: COUNT }, (_, i) => `burst-${i}`);
  for (let i = 0; i < COUNT; i += 50) {
    await Promise.all(ids.slice(i, i + 50).map((id) => fetch(`${server.base}/${i % 100 === 0 ? 'pricing' : 'services'}`, { headers: { 'x-request-id': id } }).then((res) => res.arrayBuffer())));
  }
  server.child.kill('SIGTERM');
  await once(server.child, 'exit');
  const logged = new Set(
    server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as AccessLine)
      .filter((entry) => entry.msg === 'request')
      .map((entry) => entry.reqId),
  );
  t.same(
    ids.filter((id) => !logged.has(id)),
    [],
    `all ${COUNT} access lines were written before the process ended`,
  );
});
