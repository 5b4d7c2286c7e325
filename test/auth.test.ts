import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { hashPassword } from '../src/services/auth.service.ts';
import { buildTestApp, forEachBackend, login, TEST_ADMIN_PASSWORD } from './helper.ts';

forEachBackend(t, async (t, backend) => {
  const app = await buildTestApp(t, { backend, env: { SESSION_IDLE_MINUTES: '30' } });
  const getAll = (cookie?: string) => app.inject({ method: 'GET', url: '/v1/getall-booking', headers: cookie ? { cookie } : {} });

  t.test('a wrong password is 401 with a message and sets no cookie', async (t) => {
    const res = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { password: 'wrong password' } });
    t.equal(res.statusCode, 401);
    t.same(res.json(), { message: 'Incorrect password', errors: [] });
    t.equal(res.headers['set-cookie'], undefined);
  });

  t.test('sign-in needs a JSON password field', async (t) => {
    t.equal((await app.inject({ method: 'POST', url: '/v1/auth/login', payload: {} })).statusCode, 400);
    t.equal((await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { password: 12345678 } })).statusCode, 400);
    const form = await app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `password=${encodeURIComponent(TEST_ADMIN_PASSWORD)}`,
    });
    t.equal(form.statusCode, 415, 'a cross-site HTML form cannot sign in');
  });

  t.test('the right password starts a session kept only as a hash', async (t) => {
    const res = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { password: TEST_ADMIN_PASSWORD } });
    t.equal(res.statusCode, 204);
    const cookie = res.cookies[0]!;
    t.equal(cookie.name, 'session');
    t.equal(cookie.httpOnly, true);
    t.equal(cookie.sameSite, 'Strict');
    t.equal(cookie.path, '/');
    t.ok(cookie.maxAge && cookie.maxAge > 0, 'absolute lifetime');
    t.match(cookie.value, /^[A-Za-z0-9_-]{43}$/, '256 random bits');
    const rows = await app.db.selectFrom('staff_sessions').selectAll().execute();
    const hash = createHash('sha256').update(cookie.value).digest('hex');
    t.ok(rows.some((r) => r.id_hash === hash), 'the hash is stored');
    t.notOk(rows.some((r) => r.id_hash === cookie.value), 'the id itself is not');
    t.equal((await getAll(`session=${cookie.value}`)).statusCode, 200);
  });

  t.test('staff endpoints refuse missing, forged, idle and expired sessions', async (t) => {
    t.equal((await getAll()).statusCode, 401);
    t.equal((await getAll('session=forged')).statusCode, 401);
    t.equal((await getAll(`session=${'a'.repeat(43)}`)).statusCode, 401);

    const idle = await login(app);
    const idleHash = createHash('sha256').update(idle.split('=')[1]!).digest('hex');
    await app.db.updateTable('staff_sessions').set({ last_seen_at: new Date(Date.now() - 31 * 60_000) }).where('id_hash', '=', idleHash).execute();
    t.equal((await getAll(idle)).statusCode, 401, 'idle for longer than the idle limit');

    const old = await login(app);
    const oldHash = createHash('sha256').update(old.split('=')[1]!).digest('hex');
    await app.db.updateTable('staff_sessions').set({ expires_at: new Date(Date.now() - 1000) }).where('id_hash', '=', oldHash).execute();
    t.equal((await getAll(old)).statusCode, 401, 'past the absolute expiry');
  });

  t.test('logout deletes the session on the server', async (t) => {
    const cookie = await login(app);
    t.equal((await getAll(cookie)).statusCode, 200);
    const out = await app.inject({ method: 'POST', url: '/v1/auth/logout', headers: { cookie } });
    t.equal(out.statusCode, 204);
    t.match(out.headers['set-cookie'], /session=;/);
    const hash = createHash('sha256').update(cookie.split('=')[1]!).digest('hex');
    t.equal(await app.db.selectFrom('staff_sessions').select('id_hash').where('id_hash', '=', hash).executeTakeFirst(), undefined);
    t.equal((await getAll(cookie)).statusCode, 401, 'the old cookie no longer works');
  });
});

t.test('in production the cookie is Secure with the __Host- prefix', async (t) => {
  const app = await buildTestApp(t, { env: { NODE_ENV: 'production' } });
  const res = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { password: TEST_ADMIN_PASSWORD } });
  const cookie = res.cookies[0]!;
  t.equal(cookie.name, '__Host-session');
  t.equal(cookie.secure, true);
  t.equal(cookie.path, '/');
  t.equal(cookie.domain, undefined);
  const ok = await app.inject({ method: 'GET', url: '/v1/getall-booking', headers: { cookie: `__Host-session=${cookie.value}` } });
  t.equal(ok.statusCode, 200);
});

t.test('sign-in is rate-limited more strictly than the forms', async (t) => {
  const app = await buildTestApp(t, { env: { RATE_LIMIT_LOGIN_MAX: '2', RATE_LIMIT_FORMS_MAX: '10' } });
  const attempt = () => app.inject({ method: 'POST', url: '/v1/auth/login', payload: { password: 'guess' } });
  t.equal((await attempt()).statusCode, 401);
  t.equal((await attempt()).statusCode, 401);
  const limited = await attempt();
  t.equal(limited.statusCode, 429);
  t.ok(Number(limited.headers['retry-after']) >= 60, 'a longer window than the forms');
});

t.test('ADMIN_PASSWORD_HASH wins over ADMIN_PASSWORD', async (t) => {
  const hash = await hashPassword('hash-only password');
  t.match(hash, /^\$argon2id\$v=19\$m=65536,t=3,p=4\$/);
  const app = await buildTestApp(t, { env: { ADMIN_PASSWORD_HASH: hash, ADMIN_PASSWORD: 'plain-env password' } });
  const attempt = (password: string) => app.inject({ method: 'POST', url: '/v1/auth/login', payload: { password } });
  t.equal((await attempt('hash-only password')).statusCode, 204);
  t.equal((await attempt('plain-env password')).statusCode, 401);
});

t.test('with no password configured one is generated, printed once, stored as a hash and kept across restarts', async (t) => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'valet-auth-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const printed: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    printed.push(String(chunk));
    return write(chunk, ...rest);
  }) as typeof process.stdout.write;
  t.teardown(() => {
    process.stdout.write = write;
  });
  const env = { DATA_DIR: dataDir, ADMIN_PASSWORD: '' };

  const first = await buildTestApp(t, { env });
  const banner = printed.join('');
  const password = /\n {6}(\S+)\n/.exec(banner)?.[1];
  t.ok(password && password.length >= 24, 'a strong password was printed');
  const stored = await first.db.selectFrom('settings').select('value').where('key', '=', 'admin_password_hash').executeTakeFirstOrThrow();
  t.match(stored.value, /^\$argon2id\$/);
  t.notOk(stored.value.includes(password!), 'only the hash is stored');
  t.equal((await first.inject({ method: 'POST', url: '/v1/auth/login', payload: { password } })).statusCode, 204);
  await first.close();

  printed.length = 0;
  const second = await buildTestApp(t, { env });
  t.notMatch(printed.join(''), /generated/, 'not printed again');
  t.equal((await second.inject({ method: 'POST', url: '/v1/auth/login', payload: { password } })).statusCode, 204, 'the same password still works');
});
