/**
 * Issue 21, the Today view's actions: "On the way" e-mails the customer once with the arrival
 * time (to the next five minutes), only for an open on-site job on its day; "Started" records when
 * the work began. Both are compare-and-set on the version and written to the history.
 */
import t from 'tap';
import { addDaysToDay, aucklandInstant } from '../src/domain/booking-dates.ts';
import { arrivalTime, TODAY_MESSAGES } from '../src/services/today.service.ts';
import { composeQueued } from '../src/mail/booking-mail.ts';
import { buildTestApp, forEachBackend, login } from './helper.ts';
import { bayDay, originalClientPayload, testNow } from './support/payloads.ts';

t.test('arrival times are rounded up to five minutes', async (t) => {
  const at = new Date('2026-12-01T20:02:10Z');
  t.equal(arrivalTime(at, 20).toISOString(), '2026-12-01T20:25:00.000Z');
  t.equal(arrivalTime(new Date('2026-12-01T20:05:00Z'), 10).toISOString(), '2026-12-01T20:15:00.000Z');
});

forEachBackend(t, async (t, backend) => {
  let clock = testNow;
  const app = await buildTestApp(t, { backend, now: () => clock });
  const cookie = await login(app);
  const headers = { cookie, origin: 'http://localhost:80' };
  // A day the bays work too: one of its jobs is a drop-off.
  const day = bayDay(4);
  const book = async (overrides: Record<string, unknown>) => {
    const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: day, ...overrides }) });
    t.equal(res.statusCode, 201);
    return res.json().id as string;
  };
  const row = (id: string) => app.db.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const onTheWay = (id: string, body: Record<string, unknown>, h: Record<string, string> = headers) =>
    app.inject({ method: 'POST', url: `/v1/bookings/${id}/on-the-way`, headers: h, payload: body });
  const started = (id: string, body: Record<string, unknown>) => app.inject({ method: 'POST', url: `/v1/bookings/${id}/started`, headers, payload: body });
  const onTheWayMails = (id: string) =>
    app.db
      .selectFrom('outbox_emails')
      .selectAll()
      .where('booking_id', '=', id)
      .where('kind', '=', 'booking-on-the-way')
      .execute()
      // As the sender composes them (queued with their snapshot, issue 24).
      .then((rows) => rows.map((row) => composeQueued(row, app.mail)));

  const onsite = await book({ time: '09:00', email: 'today.onsite@example.co.nz' });
  const dropoff = await book({ time: '11:00', email: 'today.dropoff@example.co.nz', serviceType: 'dropoff' });
  const later = await book({ date: addDaysToDay(day, 1), time: '09:00', email: 'today.later@example.co.nz' });
  const cancelled = await book({ time: '15:00', email: 'today.cancelled@example.co.nz' });

  t.test('refused before the day, and for bad input', async (t) => {
    const res = await onTheWay(onsite, { version: 1, minutes: 20 });
    t.equal(res.statusCode, 409);
    t.equal(res.json().message, TODAY_MESSAGES.notToday);
    t.equal((await onTheWay(onsite, { version: 1, minutes: 20 }, {})).statusCode, 401, 'staff only');
    for (const body of [{ version: 1 }, { version: 1, minutes: 0 }, { version: 1, minutes: 241 }, { version: 1, minutes: 20, extra: 1 }, { minutes: 20 }]) {
      t.equal((await onTheWay(onsite, body)).statusCode, 400, JSON.stringify(body));
    }
    t.equal((await onTheWay('00000000-0000-4000-8000-000000000000', { version: 1, minutes: 20 })).statusCode, 404);
  });

  t.test('on the day: the customer is told once, with the arrival time', async (t) => {
    clock = new Date(aucklandInstant(day, '08:02'));
    t.equal((await onTheWay(onsite, { version: 7, minutes: 20 })).statusCode, 409, 'a stale version');
    const res = await onTheWay(onsite, { version: 1, minutes: 20 });
    t.equal(res.statusCode, 200);
    const body = res.json();
    t.equal(body.booking.arrivingAt, new Date(aucklandInstant(day, '08:25')).toISOString(), 'to the next five minutes');
    t.ok(body.history.some((h: { note: string | null }) => h.note?.startsWith('On the way, arriving about 8:25 am')), 'in the history');
    const mails = await onTheWayMails(onsite);
    t.equal(mails.length, 1, 'one e-mail');
    t.equal(mails[0]!.to_address, 'today.onsite@example.co.nz');
    t.match(mails[0]!.subject, 'arriving about 8:25 am');
    t.match(mails[0]!.text_body, 'expects to arrive about 8:25 am');

    const again = await onTheWay(onsite, { version: body.booking.version, minutes: 10 });
    t.equal(again.statusCode, 409);
    t.equal(again.json().message, TODAY_MESSAGES.alreadyOnTheWay('8:02 am'));
    t.equal((await onTheWayMails(onsite)).length, 1, 'still one e-mail');
    const copy = { ...mails[0]!, id: undefined, created_at: undefined };
    await t.rejects(app.db.insertInto('outbox_emails').values({ ...copy, id: undefined } as never).execute(), /outbox_emails_one_on_the_way|duplicate|unique/i, 'the database refuses a second one');

    const drop = await onTheWay(dropoff, { version: 1, minutes: 20 });
    t.equal(drop.statusCode, 409);
    t.equal(drop.json().message, TODAY_MESSAGES.onsiteOnly);
    t.equal((await onTheWay(later, { version: 1, minutes: 20 })).json().message, TODAY_MESSAGES.notToday, "tomorrow's job waits");
  });

  t.test('started, once; closed jobs cannot be travelled to or started', async (t) => {
    const before = await row(onsite);
    const res = await started(onsite, { version: before.version });
    t.equal(res.statusCode, 200);
    t.equal(res.json().booking.startedAt, clock.toISOString());
    t.equal((await row(onsite)).started_at?.getTime(), clock.getTime());
    const again = await started(onsite, { version: before.version + 1 });
    t.equal(again.statusCode, 409);
    t.equal(again.json().message, TODAY_MESSAGES.alreadyStarted('8:02 am'));

    await app.db.updateTable('bookings').set({ status: 'cancelled' }).where('id', '=', cancelled).execute();
    t.equal((await started(cancelled, { version: 1 })).json().message, TODAY_MESSAGES.notOpen);
    t.equal((await onTheWay(cancelled, { version: 1, minutes: 5 })).json().message, TODAY_MESSAGES.notOpen);
    clock = testNow;
  });
});
