/**
 * Issue 44, webhooks: the owner registers an endpoint (its secret shown once); a booking created,
 * confirmed, moved, cancelled, and a job completed with payment, each queue their event in the
 * change's transaction, and a receiver on loopback verifies every delivery with the
 * `standardwebhooks` library; a receiver answering 500 twice gets the third attempt (the sender
 * driven by app.webhooks.sendDue() and the test's clock); a redirect is not followed; a private
 * address is refused without WEBHOOKS_ALLOW_PRIVATE, at registration and at delivery; a delivery
 * queued before an erasure and sent after carries no personal data; Resend; owner only.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import t, { type Test } from 'tap';
import { buildTestApp, forEachBackend, login } from './helper.ts';
import { seed } from './support/completion.ts';
import { inDays, originalClientPayload, testNow } from './support/payloads.ts';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on loopback: records each request, answers the next of `answers` (then 204). */
async function receiver(t: Test) {
  const received: Received[] = [];
  const answers: { status: number; location?: string }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = answers.shift() ?? { status: 204 };
      if (process.env.DEBUG_HOOKS) console.error(req.url, answer.status, JSON.parse(Buffer.concat(chunks).toString('utf8')).type);
      res.writeHead(answer.status, answer.location ? { location: answer.location } : {});
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const url = (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return { received, answers, url };
}

const verify = (secret: string, r: Received) =>
  new Webhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  }) as { type: string; timestamp: string; data: Record<string, any> };

const ALL_EVENTS = ['booking.created', 'booking.confirmed', 'booking.moved', 'booking.cancelled', 'booking.completed', 'payment.recorded', 'customer.erased'];

forEachBackend(t, async (t, backend) => {
  let clock = testNow;
  const app = await buildTestApp(t, { backend, env: { WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '1000', BOOKING_SLOT_CAPACITY: '4' }, now: () => clock });
  const cookie = await login(app);
  const staff = (method: 'GET' | 'POST' | 'DELETE' | 'PATCH', url: string, payload?: object) => app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  const hooks = await receiver(t);
  const register = async (path: string, events = ALL_EVENTS) => {
    const res = await staff('POST', '/v1/webhooks', { url: hooks.url(path), events, description: `Receiver ${path}` });
    if (res.statusCode !== 201) throw new Error(`registration failed: ${res.body}`);
    return res.json() as { id: string; secret: string; url: string };
  };
  const deliveries = async (endpointId: string) => (await staff('GET', `/v1/webhooks/${endpointId}/deliveries`)).json().data as { id: string; event: string; status: string; attempts: number; lastStatus: number | null; lastError: string | null }[];
  const receivedAt = (path: string) => hooks.received.filter((r) => r.path === path);

  t.test('owner only: 401 without a session', async (t) => {
    t.equal((await app.inject({ method: 'GET', url: '/v1/webhooks' })).statusCode, 401);
    t.equal((await app.inject({ method: 'POST', url: '/v1/webhooks', payload: { url: hooks.url('/x'), events: ['booking.created'] } })).statusCode, 401);
  });

  t.test('booking events, each signed and verified with standardwebhooks', async (t) => {
    const endpoint = await register('/bookings');
    t.match(endpoint.secret, /^whsec_[A-Za-z0-9+/]{43}=$/, 'the secret, shown once');
    const listed = await staff('GET', '/v1/webhooks');
    t.notOk(listed.body.includes(endpoint.secret), 'the list never shows the secret');
    t.match(listed.json().data, [{ id: endpoint.id, enabled: true, events: ALL_EVENTS }]);

    const created = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: inDays(4), time: '09:00', email: `hooks-${backend}@example.co.nz` }) });
    t.equal(created.statusCode, 201, created.body);
    let booking = created.json().booking as { _id: string; version: number; status: string };
    const step = async (url: string, payload: object) => {
      const res = await staff('POST', url, { version: booking.version, ...payload });
      t.equal(res.statusCode, 200, res.body);
      booking = res.json().booking;
    };
    if (booking.status !== 'confirmed') await step(`/v1/bookings/${booking._id}/status`, { status: 'confirmed' });
    await step(`/v1/bookings/${booking._id}/move`, { date: inDays(5), time: '11:00' });
    await step(`/v1/bookings/${booking._id}/status`, { status: 'cancelled' });

    const done = await seed(app, { email: `done-${backend}@example.co.nz`, name: 'Mere Done' });
    const completed = await staff('POST', `/v1/bookings/${done}/completion`, { version: 1, paid: true, paymentMethod: 'card' });
    t.equal(completed.statusCode, 200, completed.body);

    await app.webhooks.sendDue();
    const got = receivedAt('/bookings').map((r) => ({ ...verify(endpoint.secret, r), id: r.headers['webhook-id'] }));
    t.same(
      got.map((p) => p.type),
      ['booking.created', 'booking.confirmed', 'booking.moved', 'booking.cancelled', 'booking.completed', 'payment.recorded'],
      'one delivery per change, in order, every one verified',
    );
    t.equal(new Set(got.map((p) => p.id)).size, got.length, 'each its own webhook-id');
    t.equal(got[0]!.data.booking._id, booking._id);
    t.equal(got[2]!.data.booking.date, inDays(5), 'moved: the booking as moved');
    t.same(got[2]!.data.from, { date: inDays(4), time: '09:00' }, 'and where from');
    t.equal(got[3]!.data.booking.status, 'cancelled');
    t.equal(got[5]!.data.payment.paymentMethod, 'card');
    t.equal(got[5]!.data.booking._id, done);
    for (const r of receivedAt('/bookings')) t.notMatch(r.body, /manage|nonce|token/i, 'no manage token in a payload');
    t.ok((await deliveries(endpoint.id)).every((d) => d.status === 'delivered' && d.attempts === 1 && d.lastStatus === 204));

    // A wrong secret does not verify.
    t.throws(() => verify(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, receivedAt('/bookings')[0]!));

    // Resend: the same webhook-id again.
    const first = (await deliveries(endpoint.id)).at(-1)!;
    const resent = await staff('POST', `/v1/webhooks/deliveries/${first.id}/resend`);
    t.equal(resent.statusCode, 200, resent.body);
    await app.webhooks.sendDue();
    const again = receivedAt('/bookings').at(-1)!;
    t.equal(again.headers['webhook-id'], got[0]!.id, 'a resend keeps its webhook-id');
    verify(endpoint.secret, again);

    // Rotated: the old secret no longer verifies.
    const rotated = await staff('POST', `/v1/webhooks/${endpoint.id}/secret`);
    t.equal(rotated.statusCode, 200);
    t.not(rotated.json().secret, endpoint.secret);
    await staff('POST', `/v1/webhooks/deliveries/${first.id}/resend`);
    await app.webhooks.sendDue();
    t.throws(() => verify(endpoint.secret, receivedAt('/bookings').at(-1)!), 'the old secret fails');
    verify(rotated.json().secret, receivedAt('/bookings').at(-1)!);
    t.equal((await staff('DELETE', `/v1/webhooks/${endpoint.id}`)).statusCode, 204);
  });

  t.test('a receiver answering 500 twice gets the third attempt; a redirect is a failure, not followed', async (t) => {
    const endpoint = await register('/flaky', ['booking.created']);
    hooks.answers.push({ status: 500 }, { status: 500 });
    const created = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: inDays(6), time: '09:00', email: `flaky-${backend}@example.co.nz` }) });
    t.equal(created.statusCode, 201, created.body);
    await app.webhooks.sendDue();
    t.equal(receivedAt('/flaky').length, 1);
    t.match(await deliveries(endpoint.id), [{ status: 'queued', attempts: 1, lastStatus: 500 }]);
    await app.webhooks.sendDue();
    t.equal(receivedAt('/flaky').length, 1, 'not before its back-off');
    clock = new Date(clock.getTime() + 1_000);
    await app.webhooks.sendDue();
    t.equal(receivedAt('/flaky').length, 2, 'the second attempt after 1 s');
    clock = new Date(clock.getTime() + 2_000);
    await app.webhooks.sendDue();
    t.equal(receivedAt('/flaky').length, 3, 'the third after 2 s more');
    t.match(await deliveries(endpoint.id), [{ status: 'delivered', attempts: 3, lastStatus: 204 }]);
    const ids = receivedAt('/flaky').map((r) => r.headers['webhook-id']);
    t.equal(new Set(ids).size, 1, 'the same webhook-id on every attempt');

    hooks.answers.push({ status: 302, location: hooks.url('/elsewhere') });
    await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: inDays(6), time: '13:00', email: `redirect-${backend}@example.co.nz` }) });
    await app.webhooks.sendDue();
    t.equal(receivedAt('/elsewhere').length, 0, 'the redirect was not followed');
    t.match((await deliveries(endpoint.id))[0], { status: 'queued', lastStatus: 302, lastError: /redirect/ });
    await staff('DELETE', `/v1/webhooks/${endpoint.id}`);
  });

  t.test('an endpoint failing for WEBHOOK_DISABLE_AFTER_DAYS is turned off and the owner e-mailed', async (t) => {
    const endpoint = await register('/dead', ['booking.created']);
    await app.db.updateTable('webhook_endpoints').set({ failing_since: new Date(clock.getTime() - 5 * 86_400_000 + 1_000) }).where('id', '=', endpoint.id).execute();
    hooks.answers.push({ status: 500 });
    await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: inDays(8), time: '09:00', email: `dead-${backend}@example.co.nz` }) });
    await app.webhooks.sendDue();
    t.match((await staff('GET', '/v1/webhooks')).json().data.find((e: { id: string }) => e.id === endpoint.id), { enabled: true }, 'not yet: 5 days less a second');
    clock = new Date(clock.getTime() + 60_000);
    hooks.answers.push({ status: 500 });
    await app.webhooks.sendDue();
    t.equal(receivedAt('/dead').length, 2);
    t.match((await staff('GET', '/v1/webhooks')).json().data.find((e: { id: string }) => e.id === endpoint.id), { enabled: false, disabledReason: /failed for 5 days/ });
    const mail = await app.db.selectFrom('outbox_emails').selectAll().where('kind', '=', 'staff-webhook-disabled').execute();
    t.equal(mail.length, 1, 'the owner is e-mailed once');
    t.match(mail[0], { subject: /webhook endpoint was turned off/i, text_body: /\/dead/ });
    clock = new Date(clock.getTime() + 3_600_000);
    await app.webhooks.sendDue();
    t.equal(receivedAt('/dead').length, 2, 'nothing more is sent to it');
    await staff('DELETE', `/v1/webhooks/${endpoint.id}`);
  });

  t.test('a delivery queued before an erasure and sent after carries no personal data', async (t) => {
    const endpoint = await register('/privacy');
    // The first attempt fails: the delivery waits for its retry, queued with the booking as it was.
    hooks.answers.push({ status: 503 });
    const email = `wiremu-${backend}@example.co.nz`;
    const created = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: inDays(7), time: '09:00', name: 'Wiremu Secretname', email, phone: '021 555 0199' }) });
    t.equal(created.statusCode, 201, created.body);
    const queued = await app.db.selectFrom('webhook_deliveries').select('payload').where('endpoint_id', '=', endpoint.id).executeTakeFirstOrThrow();
    t.match(JSON.stringify(queued.payload), /Secretname/, 'queued with the booking as it was');
    await app.webhooks.sendDue();
    t.equal(receivedAt('/privacy').length, 1, 'the first attempt, before the erasure');
    const customer = (await staff('GET', `/v1/customers?q=${encodeURIComponent(email)}`)).json().data[0] as { id: string };
    const erased = await staff('POST', `/v1/customers/${customer.id}/erasure`, { confirmation: 'ERASE' });
    t.equal(erased.statusCode, 200, erased.body);
    clock = new Date(clock.getTime() + 60_000);
    await app.webhooks.sendDue();
    const got = receivedAt('/privacy').slice(1);
    t.same(got.map((r) => verify(endpoint.secret, r).type), ['booking.created', 'customer.erased']);
    for (const r of got) t.notMatch(r.body, /Secretname|Wiremu|wiremu|555 0199|0199/, 'nothing personal');
    t.equal(verify(endpoint.secret, got[0]!).data.booking.name, 'Erased', 'the erased values');
    await staff('DELETE', `/v1/webhooks/${endpoint.id}`);
  });
});

t.test('without WEBHOOKS_ALLOW_PRIVATE a private address is refused, at registration and at delivery', async (t) => {
  const app = await buildTestApp(t, {});
  const cookie = await login(app);
  for (const url of ['http://127.0.0.1:9/hook', 'http://10.1.2.3/hook', 'http://[::1]/hook', 'http://169.254.169.254/latest', 'http://[::ffff:192.168.0.1]/', 'http://localhost/hook']) {
    const res = await app.inject({ method: 'POST', url: '/v1/webhooks', headers: { cookie }, payload: { url, events: ['booking.created'] } });
    t.equal(res.statusCode, 400, url);
    t.match(res.json().errors, [{ field: 'url' }]);
  }
  // One that got in (an address that resolved to a public one then): refused at delivery, never connected.
  const hooks = await receiver(t);
  await app.db.insertInto('webhook_endpoints').values({ url: hooks.url('/sneaky'), events: ['booking.created'], description: '', secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}` }).execute();
  const created = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: inDays(4), time: '09:00', email: 'private@example.co.nz' }) });
  t.equal(created.statusCode, 201, created.body);
  await app.webhooks.sendDue();
  t.equal(hooks.received.length, 0, 'nothing reached the private address');
  const delivery = await app.db.selectFrom('webhook_deliveries').selectAll().executeTakeFirstOrThrow();
  t.match(delivery, { status: 'queued', attempts: 1, last_status: null, last_error: /private/ });
});

t.test('in production a URL must be https', async (t) => {
  const { webhookUrlProblem } = await import('../src/domain/webhooks.ts');
  t.match(webhookUrlProblem('http://example.com/hook', { httpsOnly: true }), /https/);
  t.equal(webhookUrlProblem('https://example.com/hook', { httpsOnly: true }), undefined);
  t.ok(webhookUrlProblem('https://user:pw@example.com/hook', { httpsOnly: true }));
  t.ok(webhookUrlProblem('ftp://example.com/', { httpsOnly: false }));
});

t.test('a booking that lapses unconfirmed (BOOKING_CONFIRMATION=email) sends booking.cancelled', async (t) => {
  let clock = testNow;
  const app = await buildTestApp(t, { env: { WEBHOOKS_ALLOW_PRIVATE: 'true', BOOKING_CONFIRMATION: 'email', CONFIRM_WITHIN_MINUTES: '30' }, now: () => clock });
  const cookie = await login(app);
  const hooks = await receiver(t);
  const made = await app.inject({ method: 'POST', url: '/v1/webhooks', headers: { cookie }, payload: { url: hooks.url('/lapse'), events: ['booking.created', 'booking.cancelled'] } });
  t.equal(made.statusCode, 201, made.body);
  const created = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: inDays(4), time: '09:00', email: 'lapse@example.co.nz' }) });
  t.equal(created.statusCode, 201, created.body);
  clock = new Date(clock.getTime() + 31 * 60_000);
  t.same(await app.lapseUnconfirmedBookings(), [created.json().id]);
  await app.webhooks.sendDue();
  const got = hooks.received.map((r) => verify(made.json().secret, r));
  t.same(got.map((p) => p.type), ['booking.created', 'booking.cancelled']);
  t.match(got[1], { data: { lapsed: true, booking: { status: 'cancelled', lapsedAt: String } } });
});
