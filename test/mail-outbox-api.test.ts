/**
 * The outbox without an SMTP server (the default), the staff API over it, and the e-mail rule
 * that keeps headers and recipients out of both forms.
 */
import t from 'tap';
import { buildTestApp, forEachBackend, login } from './helper.ts';
import { originalClientPayload } from './support/payloads.ts';
import { book, logCollector, mailEnv, outbox } from './support/mail.ts';

await forEachBackend(t, async (t, backend) => {
  const logs = logCollector();
  const app = await buildTestApp(t, { backend, env: mailEnv(undefined), logStream: logs.stream });
  const cookie = await login(app);

  t.test('without SMTP the e-mails are kept, marked unsent when due, and the log says so once', async (t) => {
    const booking = await book(app, { email: 'nosmtp@example.co.nz' });
    await app.mailer.wake();
    await app.mailer.wake();
    const rows = await outbox(app, booking.id);
    t.same(rows.map((r) => [r.kind, r.status]).sort(), [['booking-created', 'unsent'], ['booking-reminder', 'queued'], ['staff-new-booking', 'unsent']]);
    t.equal(logs.lines.filter((l) => l.includes('SMTP is not configured')).length, 1);
  });

  t.test('the staff API: list by booking, preview, sandboxed HTML, needs the session', async (t) => {
    const booking = await book(app, { email: 'preview@example.co.nz' });
    const list = await app.inject({ url: `/v1/emails?bookingId=${booking.id}`, headers: { cookie } });
    t.equal(list.statusCode, 200);
    t.equal(list.headers['cache-control'], 'no-store');
    const data = list.json().data as { id: string; kind: string; bookingReference: string }[];
    t.equal(data.length, 3);
    t.ok(data.every((e) => e.bookingReference === booking.reference));
    const confirmation = data.find((e) => e.kind === 'booking-created')!;
    const detail = (await app.inject({ url: `/v1/emails/${confirmation.id}`, headers: { cookie } })).json();
    t.match(detail, { email: { to: 'Mere Ngata <preview@example.co.nz>' }, text: new RegExp(booking.reference), invitation: { method: 'REQUEST' } });
    const html = await app.inject({ url: `/v1/emails/${confirmation.id}/html`, headers: { cookie } });
    t.equal(html.statusCode, 200);
    t.match(html.headers['content-type'], /text\/html/);
    t.match(html.headers['content-security-policy'], /default-src 'none'/);
    t.match(html.headers['content-security-policy'], /sandbox/);
    t.notMatch(html.headers['content-security-policy'], /script-src/);
    t.match(html.body, booking.reference);
    t.equal((await app.inject({ url: `/v1/emails/${confirmation.id}/html` })).statusCode, 401);
    t.equal((await app.inject({ url: '/v1/emails/00000000-0000-4000-8000-000000000000', headers: { cookie } })).statusCode, 404);
    t.equal((await app.inject({ url: '/v1/emails?cursor=abc', headers: { cookie } })).statusCode, 400);

    const all = (await app.inject({ url: '/v1/emails?limit=2', headers: { cookie } })).json();
    t.equal(all.data.length, 2);
    const next = (await app.inject({ url: `/v1/emails?limit=2&cursor=${all.nextCursor}`, headers: { cookie } })).json();
    t.ok(next.data.length > 0 && !next.data.some((e: { id: string }) => all.data.some((f: { id: string }) => f.id === e.id)), 'pages do not overlap');

    const unsent = data.find((e) => e.kind === 'staff-new-booking')!;
    await app.mailer.wake();
    // Once SMTP is configured, staff can send what was kept (the compare-and-set is tested with a real server in mail-delivery).
    const resend = await app.inject({ method: 'POST', url: `/v1/emails/${unsent.id}/resend`, headers: { cookie }, payload: {} });
    t.equal(resend.statusCode, 200);
    t.match(resend.json(), { id: unsent.id, status: 'queued', attempts: 0 });
    const sent = data.find((e) => e.kind === 'booking-reminder')!;
    t.equal((await app.inject({ method: 'POST', url: `/v1/emails/${sent.id}/resend`, headers: { cookie }, payload: {} })).statusCode, 409, 'a queued e-mail is not resent');
  });

  t.test('addresses that could inject headers or recipients are refused by both forms', async (t) => {
    const before = (await outbox(app)).length;
    for (const email of ['<x@y.com>', 'a@b.co?cc=x', 'a@b.co,c@d.co', 'a b@c.co', 'x@y.com\r\nBcc: z@w.com', '"x"@y.com', 'a@b']) {
      const booking = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ email }) });
      t.equal(booking.statusCode, 400, `booking with ${JSON.stringify(email)}`);
      t.ok(booking.json().errors.some((e: { field: string }) => e.field === 'email'), 'about the e-mail');
      const contact = await app.inject({ method: 'POST', url: '/v1/contact-us-form', payload: { name: 'A', email, phone: '021 123 4567', message: 'Hi' } });
      t.equal(contact.statusCode, 400, `contact with ${JSON.stringify(email)}`);
    }
    for (const url of ['/v1/create-booking', '/v1/contact-us-form']) {
      const payload = url === '/v1/create-booking' ? originalClientPayload({ email: 'a@b.co?cc=x' }) : { name: 'A', email: '<x@y.com>', phone: '021 123 4567', message: 'Hi' };
      const res = await app.inject({ method: 'POST', url, payload });
      t.same(res.json().errors, [{ field: 'email', message: 'Please enter a valid email address' }], url);
    }
    t.equal((await outbox(app)).length, before, 'nothing queued');
  });
});
