/** Issue 23's findings on connections, origins, addresses, sign-in names, client budgets and logs: each with its proof. */
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import t from 'tap';
import { loadConfig } from '../src/config.ts';
import { MESSAGES } from '../src/domain/messages.ts';
import { EMAIL_PATTERN } from '../src/domain/text-rules.ts';
import { clientKey } from '../src/plugins/external/rate-limit.ts';
import { loggedPath, withoutSecrets } from '../src/logger.ts';
import { manageLinkFor } from '../src/db/manage-link.repository.ts';
import { validateContact } from '../src/domain/contact-rules.ts';
import { validateDetailsStep } from '../src/domain/booking-rules.ts';
import { buildTestApp, forEachBackend, TEST_ADMIN_PASSWORD } from './helper.ts';
import { inDays, originalClientPayload } from './support/payloads.ts';

/** Resolves once `condition` holds, polling; fails after `ms`. Never a fixed sleep. */
async function waitFor(condition: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

t.test('a slow body is cut off after REQUEST_TIMEOUT_SECONDS', async (t) => {
  t.equal(loadConfig({}).requestTimeoutMs, 30_000, 'thirty seconds unless told');
  t.equal(loadConfig({ REQUEST_TIMEOUT_SECONDS: '0' }).requestTimeoutMs, 0, '0 turns it off');
  t.throws(() => loadConfig({ REQUEST_TIMEOUT_SECONDS: '-1' }), /^Invalid configuration: REQUEST_TIMEOUT_SECONDS/);
  t.throws(() => loadConfig({ REQUEST_TIMEOUT_SECONDS: 'soon' }), /^Invalid configuration: REQUEST_TIMEOUT_SECONDS/);

  const app = await buildTestApp(t, { listen: true, env: { REQUEST_TIMEOUT_SECONDS: '1' } });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  t.equal(app.server.requestTimeout, 1000);
  t.equal(app.server.timeout, 1000);

  const socket = connect(address.port, '127.0.0.1');
  let received = '';
  let closed = false;
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('close', () => (closed = true));
  socket.on('error', () => (closed = true));
  t.teardown(() => void socket.destroy());
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const started = Date.now();
  socket.write('POST /v1/contact-us-form HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');
  t.ok(await waitFor(() => closed || /^HTTP\/1\.1 408/.test(received), 10_000), 'a 408 or a closed connection');
  t.ok(Date.now() - started < 10_000, `within a few seconds (${Date.now() - started} ms)`);
  t.ok(received === '' || received.startsWith('HTTP/1.1 408'), 'no answer other than 408');

  t.test('a write without a Host header is refused', async (t) => {
    // HTTP/1.0 may leave Host out (Node refuses an HTTP/1.1 request without one by itself).
    const answer = await rawRequest(address.port, 'POST /v1/contact-us-form HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}');
    t.match(answer, /^HTTP\/1\.1 403/);
    const withHost = await rawRequest(address.port, `POST /v1/contact-us-form HTTP/1.0\r\nHost: 127.0.0.1:${address.port}\r\nOrigin: http://127.0.0.1:${address.port}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`);
    t.match(withHost, /^HTTP\/1\.1 400/, 'the same request with its Host reaches validation');
  });
});

/** Sends `request` on a new connection and resolves with everything received until the server closes it. */
function rawRequest(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
}

t.test('without PUBLIC_URL, Origin must match the scheme, host and port the server answers on', async (t) => {
  const app = await buildTestApp(t, { env: { TRUST_PROXY: '127.0.0.1' } });
  const post = (headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
    app.inject({ method: 'POST', url: '/v1/contact-us-form', remoteAddress, headers: { 'sec-fetch-site': 'same-origin', ...headers }, payload: { name: '' } });

  t.equal((await post({ host: 'valet.test:3000', origin: 'http://valet.test:3000' })).statusCode, 400, 'the same origin is accepted (and reaches validation)');
  t.equal((await post({ host: 'valet.test:3000', origin: 'https://valet.test:3000' })).statusCode, 403, 'https is another origin than the http site');
  t.equal((await post({ host: 'valet.test', origin: 'https://valet.test' })).statusCode, 403, 'default ports too');
  t.equal((await post({ host: 'valet.test', origin: 'http://valet.test' })).statusCode, 400);
  t.equal((await post({ host: 'valet.test:80', origin: 'http://valet.test' })).statusCode, 400, "Host may name the scheme's default port");
  t.equal((await post({ host: 'valet.test:3000', origin: 'http://valet.test:3001' })).statusCode, 403, 'another port');
  t.equal((await post({ host: 'valet.test:3000', origin: 'http://evil.test:3000' })).statusCode, 403, 'another host');
  t.equal((await post({ host: 'valet.test', origin: 'null' })).statusCode, 403, 'an opaque origin');

  const proxied = { host: 'app:3000', 'x-forwarded-host': 'valet.example.nz', 'x-forwarded-proto': 'https' };
  t.equal((await post({ ...proxied, origin: 'https://valet.example.nz' })).statusCode, 400, "behind the trusted proxy, the origin it says the browser addressed");
  t.equal((await post({ ...proxied, origin: 'http://valet.example.nz' })).statusCode, 403, 'http is refused for the https site');
  t.equal((await post({ ...proxied, origin: 'https://valet.example.nz' }, '198.51.100.7')).statusCode, 403, 'forwarded headers from a peer that is not the proxy are not believed');
  t.equal((await post({ host: 'valet.test' })).statusCode, 400, 'a client that sends no Origin (curl) is not a browser: unchanged');
});

const NOT_FOR_PEOPLE = [
  'x@127.0.0.1',
  'x@[10.0.0.5]',
  'x@[IPv6:::1]',
  'x@localhost',
  'x@printer',
  'x@printer.local',
  'x@PRINTER.LOCAL',
  'x@metadata.internal',
  'x@web.localhost',
  'x@a.invalid',
  'x@shop.test',
  'x@hidden.onion',
  'x@home.arpa',
  'x@nas.home.arpa',
  'x@box.localdomain',
  'a%b@example.com',
];
const FOR_PEOPLE = ['x@example.com', 'x@mail.example.com', 'aroha+bookings@example.com', 'x@example.co.nz', 'Mere.Ngata@Example.CO.NZ', "o'brien@example.org", 'x@test.example.com', 'x@xn--80ak6aa92e.com'];

t.test('the e-mail rule refuses addresses that are not for people, in the rules the browser and the server run', async (t) => {
  for (const email of NOT_FOR_PEOPLE) {
    t.notOk(EMAIL_PATTERN.test(email), `${email} refused`);
    t.ok(new RegExp(EMAIL_PATTERN.source).test(email) === false, `${email} refused by the source alone (no flags)`);
    // The rules the browser runs before sending, and the server runs again.
    t.same(validateDetailsStep({ name: 'Mere', email, phone: '021 555 1234' }), [{ field: 'email', message: MESSAGES.emailInvalid }], `${email}: booking's message`);
    t.same(
      validateContact({ name: 'Mere', email, phone: '021 555 1234', message: 'Hi' }).map((e) => e.message),
      [MESSAGES.emailInvalid],
      `${email}: contact's message`,
    );
  }
  for (const email of FOR_PEOPLE) {
    t.ok(EMAIL_PATTERN.test(email), `${email} accepted`);
    t.same(validateDetailsStep({ name: 'Mere', email, phone: '021 555 1234' }), [], `${email}: booking`);
  }
  t.equal(MESSAGES.emailInvalid, 'Please enter a valid email address');
  t.equal(loadConfig({ MAIL_FROM: 'hello@example.co.nz' }).mail.from.address, 'hello@example.co.nz', "the configuration's addresses still validate");
  t.equal(loadConfig({ STAFF_EMAIL: 'staff@office.internal' }).mail.staffEmail, 'staff@office.internal', "the business's own addresses are only checked for shape: its relay may serve its own network");
  t.throws(() => loadConfig({ MAIL_FROM: 'not an address' }), /^Invalid configuration: MAIL_FROM/);
});

forEachBackend(t, async (t, backend) => {
  const app = await buildTestApp(t, { backend });
  const post = (url: string, payload: object) => app.inject({ method: 'POST', url, payload });
  const emailErrors = (body: { errors: { field: string; message: string }[] }) => body.errors.filter((e) => e.field === 'email').map((e) => e.message);

  t.test('the API refuses them with the field\'s message: create-booking, contact-us-form, quote; nothing is written', async (t) => {
    for (const email of NOT_FOR_PEOPLE) {
      const booking = await post('/v1/create-booking', originalClientPayload({ email }));
      t.equal(booking.statusCode, 400, `create-booking ${email}`);
      t.same(emailErrors(booking.json()), [MESSAGES.emailInvalid]);
      const contact = await post('/v1/contact-us-form', { name: 'Tane', email, phone: '021 555 1234', message: 'Hi' });
      t.equal(contact.statusCode, 400, `contact-us-form ${email}`);
      t.same(emailErrors(contact.json()), [MESSAGES.emailInvalid]);
      const quote = await post('/v1/quote', { service: 'Quick Clean', vehicleType: 'sm', email });
      t.equal(quote.statusCode, 400, `quote ${email}`);
      t.same(emailErrors(quote.json()), [MESSAGES.emailInvalid]);
    }
    t.equal((await app.db.selectFrom('bookings').select('id').execute()).length, 0);
    t.equal((await app.db.selectFrom('contact_messages').select('id').execute()).length, 0);
    t.equal((await app.db.selectFrom('outbox_emails').select('id').execute()).length, 0, 'no e-mail handed to the relay');
  });

  t.test('both sign-in doors refuse a staff name with a control character, with the same message; no session starts', async (t) => {
    const pageState = (html: string) => JSON.parse(/<script type="application\/json" id="__DATA__">([\s\S]*?)<\/script>/.exec(html)![1]!).state;
    for (const name of ['Sam\u0000', 'Sam\u001b[31m', 'Sam\nROLE=admin', 'Sam\u0007']) {
      const json = await post('/v1/auth/login', { password: TEST_ADMIN_PASSWORD, name });
      t.equal(json.statusCode, 400, `JSON door: ${JSON.stringify(name)}`);
      t.same(json.json(), { message: MESSAGES.controlCharacters, errors: [{ field: 'name', message: MESSAGES.controlCharacters }] });
      const form = await app.inject({
        method: 'POST',
        url: '/dashboard/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ password: TEST_ADMIN_PASSWORD, name }).toString(),
      });
      t.equal(form.statusCode, 400, `form door: ${JSON.stringify(name)}`);
      t.match(form.headers['content-type'], /^text\/html/, 'the page, with the message on it');
      t.match(pageState(form.body), { signedIn: false, signInError: MESSAGES.controlCharacters });
      t.equal(form.headers['set-cookie'], undefined);
    }
    t.equal((await app.db.selectFrom('staff_sessions').select('id_hash').execute()).length, 0, 'no session was started');
    const wrong = await app.inject({ method: 'POST', url: '/dashboard/login', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'password=&name=Sam' });
    t.equal(wrong.statusCode, 401, 'an empty password is still a wrong one on the form');
    t.match(pageState(wrong.body), { signInError: 'Incorrect password' });
    const tab = await app.inject({ method: 'POST', url: '/dashboard/login', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ password: TEST_ADMIN_PASSWORD, name: 'Sam\tK' }).toString() });
    t.equal(tab.statusCode, 303, 'a tab is allowed at both doors, as in the shared text rules');
  });

  t.test('normal addresses still pass at each door', async (t) => {
    const accepted = ['x@mail.example.com', 'aroha+bookings@example.com', 'x@example.co.nz'];
    for (const [i, email] of accepted.entries()) {
      const booking = await post('/v1/create-booking', originalClientPayload({ email, date: inDays(3 + i) }));
      t.equal(booking.statusCode, 201, `create-booking ${email}`);
      t.equal((await post('/v1/contact-us-form', { name: 'Tane', email, phone: '021 555 1234', message: 'Hi' })).statusCode, 201, `contact-us-form ${email}`);
      t.equal((await post('/v1/quote', { service: 'Quick Clean', vehicleType: 'sm', email })).statusCode, 200, `quote ${email}`);
    }
  });
});

t.test('an IPv6 client is counted by its /64, through a trusted proxy too', async (t) => {
  t.equal(clientKey('203.0.113.5'), '203.0.113.5', 'IPv4: the full address');
  t.equal(clientKey('::ffff:203.0.113.5'), '203.0.113.5', 'IPv4-mapped: the IPv4 address');
  t.equal(clientKey('::FFFF:cb00:7105'), '203.0.113.5', 'in hex too');
  t.equal(clientKey('2001:db8:1:2::1'), '2001:db8:1:2::/64');
  t.equal(clientKey('2001:DB8:1:2:ffff:ffff:ffff:ffff'), '2001:db8:1:2::/64', 'any address of the /64, in any case');
  t.equal(clientKey('2001:db8:0:0:1::'), '2001:db8:0:0::/64');
  t.equal(clientKey('fe80::1%eth0'), 'fe80:0:0:0::/64', 'a zone is not part of the client');

  const app = await buildTestApp(t, { env: { TRUST_PROXY: '127.0.0.1', RATE_LIMIT_FORMS_MAX: '1', RATE_LIMIT_LOGIN_MAX: '1' } });
  const send = (url: string, forwarded: string) => app.inject({ method: 'POST', url, remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': forwarded }, payload: {} });
  t.equal((await send('/v1/contact-us-form', '2001:db8:1:2::1')).statusCode, 400, 'the first message of the /64 is checked');
  t.equal((await send('/v1/contact-us-form', '2001:db8:1:2:a:b:c:d')).statusCode, 429, 'another address of the same /64 shares its budget');
  t.equal((await send('/v1/contact-us-form', '2001:db8:1:3::1')).statusCode, 400, 'the next /64 has its own');
  t.equal((await send('/v1/contact-us-form', '203.0.113.5')).statusCode, 400);
  t.equal((await send('/v1/contact-us-form', '::ffff:203.0.113.5')).statusCode, 429, 'an IPv4-mapped address is its IPv4 client');
  t.equal((await send('/v1/contact-us-form', '203.0.113.6')).statusCode, 400, 'IPv4 clients are still each their own');
  t.equal((await send('/v1/auth/login', '2001:db8:9:9::1')).statusCode, 400, 'sign-in, the same way');
  t.equal((await send('/v1/auth/login', '2001:db8:9:9::2')).statusCode, 429);
});

forEachBackend(t, async (t, backend) => {
  t.test('a manage token never reaches the log, however its path is encoded', async (t) => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const app = await buildTestApp(t, { backend, env: { LOG_LEVEL: 'info' }, logStream });
    const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: inDays(5) }) });
    const path = new URL((await manageLinkFor(app.db, res.json().id, 'http://x'))!).pathname;
    const token = path.split('/').at(-1)!;
    const plain = await app.inject(path);
    t.equal(plain.statusCode, 200);
    const access = () => lines.map((line) => JSON.parse(line) as { msg: string; path?: string }).filter((entry) => entry.msg === 'request');

    for (const encoded of [`/%62ooking/manage/${token}`, `/booking/%6Danage/${token}`, `/booking/manage/%${token.charCodeAt(0).toString(16)}${token.slice(1)}`, `/booking/manage/${token}/cancel`, `/%62ooking/manage/${token}/move?x=1`]) {
      const before = access().length;
      const page = await app.inject(encoded);
      const line = access().slice(before);
      const shown = encoded.replace(token, '<token>').replace(token.slice(1), '<token>');
      t.equal(line.length, 1, `one access line for ${shown}`);
      if (page.statusCode === 200) t.match(line[0]!.path, /^\/booking\/manage\/\[token\]/, `it opened the page (${page.statusCode}): logged by its route`);
    }
    // Paths no route answers: the text rule, reading the path as the router does.
    for (const unmatched of [`/booking/manage/${token}/nothing/here`, `/BOOKING/MANAGE/${token}`, `/%62ooking%2Fmanage%2F${token}`, `//booking//manage/${token}`]) {
      await app.inject({ method: 'POST', url: unmatched, payload: {} });
    }
    t.notOk(lines.some((line) => line.includes(token)), 'no line holds the token');
    t.notOk(lines.some((line) => line.includes(token.slice(1))), 'nor its percent-encoded form');
  });
});

t.test('loggedPath masks by the route that answered; withoutSecrets reads a path as the router does', async (t) => {
  t.equal(loggedPath({ url: '/%62ooking/manage/abc?x=1', routeOptions: { url: '/booking/manage/:token' }, params: { token: 'abc' } }), '/booking/manage/[token]');
  t.equal(loggedPath({ url: '/booking/%6Danage/abc/move', routeOptions: { url: '/booking/manage/:token/move' } }), '/booking/manage/[token]/move');
  t.equal(loggedPath({ url: '/v1/bookings/5?q=secret', routeOptions: { url: '/v1/bookings/:id' }, params: { id: '5' } }), '/v1/bookings/5', 'other routes: the path, no query');
  t.equal(loggedPath({ url: '/booking/manage/abc/zzz' }), '/booking/manage/[token]/zzz', 'no route: the text rule');
  t.equal(withoutSecrets('/%62ooking/manage/abc'), '/booking/manage/[token]');
  t.equal(withoutSecrets('/BOOKING//manage/abc'), '/BOOKING//manage/[token]');
  t.equal(withoutSecrets('/caf%C3%A9'), '/caf%C3%A9', 'a path without a token is logged as it came');
});

t.test("PostgreSQL's class 53 (short of memory, of lock slots, of disk) is the database unavailable for a moment (503), not a fault (500)", async (t) => {
  const { isResourceShortage } = await import('../src/errors.ts');
  const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });
  t.ok(isResourceShortage(pgError('53200', 'out of shared memory')), 'a full lock table');
  t.ok(isResourceShortage(pgError('53100', 'could not extend file')), 'a full disk');
  t.notOk(isResourceShortage(pgError('22001', 'value too long')), 'a data exception is the input');
  t.notOk(isResourceShortage(pgError('23P01', 'conflicting key value')), 'a constraint is not');
  t.notOk(isResourceShortage(new Error('no code')));
  t.notOk(isResourceShortage({ code: '53200' }), 'only errors');
});
