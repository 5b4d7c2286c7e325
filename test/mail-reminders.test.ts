/**
 * Reminders, driven by the app's clock (a fake one here): sent once at REMINDER_HOURS_BEFORE the
 * appointment, none for a cancelled booking or one made inside the window, re-timed when the
 * booking moves; and two sender loops on one PostgreSQL deliver each e-mail once.
 */
import t from 'tap';
import { slotStartsAt } from '../src/domain/booking-dates.ts';
import { queueBookingMail } from '../src/mail/booking-mail.ts';
import { backends, buildTestApp, createServerDatabase, forEachBackend, login, type Backend } from './helper.ts';
import { inDays, testNow } from './support/payloads.ts';
import { STAFF, book, eventOf, invitationOf, mailEnv, outbox, to } from './support/mail.ts';
import { startSmtp, until } from './support/smtp.ts';

const hoursBefore = (date: string, time: string, hours: number) => new Date(new Date(slotStartsAt(date, time)).getTime() - hours * 3_600_000);

await forEachBackend(t, async (t, backend) => {
  const smtp = await startSmtp(t);
  let clock = testNow;
  const app = await buildTestApp(t, { backend, env: mailEnv(smtp, { REMINDER_HOURS_BEFORE: '24' }), now: () => clock });
  const cookie = await login(app);
  const reminders = () => smtp.received.filter((m) => /^Reminder/.test(m.subject!));

  t.test('the reminder is sent once at its time, not for a cancelled booking, and re-timed on a move', async (t) => {
    const kept = await book(app, { email: 'kept@example.co.nz', date: inDays(4), time: '11:00' });
    const cancelled = await book(app, { email: 'gone@example.co.nz', date: inDays(4), time: '11:00' });
    const moved = await book(app, { email: 'moved@example.co.nz', date: inDays(5), time: '12:00' });
    t.equal((await app.inject({ method: 'POST', url: `/v1/bookings/${cancelled.id}/status`, headers: { cookie }, payload: { status: 'cancelled', version: 1 } })).statusCode, 200);
    // The manage page's move: the booking changes and queueBookingMail runs in the same transaction.
    await app.db.transaction().execute(async (trx) => {
      const startsAt = new Date(slotStartsAt(inDays(6), '08:00'));
      await trx
        .updateTable('bookings')
        .set((eb) => ({ date: inDays(6), time: '08:00', starts_at: startsAt, ends_at: new Date(startsAt.getTime() + 210 * 60_000), version: eb('version', '+', 1) }))
        .where('id', '=', moved.id)
        .execute();
      await queueBookingMail(trx, { type: 'moved', bookingId: moved.id, by: 'customer', from: { date: inDays(5), time: '12:00' } }, app.mail);
    });
    await app.mailer.wake();
    t.equal(reminders().length, 0, 'no reminder before its time');

    const movedMail = smtp.received.find((m) => /moved/.test(m.subject!))!;
    t.ok(movedMail, 'the customer is told of the move');
    const event = eventOf(invitationOf(movedMail)!);
    t.equal(event.uid, `${moved.id}@localhost`, 'the same UID as the first invitation');
    t.equal(Number(event.sequence), 2, 'a higher SEQUENCE');
    t.equal(event.start.toISOString(), new Date(slotStartsAt(inDays(6), '08:00')).toISOString(), 'the new time');

    clock = new Date(hoursBefore(inDays(4), '11:00', 24).getTime() + 1000);
    await app.mailer.wake();
    await app.mailer.wake();
    t.same(reminders().flatMap(to), ['kept@example.co.nz'], 'one reminder, to the booking that stands, at its time');

    clock = new Date(hoursBefore(inDays(6), '08:00', 24).getTime() + 1000);
    await app.mailer.wake();
    await app.mailer.wake();
    t.same(reminders().flatMap(to).sort(), ['kept@example.co.nz', 'moved@example.co.nz'], 'the moved booking is reminded at its new time, once');
    t.equal((await outbox(app, cancelled.id)).find((r) => r.kind === 'booking-reminder')?.status, 'skipped');
    t.same((await outbox(app, moved.id)).filter((r) => r.kind === 'booking-reminder').map((r) => r.status).sort(), ['sent', 'skipped'], 'the old reminder was dropped');
    t.equal((await outbox(app, kept.id)).filter((r) => r.kind === 'booking-reminder' && r.status === 'sent').length, 1);
  });

  t.test('a cancelled booking reopened and confirmed gets its reminder back', async (t) => {
    const booking = await book(app, { email: 'back@example.co.nz', date: inDays(8), time: '15:00' });
    const change = (status: string, version: number) =>
      app.inject({ method: 'POST', url: `/v1/bookings/${booking.id}/status`, headers: { cookie }, payload: { status, version } });
    t.equal((await change('cancelled', 1)).statusCode, 200);
    t.equal((await change('pending', 2)).statusCode, 200);
    t.equal((await change('confirmed', 3)).statusCode, 200);
    const statuses = (await outbox(app, booking.id)).filter((r) => r.kind === 'booking-reminder').map((r) => r.status).sort();
    t.same(statuses, ['queued', 'skipped']);
    t.equal((await change('cancelled', 4)).statusCode, 200);
    t.equal((await change('pending', 5)).statusCode, 200);
    t.equal((await change('confirmed', 6)).statusCode, 200);
    t.equal((await outbox(app, booking.id)).filter((r) => r.kind === 'booking-reminder' && r.status === 'queued').length, 1, 'never two live reminders');
  });

  t.test('no reminder for a booking made inside the reminder window', async (t) => {
    const date = inDays(10);
    clock = hoursBefore(date, '07:00', 20);
    const booking = await book(app, { email: 'soon@example.co.nz', date, time: '07:00' });
    t.same((await outbox(app, booking.id)).map((r) => r.kind).sort(), ['booking-created', 'staff-new-booking']);
  });
});

t.test('two sender loops on one PostgreSQL deliver each e-mail once', { skip: backends().includes('postgres') ? false : 'needs TEST_DATABASE_URL' }, async (t) => {
  const smtp = await startSmtp(t);
  const env = mailEnv(smtp, { DATABASE_URL: await createServerDatabase(t), MAIL_POLL_MS: '10' });
  const first = await buildTestApp(t, { backend: 'postgres' as Backend, env });
  const second = await buildTestApp(t, { backend: 'postgres' as Backend, env });
  const rows = Array.from({ length: 40 }, (_, i) => ({
    kind: 'staff-contact-message',
    to_name: 'Staff',
    to_address: STAFF,
    subject: `Message ${i}`,
    text_body: `Message ${i}`,
    html_body: `<p>Message ${i}</p>`,
    next_attempt_at: testNow,
  }));
  await first.db.insertInto('outbox_emails').values(rows).execute();
  await Promise.all([first.mailer.wake(), second.mailer.wake()]);
  await until(async () => (await first.db.selectFrom('outbox_emails').select('id').where('status', '=', 'sent').execute()).length === 40, 'all 40 sent');
  const subjects = smtp.received.map((m) => m.subject);
  t.equal(subjects.length, 40, 'forty deliveries');
  t.equal(new Set(subjects).size, 40, 'each e-mail once');
});
