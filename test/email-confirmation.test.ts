/**
 * Issue 23, BOOKING_CONFIRMATION=email: a new customer's online booking holds its place for
 * CONFIRM_WITHIN_MINUTES and is shown as awaiting e-mail confirmation until the customer presses
 * "Confirm my booking" on the page their e-mail links to; an unconfirmed one lapses by itself
 * (cancelled, its place freed, no e-mail to the address given) and is listed for staff. The
 * clock is the app's, moved by the test: nothing sleeps.
 */
import t from 'tap';
import { CONFIRM_BOOKING_LABEL, MANAGE_MESSAGES } from '../src/domain/manage-rules.ts';
import { LAPSE_ACTOR } from '../src/db/email-confirmation.repository.ts';
import { manageLinkFor } from '../src/db/manage-link.repository.ts';
import { composeQueued } from '../src/mail/booking-mail.ts';
import { buildTestApp, forEachBackend, login } from './helper.ts';
import { inDays, nextWeekday, originalClientPayload, testNow } from './support/payloads.ts';

const MINUTE = 60_000;

forEachBackend(t, async (t, backend) => {
  let clock = testNow;
  const app = await buildTestApp(t, { backend, now: () => clock, env: { BOOKING_CONFIRMATION: 'email', CONFIRM_WITHIN_MINUTES: '120', ONSITE_TEAMS: '1', DROPOFF_BAYS: '1' } });
  const cookie = await login(app);
  const book = (overrides: Record<string, unknown>) => app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload(overrides) });
  const row = (id: string) => app.db.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const pathOf = async (id: string) => new URL((await manageLinkFor(app.db, id, 'http://localhost'))!).pathname;
  const form = (url: string, fields: Record<string, string>) =>
    app.inject({ method: 'POST', url, payload: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:80' } });
  const listed = async (confirmation: string) =>
    ((await app.inject({ url: `/v1/bookings?confirmation=${confirmation}`, headers: { cookie } })).json().data as { _id: string }[]).map((b) => b._id);

  t.test('a new customer is asked to confirm, by the answer, the e-mail and the manage page', async (t) => {
    const res = await book({ email: 'new.customer@example.co.nz', date: inDays(5), time: '09:00' });
    t.equal(res.statusCode, 201);
    t.match(res.json().message, 'Please confirm it within 120 minutes', 'the answer says so');
    const booking = await row(res.json().id);
    t.equal(booking.status, 'pending');
    t.equal(booking.awaiting_email_until?.getTime(), clock.getTime() + 120 * MINUTE, 'it waits 120 minutes from now');

    const queued = await app.db.selectFrom('outbox_emails').selectAll().where('booking_id', '=', booking.id).where('kind', '=', 'booking-created').executeTakeFirstOrThrow();
    const mail = composeQueued(queued, app.mail);
    t.match(mail.subject + mail.text_body, /confirm/i);
    t.match(mail.text_body, `press "${CONFIRM_BOOKING_LABEL}"`, 'the e-mail tells them how');

    const path = await pathOf(booking.id);
    const page = await app.inject({ url: path });
    t.equal(page.statusCode, 200);
    t.match(page.body, CONFIRM_BOOKING_LABEL, 'the page offers the button');
    t.equal((await row(booking.id)).awaiting_email_until?.getTime(), booking.awaiting_email_until?.getTime(), 'opening the link alone changes nothing');

    t.ok((await listed('awaiting')).includes(booking.id), 'staff see it awaiting');
    const dto = (await app.inject({ url: `/v1/bookings/${booking.id}`, headers: { cookie } })).json();
    t.equal(dto.booking.awaitingEmailUntil, booking.awaiting_email_until?.toISOString());

    t.equal((await form(`${path}/confirm-email`, { version: String(booking.version + 5) })).statusCode, 409, 'a stale version is refused');
    const confirmed = await form(`${path}/confirm-email`, { version: String(booking.version) });
    t.equal(confirmed.statusCode, 303);
    t.equal(confirmed.headers.location, `${path}?done=confirmed`);
    const after = await row(booking.id);
    t.equal(after.awaiting_email_until, null, 'no longer waiting');
    t.equal(after.status, 'pending', 'still for staff to confirm');
    t.match((await app.inject({ url: `${path}?done=confirmed` })).body, MANAGE_MESSAGES.emailConfirmed);
    const again = await form(`${path}/confirm-email`, { version: String(booking.version) });
    t.equal(again.headers.location, `${path}?done=confirmed`, 'a second click lands where the first did');
    const history = await app.db.selectFrom('booking_status_changes').selectAll().where('booking_id', '=', booking.id).execute();
    t.ok(history.some((h) => h.changed_by === 'Customer' && h.note === 'Confirmed from the e-mail link'), 'in the history');
    t.notOk((await listed('awaiting')).includes(booking.id));
  });

  t.test('an unconfirmed booking lapses when its time is up: its place is taken, without an e-mail to it', async (t) => {
    const first = await book({ email: 'never.confirms@example.co.nz', date: inDays(6), time: '10:00' });
    t.equal(first.statusCode, 201);
    const id = first.json().id as string;
    const outboxBefore = (await app.db.selectFrom('outbox_emails').select('id').where('booking_id', '=', id).execute()).length;
    t.equal((await book({ email: 'second@example.co.nz', date: inDays(6), time: '10:00' })).statusCode, 409, 'the one van is held while it waits');

    clock = new Date(testNow.getTime() + 119 * MINUTE);
    t.equal((await book({ email: 'third@example.co.nz', date: inDays(6), time: '10:00' })).statusCode, 409, 'still held a minute before');

    clock = new Date(testNow.getTime() + 121 * MINUTE);
    const taker = await book({ email: 'fourth@example.co.nz', date: inDays(6), time: '10:00' });
    t.equal(taker.statusCode, 201, 'after it, the place is free at once');
    const lapsed = await row(id);
    t.equal(lapsed.status, 'cancelled');
    t.equal(lapsed.lapsed_at?.getTime(), clock.getTime());
    t.equal(lapsed.awaiting_email_until, null);
    const history = await app.db.selectFrom('booking_status_changes').selectAll().where('booking_id', '=', id).execute();
    t.ok(history.some((h) => h.changed_by === LAPSE_ACTOR && h.to_status === 'cancelled'), 'recorded in its history');
    t.equal((await app.db.selectFrom('outbox_emails').select('id').where('booking_id', '=', id).execute()).length, outboxBefore, 'no e-mail to the address given');
    t.ok((await listed('lapsed')).includes(id), 'staff see it among the lapsed');
    const path = await pathOf(id);
    t.equal((await form(`${path}/confirm-email`, { version: String(lapsed.version - 1) })).statusCode, 409, 'too late to confirm');
    clock = testNow;
  });

  t.test('the sweep lapses bookings on days nobody books', async (t) => {
    const res = await book({ email: 'swept@example.co.nz', date: nextWeekday(3, 9), time: '13:00', serviceType: 'dropoff' });
    t.equal(res.statusCode, 201);
    clock = new Date(testNow.getTime() + 10 * MINUTE);
    t.same(await app.lapseUnconfirmedBookings(), [], 'nothing yet');
    clock = new Date(testNow.getTime() + 120 * MINUTE);
    t.same(await app.lapseUnconfirmedBookings(), [res.json().id], 'lapsed at its deadline');
    t.equal((await row(res.json().id)).status, 'cancelled');
    clock = testNow;
  });

  t.test('staff confirming a waiting booking ends the wait; a returning customer is not asked', async (t) => {
    const res = await book({ email: 'staff.confirms@example.co.nz', date: inDays(10), time: '09:00' });
    const booking = await row(res.json().id);
    t.ok(booking.awaiting_email_until);
    const confirmed = await app.inject({ method: 'POST', url: `/v1/bookings/${booking.id}/status`, headers: { cookie, origin: 'http://localhost:80' }, payload: { status: 'confirmed', version: booking.version } });
    t.equal(confirmed.statusCode, 200);
    t.equal((await row(booking.id)).awaiting_email_until, null, 'the database ends the wait with the status');

    await app.db.updateTable('bookings').set({ status: 'completed' }).where('id', '=', booking.id).execute();
    const returning = await book({ email: 'staff.confirms@example.co.nz', date: inDays(11), time: '09:00' });
    t.equal(returning.statusCode, 201);
    t.equal((await row(returning.json().id)).awaiting_email_until, null, 'served before: no confirmation step');
    t.notMatch(returning.json().message, 'Please confirm');
  });

  t.test('the database keeps the wait to pending bookings', async (t) => {
    const res = await book({ email: 'check@example.co.nz', date: inDays(12), time: '09:00' });
    await app.db.updateTable('bookings').set({ status: 'confirmed' }).where('id', '=', res.json().id).execute();
    t.equal((await row(res.json().id)).awaiting_email_until, null, 'a change of status by hand ends the wait too');
    await t.rejects(
      app.db.updateTable('bookings').set({ awaiting_email_until: new Date() }).where('id', '=', res.json().id).execute(),
      /bookings_awaiting_only_pending|check/i,
      'a confirmed booking cannot wait',
    );
  });
});
