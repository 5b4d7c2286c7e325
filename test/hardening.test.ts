/** Issue 12's findings 1 and 5 to 9: each refused or fixed, each with its proof. */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import t from 'tap';
import { MAX_URL_LENGTH } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { withoutTrailingSlashes } from '../src/plugins/app/render.ts';
import { firstDuplicateKey } from '../src/plugins/app/json-body.ts';
import { setPasswordCommand } from '../src/plugins/app/auth.ts';
import { passwordProblem } from '../src/password-policy.ts';
import { buildTestApp, forEachBackend, login, TEST_ADMIN_PASSWORD } from './helper.ts';
import { bookingRow, originalClientPayload } from './support/payloads.ts';

t.test('one app behind a trusted proxy at 127.0.0.1, with PUBLIC_URL set', async (t) => {
  const app = await buildTestApp(t, { env: { PUBLIC_URL: 'https://valet.example.nz', RATE_LIMIT_FORMS_MAX: '1', TRUST_PROXY: '127.0.0.1' } });

  t.test('1: a path of many slashes costs linear time, and a huge URL is refused before any work', async (t) => {
    // The old pattern /(.)\/+$/ takes minutes on 200,000 slashes (quadratic); the loop, microseconds.
    const slashes = `/x${'/'.repeat(200_000)}a/`;
    const started = performance.now();
    t.equal(withoutTrailingSlashes(slashes).length, slashes.length - 1);
    t.ok(performance.now() - started < 2_000, 'linear, far under a generous bound');
    t.equal(withoutTrailingSlashes('/about///'), '/about');
    t.equal(withoutTrailingSlashes('/'), '/');

    const huge = await app.inject(`/x${'/'.repeat(64 * 1024)}a`);
    t.equal(huge.statusCode, 414);
    t.match(huge.json(), { message: /too long/ });
    const atCap = await app.inject(`/x${'/'.repeat(MAX_URL_LENGTH - 3)}a`);
    t.equal(atCap.statusCode, 404, 'a long path under the cap is an ordinary 404');
    const [healthy] = await Promise.all([app.inject('/healthz'), ...Array.from({ length: 5 }, () => app.inject(`/x${'/'.repeat(64 * 1024)}`))]);
    t.equal(healthy.statusCode, 200, '/healthz answers beside them');
    t.equal((await app.inject(`/v1/bookings/${'a'.repeat(500)}`)).statusCode, 414, 'an over-long route parameter is refused by the router');
  });

  t.test('5: a direct client cannot choose its rate-limit key with X-Forwarded-For', async (t) => {
    t.throws(() => loadConfig({ TRUST_PROXY: '1' }), /TRUST_PROXY must be true, false or the addresses/);
    const send = (forwarded: string, remoteAddress: string) =>
      app.inject({ method: 'POST', url: '/v1/contact-us-form', remoteAddress, headers: { 'x-forwarded-for': forwarded }, payload: { name: '' } });
    t.equal((await send('203.0.113.3', '198.51.100.7')).statusCode, 400);
    t.equal((await send('203.0.113.4', '198.51.100.7')).statusCode, 429, 'a peer that is not the proxy is not believed: a new X-Forwarded-For is not a new client');
    t.equal((await send('203.0.113.1', '127.0.0.1')).statusCode, 400);
    t.equal((await send('203.0.113.2', '127.0.0.1')).statusCode, 400, 'behind the trusted proxy, each client has its own budget');
    t.equal((await send('203.0.113.9, 203.0.113.2', '127.0.0.1')).statusCode, 429, 'an address the client wrote in front is ignored');
  });

  t.test('9: with PUBLIC_URL set, a write is same-origin when Origin is that origin, whatever Host a proxy sends', async (t) => {
    const cookie = await login(app);
    const [row] = await app.db.insertInto('bookings').values(bookingRow()).returning('id').execute();
    const change = (origin: string) =>
      app.inject({ method: 'POST', url: `/v1/bookings/${row!.id}/status`, headers: { cookie, origin, host: 'app:3000', 'sec-fetch-site': 'same-origin' }, payload: { status: 'confirmed', version: 1 } });
    t.equal((await change('http://app:3000')).statusCode, 403, 'Host is not the reference any more');
    t.equal((await change('https://valet.example.nz')).statusCode, 200);
  });
});

forEachBackend(t, async (t, backend) => {
  // ADMIN_PASSWORD itself (not the suite's ready-made hash): finding 8 checks what is kept of it.
  const app = await buildTestApp(t, { backend, env: { ADMIN_PASSWORD: TEST_ADMIN_PASSWORD } });
  const count = async (table: 'bookings' | 'contact_messages') => (await app.db.selectFrom(table).selectAll().execute()).length;

  t.test('6: control characters are a 400 naming the field, in both forms and both APIs; nothing is written', async (t) => {
    const cases: [string, string][] = [['name', 'Mere\u0000Ngata'], ['notes', 'gate\u001bcode'], ['streetAddress', 'Queen\nStreet'], ['email', 'a\u0007@example.com']];
    for (const [field, value] of cases) {
      const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ [field]: value }) });
      t.equal(res.statusCode, 400, field);
      t.ok(res.json().errors.some((e: { field: string; message: string }) => e.field === field && /control characters/.test(e.message)), `${field} named`);
    }
    const notes = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ notes: 'Line one\r\nLine two\tindented' }) });
    t.equal(notes.statusCode, 201, 'line breaks and tabs are fine in notes');
    const contact = await app.inject({ method: 'POST', url: '/v1/contact-us-form', payload: { name: 'Tane\u0000', email: 'tane@example.com', phone: '021 555 1234', message: 'Hi\nthere' } });
    t.equal(contact.statusCode, 400);
    t.same(contact.json().errors.map((e: { field: string }) => e.field), ['name']);
    const form = await app.inject({ method: 'POST', url: '/contact', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'name=Tane%00&email=tane%40example.com&phone=021+555+1234&message=Hi' });
    t.equal(form.statusCode, 400);
    t.match(form.body, /invisible control characters/);
    const signIn = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { password: TEST_ADMIN_PASSWORD, name: 'Sam\u0000' } });
    t.equal(signIn.statusCode, 400, 'a NUL in the sign-in name is the database refusing data: 400, not 500');
    t.equal(await count('bookings'), 1);
    t.equal(await count('contact_messages'), 0);
  });

  t.test('6: paging cursors with impossible dates or malformed ids are a 400', async (t) => {
    const cookie = await login(app);
    const cursor = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const id = '00000000-0000-4000-8000-000000000000';
    const bad = [
      `/v1/bookings?cursor=${cursor({ sort: 'newest', createdAt: '2026-99-99 10:00:00+00', id })}`,
      `/v1/bookings?cursor=${cursor({ sort: 'newest', createdAt: '2026-01-01 25:00:00+00', id })}`,
      `/v1/bookings?cursor=${cursor({ sort: 'newest', createdAt: '2026-01-01 10:00:00+00', id: 'not-a-uuid-----------------------------' })}`,
      `/v1/bookings?sort=schedule&cursor=${cursor({ sort: 'schedule', date: '2026-02-30', time: '10:00', id })}`,
      `/v1/bookings?sort=schedule&cursor=${cursor({ sort: 'schedule', date: '2026-02-03', time: '99:00', id })}`,
      `/v1/contact-messages?cursor=${cursor({ createdAt: '2026-13-01 10:00:00+00', id })}`,
      `/v1/contact-messages?cursor=${cursor({ createdAt: '2026-01-01 10:00:00+00', id: '------------------------------------' })}`,
      `/v1/contact-messages?cursor=${cursor([1, 2])}`,
      '/v1/bookings?q=%00',
    ];
    for (const url of bad) {
      const res = await app.inject({ url, headers: { cookie } });
      t.equal(res.statusCode, 400, url);
    }
    // The same cursors made valid are accepted, so each refusal above is for the value it breaks;
    // PostgreSQL writes a whole-hour offset without minutes (`+00`), other offsets with them.
    const good = [
      `/v1/bookings?cursor=${cursor({ sort: 'newest', createdAt: '2026-01-01 10:00:00+00', id })}`,
      `/v1/bookings?cursor=${cursor({ sort: 'newest', createdAt: '2026-01-01 10:00:00.123456+13', id })}`,
      `/v1/bookings?cursor=${cursor({ sort: 'newest', createdAt: '2026-01-01 10:00:00+05:30', id })}`,
      `/v1/bookings?sort=schedule&cursor=${cursor({ sort: 'schedule', date: '2026-02-03', time: '10:00', id })}`,
      `/v1/contact-messages?cursor=${cursor({ createdAt: '2026-01-01 10:00:00+00', id })}`,
    ];
    for (const url of good) {
      const res = await app.inject({ url, headers: { cookie } });
      t.equal(res.statusCode, 200, url);
    }
  });

  t.test('7: a JSON body that repeats a key is a 400, at any depth', async (t) => {
    const body = JSON.stringify(originalClientPayload()).replace('"name":', '"name":"Someone Else","name":');
    const res = await app.inject({ method: 'POST', url: '/v1/create-booking', headers: { 'content-type': 'application/json' }, payload: body });
    t.equal(res.statusCode, 400);
    t.same(res.json(), { message: 'The request body repeats the key "name"', errors: [{ field: 'name', message: 'The request body repeats the key "name"' }] });
    t.equal(firstDuplicateKey('{"a":{"b":1,"b":2}}'), 'a.b');
    t.equal(firstDuplicateKey('[{"a":1},{"a":2}]'), undefined, 'the same key in two objects is fine');
    const proto = await app.inject({ method: 'POST', url: '/v1/contact-us-form', headers: { 'content-type': 'application/json' }, payload: '{"__proto__":{"x":1}}' });
    t.equal(proto.statusCode, 400, 'prototype poisoning is still refused');
  });

  t.test('8: a session ends when the password it was made under changes', async (t) => {
    const cookie = await login(app);
    const getAll = () => app.inject({ url: '/v1/getall-booking', headers: { cookie } });
    t.equal((await getAll()).statusCode, 200);
    const [session] = await app.db.selectFrom('staff_sessions').select('password_fingerprint').execute();
    t.match(session?.password_fingerprint, /^[0-9a-f]{64}$/);
    await app.db.updateTable('staff_sessions').set({ password_fingerprint: createHash('sha256').update('an older hash').digest('hex') }).execute();
    t.equal((await getAll()).statusCode, 401, 'a session of another password hash is refused');
  });

  t.test('9: staff answers are no-store, logout checks the origin', async (t) => {
    const cookie = await login(app);
    for (const url of ['/v1/getall-booking', '/v1/bookings', '/v1/contact-messages']) {
      t.equal((await app.inject({ url, headers: { cookie } })).headers['cache-control'], 'no-store', url);
      t.equal((await app.inject({ url })).headers['cache-control'], 'no-store', `${url} (401)`);
    }
    const logout = await app.inject({ method: 'POST', url: '/v1/auth/logout', headers: { cookie, origin: 'https://evil.example' } });
    t.equal(logout.statusCode, 403);
    t.equal((await app.inject({ url: '/v1/getall-booking', headers: { cookie } })).statusCode, 200, 'still signed in');
  });

  t.test('8: ADMIN_PASSWORD hash kept for a stable fingerprint; 12 characters and no common password; the advice names a command that exists', async (t) => {
    const hash1 = await app.db.selectFrom('settings').select('value').where('key', '=', 'admin_password_env_hash').executeTakeFirstOrThrow();
    t.match(hash1.value, /^\$argon2id\$/, "ADMIN_PASSWORD's hash is kept, so its fingerprint is stable");
    t.ok(passwordProblem('short'));
    t.match(passwordProblem('Password1234'), /most common/);
    t.match(passwordProblem('qwerty uiop 123'), /most common/, 'spaces do not hide a common password');
    t.equal(passwordProblem(TEST_ADMIN_PASSWORD), undefined);
    const listModules = Object.keys(createRequire(import.meta.url).cache).filter((id) => id.includes('language-common'));
    t.same(listModules, [], 'the common-password list is not kept in memory after a check (issue 24)');
    t.throws(() => loadConfig({ ADMIN_PASSWORD: 'elevenchars' }), /ADMIN_PASSWORD must be at least 12 characters/);
    t.throws(() => loadConfig({ ADMIN_PASSWORD: 'password1234' }), /ADMIN_PASSWORD is one of the most common passwords/);
    t.equal(setPasswordCommand({ npm_lifecycle_event: 'start' }), 'npm run set-password');
    t.equal(setPasswordCommand({}, new URL('../dist/server/server.js', import.meta.url).href), 'node dist/server/set-password.js', 'the built script, as in the Docker image');
  });
});
