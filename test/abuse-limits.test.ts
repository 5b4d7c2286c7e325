/** Issue 12, finding 3: abuse limits that hold whatever the door, and the forms' bot checks. */
import { createHmac } from 'node:crypto';
import { connectTestRedis, TEST_REDIS_URL } from './support/redis.ts';
import t from 'tap';
import { buildTestApp, TEST_ADMIN_PASSWORD } from './helper.ts';
import { inDays, originalClientPayload } from './support/payloads.ts';

// Four apps, each on its own embedded database: more than the default two minutes on a busy machine.
t.setTimeout(300_000);

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const bookingForm = (overrides: Record<string, string> = {}) => {
  const { saveAddress: _save, ...fields } = originalClientPayload();
  return form({ ...(fields as Record<string, string>), step: '3', action: 'next', ...overrides });
};

t.test('one budget per action, whatever the door', async (t) => {
  const app = await buildTestApp(t, { env: { RATE_LIMIT_FORMS_MAX: '2', RATE_LIMIT_LOGIN_MAX: '2', RATE_LIMIT_BOOKINGS_PER_DAY: '3', RATE_LIMIT_LOGIN_FAILURES_MAX: '3' } });
  const from = (remoteAddress: string) => ({
    json: (url: string, payload: object) => app.inject({ method: 'POST', url, payload, remoteAddress }),
    form: (url: string, payload: string) => app.inject({ method: 'POST', url, payload, headers: FORM, remoteAddress }),
  });

  t.test('bookings: the JSON endpoint and the form share one budget; the wizard steps before the last spend none of it', async (t) => {
    const client = from('203.0.113.10');
    for (let i = 0; i < 5; i++) t.equal((await client.form('/booking', form({ step: '1', service: 'Quick Clean', selectedVehicleType: 'sm' }))).statusCode, 200, 'step 1');
    t.equal((await client.json('/v1/create-booking', originalClientPayload({ time: '07:00' }))).statusCode, 201);
    t.equal((await client.form('/booking', bookingForm({ time: '08:00' }))).statusCode, 303);
    const third = await client.json('/v1/create-booking', originalClientPayload({ time: '09:00' }));
    t.equal(third.statusCode, 429);
    t.ok(Number(third.headers['retry-after']) > 0);
    t.equal((await client.form('/booking', bookingForm({ time: '09:00' }))).statusCode, 429, 'the form is limited too');
  });

  t.test('contact: the JSON endpoint and the form share one budget', async (t) => {
    const client = from('203.0.113.11');
    const message = { name: 'Tane', email: 'tane@example.com', phone: '021 555 1234', message: 'Hi' };
    t.equal((await client.form('/contact', form(message))).statusCode, 303);
    t.equal((await client.json('/v1/contact-us-form', message)).statusCode, 201);
    t.equal((await client.form('/contact', form(message))).statusCode, 429);
    t.equal((await client.json('/v1/contact-us-form', message)).statusCode, 429);
  });

  t.test('sign-in: the API and the form share one budget', async (t) => {
    const client = from('203.0.113.12');
    t.equal((await client.json('/v1/auth/login', { password: 'wrong password 1' })).statusCode, 401);
    t.equal((await client.form('/dashboard/login', form({ password: 'wrong password 2' }))).statusCode, 401);
    t.equal((await client.json('/v1/auth/login', { password: TEST_ADMIN_PASSWORD })).statusCode, 429);
  });

  t.test('failed sign-ins from every address together pause sign-in for everyone', async (t) => {
    // Two failures were counted above; one more from a new address reaches the cap of 3.
    t.equal((await from('198.51.100.1').json('/v1/auth/login', { password: 'guess one' })).statusCode, 401);
    const paused = await from('198.51.100.3').json('/v1/auth/login', { password: TEST_ADMIN_PASSWORD });
    t.equal(paused.statusCode, 429);
    t.match(paused.json().message, /Sign-in is paused after many wrong passwords/);
  });

  t.test('a daily cap of bookings per address', async (t) => {
    const client = from('203.0.113.13');
    // Spread over two windows would need a clock; the daily budget (3) is counted with the minute one (2).
    t.equal((await client.json('/v1/create-booking', originalClientPayload({ time: '11:00', email: 'a@example.com' }))).statusCode, 201);
    t.equal((await client.json('/v1/create-booking', originalClientPayload({ time: '12:00', email: 'b@example.com' }))).statusCode, 201);
    const counted = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ time: '13:00' }), remoteAddress: '203.0.113.13' });
    t.equal(counted.statusCode, 429);
  });
});

t.test('caps and bot checks', async (t) => {
  const app = await buildTestApp(t, { env: { RATE_LIMIT_FORMS_MAX: '100', RATE_LIMIT_BOOKINGS_PER_DAY: '2', BOOKING_MAX_ACTIVE_PER_EMAIL: '2', FORM_MIN_SECONDS: '600' } });

  t.test('the daily cap holds when the minute window has passed', async (t) => {
    const book = (time: string) => app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ time, email: `${time.slice(0, 2)}@example.com` }), remoteAddress: '203.0.113.20' });
    t.equal((await book('07:00')).statusCode, 201);
    t.equal((await book('08:00')).statusCode, 201);
    const third = await book('09:00');
    t.equal(third.statusCode, 429);
    t.match(third.json().message, /today's limit of online bookings/);
    t.ok(Number(third.headers['retry-after']) > 3600, 'come back tomorrow, not in a minute');
  });

  t.test('an e-mail address holds at most BOOKING_MAX_ACTIVE_PER_EMAIL upcoming bookings', async (t) => {
    let client = 30;
    const book = (time: string, email = 'Mere@Example.co.nz') =>
      app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ time, email, date: inDays(5) }), remoteAddress: `203.0.113.${client++}` });
    t.equal((await book('07:00')).statusCode, 201);
    t.equal((await book('08:00', 'mere@example.co.nz')).statusCode, 201);
    const third = await book('09:00');
    t.equal(third.statusCode, 409);
    t.match(third.json(), { message: /already have 2 upcoming bookings/, errors: [{ field: 'email' }] });
    await app.db.updateTable('bookings').set({ status: 'cancelled' }).where('time', '=', '07:00').where('date', '=', inDays(5)).execute();
    t.equal((await book('09:00')).statusCode, 201, 'a cancelled booking frees a place');
    t.equal((await app.db.selectFrom('bookings').selectAll().where('date', '=', inDays(5)).execute()).length, 3);
  });

  t.test('the no-JavaScript forms refuse a honeypot and an instant post, with a message a person understands', async (t) => {
    const page = await app.inject('/contact');
    const cookie = page.cookies.find((c) => c.name === 'form_started');
    t.ok(cookie, 'serving the form sets the cookie');
    t.equal(page.headers.etag, (await app.inject('/contact')).headers.etag, 'the cached page stays the same for everyone');
    const message = { name: 'Tane', email: 'tane@example.com', phone: '021 555 1234', message: 'Hi' };
    const post = (fields: Record<string, string>, cookieValue?: string, url = '/contact') =>
      app.inject({ method: 'POST', url, payload: form(fields), headers: { ...FORM, ...(cookieValue ? { cookie: `form_started=${cookieValue}` } : {}) } });

    const instant = await post(message, cookie!.value);
    t.equal(instant.statusCode, 400);
    t.match(instant.body, /quicker than a person can fill in this form/);
    t.match(instant.body, /value="Tane"/, 'the values are kept');
    const none = await post(message);
    t.equal(none.statusCode, 400);
    t.match(none.body, /could not confirm it was sent from this page/);
    t.ok(none.cookies.some((c) => c.name === 'form_started'), 'and a fresh cookie comes with it');
    const forged = await post(message, `${Date.now() - 60_000}.forged`);
    t.equal(forged.statusCode, 400, 'a backdated cookie without our signature is refused');

    const key = Buffer.from((await app.db.selectFrom('settings').select('value').where('key', '=', 'form_token_key').executeTakeFirstOrThrow()).value, 'base64url');
    const served = String(Date.now() - 20 * 60_000);
    const earlier = `${served}.${createHmac('sha256', key).update(served).digest('base64url')}`;
    const trap = await post({ ...message, website: 'http://spam.example' }, earlier);
    t.equal(trap.statusCode, 400);
    t.match(trap.body, /Leave this empty/);
    t.equal((await app.db.selectFrom('contact_messages').selectAll().execute()).length, 0, 'nothing was stored');
    t.equal((await post(message, earlier)).statusCode, 303, 'a person who took their time is through');

    const booking = await app.inject({ method: 'POST', url: '/booking', payload: bookingForm({ date: inDays(4), email: 'form@example.com' }), remoteAddress: '203.0.113.60', headers: { ...FORM, cookie: `form_started=${cookie!.value}` } });
    t.equal(booking.statusCode, 400);
    t.match(booking.body, /quicker than a person/);
    const booked = await app.inject({ method: 'POST', url: '/booking', payload: bookingForm({ date: inDays(4), email: 'form@example.com' }), remoteAddress: '203.0.113.60', headers: { ...FORM, cookie: `form_started=${earlier}` } });
    t.equal(booked.statusCode, 303);
  });
});

t.test('with REDIS_URL, two instances share one budget', async (t) => {
  const probe = await connectTestRedis();
  // A key space of this run's own, so parallel runs do not share counters.
  const address = `198.19.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}`;
  const env = { REDIS_URL: TEST_REDIS_URL, RATE_LIMIT_FORMS_MAX: '2' };
  // One after the other: two embedded databases starting at once can outlast the plugin timeout on a busy machine.
  const one = await buildTestApp(t, { env });
  const two = await buildTestApp(t, { env });
  t.teardown(async () => {
    const keys = await probe.keys(`valet-rate-limit:*${address}`);
    if (keys.length > 0) await probe.del(...keys);
    probe.disconnect();
  });
  const send = (app: typeof one) => app.inject({ method: 'POST', url: '/v1/contact-us-form', payload: { name: '' }, remoteAddress: address });
  t.equal((await send(one)).statusCode, 400);
  t.equal((await send(two)).statusCode, 400);
  t.equal((await send(one)).statusCode, 429, 'the third post, on either instance, is over the shared budget');
  t.equal((await send(two)).statusCode, 429);
  t.ok((await probe.keys(`valet-rate-limit:*contact:0:${address}`)).length > 0, 'the counter is in Redis');
});
