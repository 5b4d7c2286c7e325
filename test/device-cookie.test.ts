/**
 * Issue 23, "Staff can be locked out by anyone": OWASP's device cookies. Wrong passwords from
 * anywhere pause sign-in for clients the server does not know, but a browser that has signed in
 * before carries a signed device cookie and is let in during the pause, at both doors (POST
 * /v1/auth/login and the no-JavaScript form); its own wrong passwords are limited per device.
 */
import { randomBytes } from 'node:crypto';
import t, { type Test } from 'tap';
import type { App } from '../src/app.ts';
import { DEVICE_KEY_SETTING, issueDeviceToken } from '../src/services/device-cookie.ts';
import { buildTestApp, forEachBackend, TEST_ADMIN_PASSWORD } from './helper.ts';

t.setTimeout(300_000);

type Door = 'json' | 'form';
const DOORS: Door[] = ['json', 'form'];
/** What each door answers to the right password. */
const SIGNED_IN: Record<Door, number> = { json: 204, form: 303 };
const PAUSED = /^Sign-in is paused after many wrong passwords\. Please try again in /;
const YEAR_SECONDS = 365 * 86_400;

interface Attempt {
  cookie?: string;
  remoteAddress?: string;
}

function signIn(app: App, door: Door, password: string, { cookie, remoteAddress = '203.0.113.50' }: Attempt = {}) {
  const headers: Record<string, string> = cookie ? { cookie } : {};
  return door === 'json'
    ? app.inject({ method: 'POST', url: '/v1/auth/login', payload: { password }, headers, remoteAddress })
    : app.inject({
        method: 'POST',
        url: '/dashboard/login',
        payload: new URLSearchParams({ password }).toString(),
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        remoteAddress,
      });
}

/** Signs in with the right password and returns the Cookie header of the device cookie it was given. */
async function knownDevice(t: Test, app: App, door: Door = 'json'): Promise<string> {
  const res = await signIn(app, door, TEST_ADMIN_PASSWORD, { remoteAddress: '192.0.2.10' });
  t.equal(res.statusCode, SIGNED_IN[door], `signed in at the ${door} door`);
  const device = res.cookies.find((c) => c.name === 'staff_device');
  if (!device) throw new Error('no device cookie was given');
  return `staff_device=${device.value}`;
}

/** Wrong passwords from strangers' addresses until sign-in pauses for clients without a device cookie. */
async function pause(t: Test, app: App, failures: number): Promise<void> {
  for (let i = 0; i < failures; i++) {
    const res = await signIn(app, i % 2 ? 'form' : 'json', `guess ${i}`, { remoteAddress: `198.51.100.${i + 1}` });
    t.equal(res.statusCode, 401, `stranger's guess ${i + 1} is counted`);
  }
  const stranger = await signIn(app, 'json', TEST_ADMIN_PASSWORD, { remoteAddress: '198.51.100.200' });
  t.equal(stranger.statusCode, 429, 'sign-in is paused for clients without a device cookie');
}

const messageOf = (res: { body: string }) => (JSON.parse(res.body) as { message: string }).message;

forEachBackend(t, async (t, backend) => {
  const app = await buildTestApp(t, { backend, env: { RATE_LIMIT_LOGIN_FAILURES_MAX: '4', RATE_LIMIT_LOGIN_DEVICE_FAILURES_MAX: '2' } });
  // Browsers that signed in before the pause, at each door; the subtests share this app's
  // counters, in order: once reached, the pause lasts for the rest of them.
  const known = await knownDevice(t, app, 'json');
  const knownByForm = await knownDevice(t, app, 'form');
  const typist = await knownDevice(t, app, 'form');

  t.test('a successful sign-in at either door gives a signed, long-lived device cookie for the sign-in doors only', async (t) => {
    for (const door of DOORS) {
      const res = await signIn(app, door, TEST_ADMIN_PASSWORD);
      t.equal(res.statusCode, SIGNED_IN[door]);
      t.equal(res.cookies[0]!.name, 'session', 'the session cookie comes first');
      const devices = res.cookies.filter((c) => c.name === 'staff_device');
      t.same(devices.map((c) => c.path).sort(), ['/dashboard/login', '/v1/auth/login'], 'one per sign-in door, sent nowhere else');
      for (const cookie of devices) {
        t.equal(cookie.httpOnly, true);
        t.equal(cookie.sameSite, 'Strict');
        t.notOk(cookie.secure, 'plain http in tests');
        t.equal(cookie.maxAge, YEAR_SECONDS, 'kept for a year');
        t.match(cookie.value, /^[A-Za-z0-9_-]{22}\.\d+\.[A-Za-z0-9_-]{43}$/, 'a random device id, the time it was issued and an HMAC');
        t.equal(cookie.value, devices[0]!.value, 'the same device at both doors');
      }
    }
    const key = await app.db.selectFrom('settings').select('value').where('key', '=', DEVICE_KEY_SETTING).executeTakeFirst();
    t.match(key?.value, /^[A-Za-z0-9_-]{43}$/, 'the signing key is kept in the settings table');
  });

  t.test('during a pause a known client signs in at both doors; a new client is refused with the pause message', async (t) => {
    await pause(t, app, 4);
    for (const door of DOORS) {
      const stranger = await signIn(app, door, TEST_ADMIN_PASSWORD, { remoteAddress: '198.51.100.201' });
      t.equal(stranger.statusCode, 429, `${door}: a new client waits`);
      t.match(messageOf(stranger), PAUSED);
      t.ok(Number(stranger.headers['retry-after']) > 0);
      t.equal(stranger.headers['set-cookie'], undefined);

      for (const cookie of [known, knownByForm]) {
        const res = await signIn(app, door, TEST_ADMIN_PASSWORD, { cookie, remoteAddress: '192.0.2.11' });
        t.equal(res.statusCode, SIGNED_IN[door], `${door}: a device that signed in before is let in`);
        t.ok(res.cookies.some((c) => c.name === 'session'), 'with a session');
        t.ok(res.cookies.some((c) => c.name === 'staff_device'), 'and a new device cookie');
      }
    }
    const session = await signIn(app, 'json', TEST_ADMIN_PASSWORD, { cookie: known });
    const cookie = `session=${session.cookies[0]!.value}`;
    t.equal((await app.inject({ url: '/v1/bookings', headers: { cookie } })).statusCode, 200, 'the session works');
  });

  t.test('a forged, tampered with, foreign or expired device cookie counts as none', async (t) => {
    const value = known.slice('staff_device='.length);
    const [id, issued, mac] = value.split('.') as [string, string, string];
    const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
    const stored = await app.db.selectFrom('settings').select('value').where('key', '=', DEVICE_KEY_SETTING).executeTakeFirstOrThrow();
    const realKey = Buffer.from(stored.value, 'base64url');
    const forged: Record<string, string> = {
      'not a device cookie': 'hello',
      'an empty one': '',
      'another device id': `${flip(id)}.${issued}.${mac}`,
      'another issue time': `${id}.${Number(issued) + 1}.${mac}`,
      'another signature': `${id}.${issued}.${flip(mac)}`,
      'signed with another key': issueDeviceToken(randomBytes(32)).value,
      'issued more than a year ago': issueDeviceToken(realKey, Date.now() - (YEAR_SECONDS + 60) * 1000).value,
      'issued in the future': issueDeviceToken(realKey, Date.now() + 3_600_000).value,
    };
    for (const [what, cookieValue] of Object.entries(forged)) {
      for (const door of DOORS) {
        const res = await signIn(app, door, TEST_ADMIN_PASSWORD, { cookie: `staff_device=${cookieValue}`, remoteAddress: '198.51.100.202' });
        t.equal(res.statusCode, 429, `${door}, ${what}: refused`);
        t.match(messageOf(res), PAUSED);
      }
    }
    const sameKey = issueDeviceToken(realKey).value;
    t.equal((await signIn(app, 'json', TEST_ADMIN_PASSWORD, { cookie: `staff_device=${sameKey}` })).statusCode, 204, 'a value signed with the key is honoured');
  });

  t.test("a device's own wrong passwords are limited: after RATE_LIMIT_LOGIN_DEVICE_FAILURES_MAX it waits like a new client", async (t) => {
    const device = typist;
    t.equal((await signIn(app, 'json', 'typo one', { cookie: device })).statusCode, 401, 'a wrong password is answered, not paused');
    t.equal((await signIn(app, 'form', 'typo two', { cookie: device })).statusCode, 401, 'at either door: one count for both');
    for (const door of DOORS) {
      const locked = await signIn(app, door, TEST_ADMIN_PASSWORD, { cookie: device });
      t.equal(locked.statusCode, 429, `${door}: the device is locked out too`);
      t.match(messageOf(locked), PAUSED);
    }
    t.equal((await signIn(app, 'json', TEST_ADMIN_PASSWORD, { cookie: known })).statusCode, 204, 'another device is not held by its failures');
  });
});

t.test("a device's wrong passwords are counted against it, not against everyone", async (t) => {
  const app = await buildTestApp(t, { env: { RATE_LIMIT_LOGIN_FAILURES_MAX: '2', RATE_LIMIT_LOGIN_DEVICE_FAILURES_MAX: '3' } });
  const device = await knownDevice(t, app);
  for (let i = 0; i < 3; i++) t.equal((await signIn(app, 'json', `typo ${i}`, { cookie: device })).statusCode, 401);
  t.equal((await signIn(app, 'json', TEST_ADMIN_PASSWORD, { remoteAddress: '198.51.100.9' })).statusCode, 204, 'no pause for the others');
  // Locked out, the device is one of the clients without a cookie: its next wrong passwords count towards the pause.
  t.equal((await signIn(app, 'json', 'typo 4', { cookie: device })).statusCode, 401);
  t.equal((await signIn(app, 'json', 'typo 5', { cookie: device })).statusCode, 401);
  t.equal((await signIn(app, 'json', TEST_ADMIN_PASSWORD, { remoteAddress: '198.51.100.9' })).statusCode, 429, 'now the pause holds');
});

t.test('RATE_LIMIT_LOGIN_DEVICE_FAILURES_MAX=0 turns the per-device limit off', async (t) => {
  const app = await buildTestApp(t, { env: { RATE_LIMIT_LOGIN_FAILURES_MAX: '1', RATE_LIMIT_LOGIN_DEVICE_FAILURES_MAX: '0' } });
  const device = await knownDevice(t, app);
  await pause(t, app, 1);
  for (let i = 0; i < 5; i++) t.equal((await signIn(app, 'json', `typo ${i}`, { cookie: device })).statusCode, 401);
  t.equal((await signIn(app, 'json', TEST_ADMIN_PASSWORD, { cookie: device })).statusCode, 204);
});

t.test('LOGIN_DEVICE_DAYS=0 turns device cookies off: every client waits out the pause', async (t) => {
  const app = await buildTestApp(t, { env: { RATE_LIMIT_LOGIN_FAILURES_MAX: '1', LOGIN_DEVICE_DAYS: '0' } });
  const first = await signIn(app, 'json', TEST_ADMIN_PASSWORD);
  t.equal(first.statusCode, 204);
  t.same(first.cookies.map((c) => c.name), ['session'], 'no device cookie');
  await pause(t, app, 1);
  const key = await app.db.selectFrom('settings').select('value').where('key', '=', DEVICE_KEY_SETTING).executeTakeFirst();
  t.equal(key, undefined, 'no key is made');
  const res = await signIn(app, 'json', TEST_ADMIN_PASSWORD, { cookie: `staff_device=${issueDeviceToken(randomBytes(32)).value}` });
  t.equal(res.statusCode, 429);
});

t.test('in production the device cookie is Secure, with the __Secure- prefix', async (t) => {
  const app = await buildTestApp(t, { env: { NODE_ENV: 'production', RATE_LIMIT_LOGIN_FAILURES_MAX: '1' } });
  const res = await signIn(app, 'json', TEST_ADMIN_PASSWORD);
  t.equal(res.statusCode, 204);
  const devices = res.cookies.filter((c) => c.name === '__Secure-staff_device');
  t.equal(devices.length, 2);
  t.ok(devices.every((c) => c.secure === true && c.httpOnly === true && c.sameSite === 'Strict'));
  await pause(t, app, 1);
  const again = await signIn(app, 'json', TEST_ADMIN_PASSWORD, { cookie: `__Secure-staff_device=${devices[0]!.value}` });
  t.equal(again.statusCode, 204, 'the known browser is let in');
  t.equal((await signIn(app, 'json', TEST_ADMIN_PASSWORD, { cookie: `staff_device=${devices[0]!.value}` })).statusCode, 429, 'only under its own name');
});
