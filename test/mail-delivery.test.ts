/**
 * E-mail delivery end to end (one app and one SMTP server per backend): bookings, status changes and contact messages queue their
 * e-mails in their transaction, and the sender delivers them to a real SMTP server on loopback.
 */
import t from 'tap';
import type { AddressObject } from 'mailparser';
import { addDaysToDay, slotStartsAt } from '../src/domain/booking-dates.ts';
import { buildTestApp, forEachBackend, login } from './helper.ts';
import { inDays, nextDaylightSavingEnd, testNow } from './support/payloads.ts';
import { STAFF, book, eventOf, invitationOf, logCollector, mailEnv, outbox, to } from './support/mail.ts';
import { startSmtp, until } from './support/smtp.ts';

await forEachBackend(t, async (t, backend) => {
  const smtp = await startSmtp(t);
  const logs = logCollector();
  // A clock that moves (from the test file's now), so that retries fall due.
  const started = performance.now();
  const app = await buildTestApp(t, { backend, env: mailEnv(smtp), logStream: logs.stream, now: () => new Date(testNow.getTime() + performance.now() - started) });
  const cookie = await login(app);
  const received = (address: string) => smtp.received.filter((m) => to(m).includes(address));

  t.test('a booking sends the customer a confirmation with an invitation, and staff a notification', async (t) => {
    const date = inDays(5);
    const booking = await book(app, { date, time: '09:00', email: 'mere.confirm@example.co.nz', phone: '+64 21 555 9876' });
    const forStaff = () => received(STAFF).find((m) => m.subject!.includes(booking.reference));
    await until(() => received('mere.confirm@example.co.nz').length === 1 && forStaff() !== undefined, 'both e-mails');

    const customer = received('mere.confirm@example.co.nz')[0]!;
    t.ok(customer, 'the customer got an e-mail');
    t.match(customer.subject, booking.reference, 'the subject carries the reference');
    t.equal((customer.from as AddressObject).value[0]!.address, 'hello@aucklandvalet.test');
    for (const part of [customer.text!, String(customer.html)]) {
      t.match(part, booking.reference);
      t.match(part, 'Deluxe Clean');
      t.match(part, 'Medium Car');
      t.match(part, '7 Ellerslie-Panmure Highway, Mount Wellington');
      t.match(part, /Total/);
      t.match(part, /pay on completion/);
      t.match(part, '021 555 0123');
      t.match(part, 'support@aucklandvalet.co.nz');
    }
    const when = new Intl.DateTimeFormat('en-NZ', { timeZone: 'Pacific/Auckland', weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' })
      .format(new Date(slotStartsAt(date, '09:00')))
      .replace(',', '');
    t.match(customer.text!, `${when}, 9:00 am`, 'the date and time written for people');
    t.match(String(customer.html), /<!DOCTYPE html>/);

    const ics = invitationOf(customer);
    t.ok(ics, 'an invitation is attached');
    t.match(ics!, /METHOD:REQUEST/);
    const event = eventOf(ics!);
    t.equal(event.uid, `${booking.id}@localhost`, 'a stable UID per booking');
    t.equal(event.start.toISOString(), new Date(slotStartsAt(date, '09:00')).toISOString(), 'starts at the slot in Auckland');
    t.equal(event.end!.getTime() - event.start.getTime(), 210 * 60_000, "lasts the package's duration (Deluxe Clean, medium car: 3½ hours)");

    const staff = forStaff()!;
    t.ok(staff, 'staff got a notification');
    t.same((staff.replyTo as AddressObject).value.map((a) => a.address), ['mere.confirm@example.co.nz'], 'Reply-To is the customer');
    t.match(staff.text!, booking.reference);
    t.match(staff.text!, '+64 21 555 9876');

    // The SMTP server has the message before the sender hears its answer and records the outcome.
    await until(async () => (await outbox(app, booking.id)).filter((r) => r.status === 'sent').length === 2, 'both rows marked sent');
    const rows = await outbox(app, booking.id);
    t.same(rows.map((r) => [r.kind, r.status]).sort(), [['booking-created', 'sent'], ['booking-reminder', 'queued'], ['staff-new-booking', 'sent']]);
    const logged = logs.lines.filter((l) => l.includes('e-mail sent'));
    t.ok(logged.length >= 2, 'sends are logged');
    t.notOk(logs.lines.some((l) => l.includes('example.co.nz') || l.includes(STAFF)), 'no address in the logs');
  });

  t.test('a booking on the day daylight saving ends keeps its wall-clock time', async (t) => {
    // The next such day, not a fixed one, which could be booked only until the day before it.
    const day = nextDaylightSavingEnd();
    const booking = await book(app, { date: day, time: '09:00', email: 'dst@example.co.nz' });
    await until(() => smtp.received.some((m) => to(m).includes('dst@example.co.nz')), 'the confirmation');
    const mail = smtp.received.find((m) => to(m).includes('dst@example.co.nz'))!;
    t.match(mail.text!, `Sunday ${Number(day.slice(8))} April ${day.slice(0, 4)}, 9:00 am`);
    const event = eventOf(invitationOf(mail)!);
    t.equal(event.start.toISOString(), `${addDaysToDay(day, -1)}T21:00:00.000Z`, '9:00 NZST (+12:00) after the clocks went back');
    t.equal(event.uid, `${booking.id}@localhost`);
  });

  t.test('a contact message notifies staff with Reply-To the sender', async (t) => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/contact-us-form',
      payload: { name: 'Aroha <b>Smith</b>', email: 'aroha@example.co.nz', phone: '021 123 4567', message: 'Do you do boats?\nThanks' },
    });
    t.equal(res.statusCode, 201);
    const fromAroha = () => received(STAFF).find((m) => (m.replyTo as AddressObject | undefined)?.value[0]?.address === 'aroha@example.co.nz');
    await until(() => fromAroha() !== undefined, 'the notification');
    const mail = fromAroha()!;
    t.same(to(mail), [STAFF]);
    t.same((mail.replyTo as AddressObject).value.map((a) => a.address), ['aroha@example.co.nz']);
    t.match(mail.text!, 'Do you do boats?');
    t.match(String(mail.html), 'Aroha &lt;b&gt;Smith&lt;/b&gt;', 'user data is escaped in the HTML part');
    t.notMatch(String(mail.html), '<b>Smith</b>');
  });

  t.test('staff confirming and cancelling tell the customer; a cancellation withdraws the invitation', async (t) => {
    const booking = await book(app, { email: 'status@example.co.nz', date: inDays(6) });
    const change = (status: string, version: number) =>
      app.inject({ method: 'POST', url: `/v1/bookings/${booking.id}/status`, headers: { cookie }, payload: { status, version } });
    t.equal((await change('confirmed', 1)).statusCode, 200);
    t.equal((await change('cancelled', 2)).statusCode, 200);
    await until(() => received('status@example.co.nz').length >= 3, 'three customer e-mails');
    const subjects = received('status@example.co.nz').map((m) => m.subject);
    t.ok(subjects.some((s) => /confirmed/.test(s!)));
    const cancelled = received('status@example.co.nz').find((m) => /cancelled/.test(m.subject!))!;
    const ics = invitationOf(cancelled)!;
    t.match(ics, /METHOD:CANCEL/);
    const event = eventOf(ics);
    t.equal(event.uid, `${booking.id}@localhost`, 'the same UID');
    t.equal(Number(event.sequence), 3, 'a higher SEQUENCE');
    const reminder = (await outbox(app, booking.id)).find((r) => r.kind === 'booking-reminder')!;
    t.equal(reminder.status, 'skipped', 'no reminder for a cancelled booking');
  });

  t.test('an SMTP server refusing mail: retries, then failed; Resend delivers it once', async (t) => {
    smtp.refuse = 'Mailbox busy';
    const res = await app.inject({ method: 'POST', url: '/v1/contact-us-form', payload: { name: 'Retry', email: 'retry@example.co.nz', phone: '021 123 4567', message: 'Hello' } });
    t.equal(res.statusCode, 201);
    const row = async () => (await outbox(app)).find((r) => r.contact_message_id === res.json().id)!;
    await until(async () => (await row()).status === 'failed', 'the e-mail to fail');
    const failed = await row();
    t.equal(failed!.attempts, 3, 'tried MAIL_MAX_ATTEMPTS times');
    t.match(failed!.last_error, /Mailbox busy/);

    const list = (await app.inject({ url: '/v1/emails', headers: { cookie } })).json();
    t.match(list.data[0], { id: failed!.id, status: 'failed', attempts: 3, lastError: /Mailbox busy/, kind: 'staff-contact-message' });

    smtp.refuse = undefined;
    const resend = () => app.inject({ method: 'POST', url: `/v1/emails/${failed!.id}/resend`, headers: { cookie }, payload: {} });
    const answers = await Promise.all([resend(), resend()]);
    t.same(answers.map((a) => a.statusCode).sort(), [200, 409], 'two clicks resend once');
    await until(async () => (await row()).status === 'sent', 'the resent e-mail to be sent');
    await app.mailer.wake();
    t.equal(smtp.received.filter((m) => m.text!.includes('retry@example.co.nz')).length, 1, 'delivered exactly once');
    t.equal((await resend()).statusCode, 409, 'a sent e-mail is not resent');
  });

  t.test("the confirmation's manage link opens the booking; cancelling and moving there tell the customer", async (t) => {
    const links = async (address: string) => {
      await until(() => received(address).length >= 1, 'the confirmation');
      const mail = received(address)[0]!;
      const inText = /http:\/\/localhost:\d+(\/booking\/manage\/[A-Za-z0-9_-]{43})/.exec(mail.text!);
      t.ok(inText, 'the plain-text part carries the manage link');
      t.match(String(mail.html), `href="${inText![0]}"`, 'the HTML part links to it too');
      return inText![1]!;
    };
    const form = (fields: Record<string, string>) => ({
      method: 'POST' as const,
      payload: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:80' },
    });

    const leaving = await book(app, { email: 'leaving@example.co.nz', date: inDays(7), time: '10:00' });
    const cancelPath = await links('leaving@example.co.nz');
    const page = await app.inject({ url: cancelPath });
    t.equal(page.statusCode, 200, 'the link opens the manage page');
    t.match(page.body, leaving.reference);
    t.equal((await app.inject({ ...form({ version: '1', confirm: 'yes' }), url: `${cancelPath}/cancel` })).statusCode, 303);
    await until(() => received('leaving@example.co.nz').length === 2, 'the cancellation');
    const cancellation = received('leaving@example.co.nz')[1]!;
    t.match(cancellation.subject, leaving.reference);
    t.match(invitationOf(cancellation)!, /METHOD:CANCEL/, 'the invitation is withdrawn');

    const moving = await book(app, { email: 'moving@example.co.nz', date: inDays(7), time: '11:00' });
    const movePath = await links('moving@example.co.nz');
    const moved = await app.inject({ ...form({ version: '1', date: inDays(8), time: '14:00', confirm: 'yes' }), url: `${movePath}/move` });
    t.equal(moved.statusCode, 303);
    await until(() => received('moving@example.co.nz').length === 2, 'the update');
    const update = received('moving@example.co.nz')[1]!;
    const event = eventOf(invitationOf(update)!);
    t.match(invitationOf(update)!, /METHOD:REQUEST/);
    t.equal(event.uid, `${moving.id}@localhost`, 'the same UID');
    t.equal(event.start.toISOString(), new Date(slotStartsAt(inDays(8), '14:00')).toISOString(), 'the new time');
    t.match(invitationOf(update)!, /SEQUENCE:[1-9]/, 'a higher SEQUENCE');
    t.match(update.text!, movePath, 'the same manage link still works');
  });

  t.test('closing the app lets the send in flight finish', async (t) => {
    let release!: () => void;
    smtp.hold = new Promise((r) => (release = r));
    const started = smtp.deliveryStarted();
    await app.inject({ method: 'POST', url: '/v1/contact-us-form', payload: { name: 'Close', email: 'close@example.co.nz', phone: '021 123 4567', message: 'Hi' } });
    await started;
    const before = logs.lines.length;
    const closed = app.close();
    setTimeout(release, 200);
    await closed;
    t.equal(smtp.received.filter((m) => m.text!.includes('close@example.co.nz')).length, 1, 'the message was delivered');
    t.ok(logs.lines.slice(before).some((l) => l.includes('e-mail sent')), 'and recorded as sent before the database closed');
  });
});
