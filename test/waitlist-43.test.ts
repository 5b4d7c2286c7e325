/**
 * Issue 43, the waitlist: a customer for whom no start fits joins a date's list (the booking's
 * rules, WAITLIST_MAX_PER_EMAIL, one entry per date); a place freed there (a cancellation, a "no
 * thanks", a lapse, a closure removed) is offered to the first entry that fits, in order of
 * joining and within its part of the day, as a booking in status 'offered' that holds its place
 * under the exclusion constraint, with the "a time opened up" e-mail; confirming makes it pending
 * with the usual e-mails; booking the date another way leaves the list.
 *
 * One van (BOOKING_SLOT_CAPACITY=1) and one date whose edges are closed, so that one Deluxe Clean
 * (3½ hours) at 10:00 leaves no start for another.
 */
import t from 'tap';
import { sql } from 'kysely';
import { WAITLIST_MESSAGES } from '../src/domain/waitlist.ts';
import { manageLinkFor } from '../src/db/manage-link.repository.ts';
import { buildTestApp, forEachBackend, login } from './helper.ts';
import { mailEnv } from './support/mail.ts';
import { startSmtp } from './support/smtp.ts';
import { nextWeekday, originalClientPayload, testNow } from './support/payloads.ts';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const HOLD_MINUTES = 60;

forEachBackend(t, async (t, backend) => {
  let clock = testNow;
  const app = await buildTestApp(t, { backend, now: () => clock, env: { BOOKING_SLOT_CAPACITY: '1', WAITLIST_MAX_PER_EMAIL: '2' } });
  t.beforeEach(() => {
    clock = testNow;
  });
  const staff = await login(app);
  let n = 0;
  const email = (who: string) => `${who}-${backend}@example.co.nz`;

  /** Closes the date's van before 10:00 and from 14:00 (the closure ids), so that one job at 10:00 fills it. */
  async function narrowDay(date: string) {
    const ids: string[] = [];
    for (const [from, to] of [['07:00', '10:00'], ['14:00', '24:00']] as const) {
      const res = await app.inject({ method: 'POST', url: '/v1/closures', headers: { cookie: staff }, payload: { date, from, to, kind: 'onsite', reason: 'Van elsewhere' } });
      t.equal(res.statusCode, 201, res.body);
      ids.push(res.json().id);
    }
    return ids;
  }
  const book = async (date: string, who: string) => {
    const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date, time: '10:00', email: email(who) }) });
    t.equal(res.statusCode, 201, res.body);
    return res.json().id as string;
  };
  const join = (date: string, who: string, part?: string, overrides: Record<string, unknown> = {}) => {
    const { time: _time, ...body } = originalClientPayload({ date, email: email(who), ...overrides });
    return app.inject({ method: 'POST', url: '/v1/waitlist', payload: { ...body, ...(part ? { part } : {}) } });
  };
  const entries = (date: string) =>
    app.db.selectFrom('waitlist_entries').select(['id', 'email', 'part', 'status', 'booking_id']).where('date', '=', date).orderBy('created_at').execute();
  const bookingOf = (id: string) => app.db.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const mailKinds = async (bookingId: string) =>
    (await app.db.selectFrom('outbox_emails').select('kind').where('booking_id', '=', bookingId).orderBy('id').execute()).map((row) => row.kind);
  const managePath = async (bookingId: string) => new URL((await manageLinkFor(app.db, bookingId, 'https://valet.example.nz'))!).pathname;
  const cancelOnPage = async (bookingId: string) => {
    const booking = await bookingOf(bookingId);
    const res = await app.inject({
      method: 'POST',
      url: `${await managePath(bookingId)}/cancel`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ version: String(booking.version), confirm: 'yes' }),
    });
    t.equal(res.statusCode, 303, res.body);
  };
  const answer = async (bookingId: string, yes: boolean) => {
    const booking = await bookingOf(bookingId);
    return app.inject({
      method: 'POST',
      url: `${await managePath(bookingId)}/offer`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ version: String(booking.version), answer: yes ? 'yes' : 'no' }),
    });
  };

  t.test('joining: the booking rules without a time, a part of the day, one entry per date, WAITLIST_MAX_PER_EMAIL open entries per address', async (t) => {
    n += 1;
    const date = nextWeekday(2, 10 + n);
    const bad = await join(date, 'bad', 'evening', { name: '' });
    t.equal(bad.statusCode, 400);
    t.same(bad.json().errors.map((e: { field: string }) => e.field).sort(), ['name', 'part'], 'the name and the part, and no word about a time');
    const joined = await join(date, 'joiner', 'morning');
    t.equal(joined.statusCode, 201, joined.body);
    t.match(joined.json(), { date, part: 'morning', message: /You are on the waitlist for .* \(morning\)/ });
    const again = await join(date, 'Joiner', 'any');
    t.equal(again.statusCode, 409, 'the same address (as the database compares it) waits once per date');
    t.equal(again.json().message, WAITLIST_MESSAGES.alreadyWaiting);
    t.equal((await join(nextWeekday(3, 10 + n), 'joiner')).statusCode, 201, 'a second date');
    const third = await join(nextWeekday(4, 10 + n), 'joiner');
    t.equal(third.statusCode, 409);
    t.equal(third.json().message, WAITLIST_MESSAGES.tooMany(2));
    const far = await join(date, 'far', 'any', { postalCode: '8011' });
    t.equal(far.statusCode, 400, 'an address outside the service area is refused now, not after a wait');
    const unknown = await app.inject({ method: 'POST', url: '/v1/waitlist', payload: { date, time: '10:00' } });
    t.equal(unknown.statusCode, 400, 'a time is not taken');
  });

  t.test('a cancellation offers the place to the first entry that fits; "no thanks" passes it on; a lapse frees it; a closure removed opens the afternoon', async (t) => {
    n += 1;
    const date = nextWeekday(3, 20 + n);
    const [, afternoonClosure] = await narrowDay(date);
    const first = await book(date, 'holder');
    t.equal((await join(date, 'afternoon', 'afternoon')).statusCode, 201);
    t.equal((await join(date, 'morning', 'morning')).statusCode, 201);
    t.equal((await join(date, 'anytime')).statusCode, 201);
    t.same((await app.offerFreedPlaces([date])).length, 0, 'nothing is free yet');

    // The holder cancels: 10:00 is free, a morning start; the afternoon entry joined first but does not take it.
    await cancelOnPage(first);
    let list = await entries(date);
    t.same(list.map((e) => e.status), ['waiting', 'offered', 'waiting'], 'offered to the first entry that fits');
    const offer = await bookingOf(list[1]!.booking_id!);
    t.match(offer, { status: 'offered', time: '10:00', email: email('morning') });
    t.equal(offer.offer_expires_at!.getTime(), clock.getTime() + HOLD_MINUTES * 60_000, 'held for WAITLIST_HOLD_MINUTES');
    t.same(await mailKinds(offer.id), ['waitlist-offer'], 'the offer e-mail alone: no confirmation, no staff notification yet');
    // The place is held: a booking there is refused by the engine, and by the constraint below it.
    const taken = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date, time: '10:00', email: email('walkin') }) });
    t.equal(taken.statusCode, 409, 'the held place cannot be booked');
    await t.rejects(
      sql`UPDATE bookings SET status = 'pending' WHERE id = ${first}`.execute(app.db),
      { message: /bookings_no_overlap/ },
      'the exclusion constraint counts the offer',
    );
    const page = await app.inject(await managePath(offer.id));
    t.match(page.body, /A time opened up for you/);
    t.match(page.body, /Confirm this time/);

    // "No thanks": the next entry that fits (any time) is offered the same start.
    t.equal((await answer(offer.id, false)).statusCode, 303);
    t.equal((await bookingOf(offer.id)).status, 'cancelled');
    list = await entries(date);
    t.same(list.map((e) => e.status), ['waiting', 'declined', 'offered']);
    const second = list[2]!.booking_id!;
    t.match(await bookingOf(second), { status: 'offered', time: '10:00' });
    const history = await app.db.selectFrom('booking_status_changes').select(['changed_by', 'note']).where('booking_id', '=', offer.id).orderBy('id').execute();
    t.match(history, [{ changed_by: 'Waitlist', note: /Offered from the waitlist/ }, { changed_by: 'Customer', note: WAITLIST_MESSAGES.declinedNote }]);

    // Unanswered past the hold: it lapses; the afternoon entry still does not fit.
    clock = new Date(testNow.getTime() + (HOLD_MINUTES + 1) * 60_000);
    const late = await answer(second, true);
    t.equal(late.statusCode, 409, 'confirming after the hold is refused');
    t.match(late.body, /This offer has ended/);
    const onDate = async () => (await app.offerFreedPlaces()).filter((offer) => offer.booking.date === date);
    t.same(await onDate(), [], 'the sweep lapses it and offers nothing on that date');
    t.equal((await bookingOf(second)).status, 'cancelled');
    t.same((await entries(date)).map((e) => e.status), ['waiting', 'declined', 'lapsed']);

    // The afternoon closure removed: the afternoon entry is offered a start from noon at once.
    t.equal((await app.inject({ method: 'DELETE', url: `/v1/closures/${afternoonClosure}`, headers: { cookie: staff } })).statusCode, 204);
    const afternoon = (await entries(date))[0]!;
    t.equal(afternoon.status, 'offered');
    const offers = [{ booking: await bookingOf(afternoon.booking_id!) }];
    t.match(offers[0]!.booking, { time: '12:00', email: email('afternoon') }, 'the first start of its part that fits');

    // Confirmed: pending, with the confirmation, staff's notification and the reminder.
    const taking = await answer(offers[0]!.booking.id, true);
    t.equal(taking.statusCode, 303);
    t.match(taking.headers.location, /done=taken$/);
    t.match(await bookingOf(offers[0]!.booking.id), { status: 'pending', offer_expires_at: null });
    t.same((await mailKinds(offers[0]!.booking.id)).sort(), ['booking-created', 'booking-reminder', 'staff-new-booking', 'waitlist-offer']);
    t.equal((await entries(date))[0]!.status, 'booked');
    t.equal((await answer(offers[0]!.booking.id, true)).statusCode, 303, 'a second press goes where the first went');
  });

  t.test('booking the date another way leaves the waitlist; staff withdrawing an offer sends no cancellation', async (t) => {
    n += 1;
    const date = nextWeekday(4, 20 + n);
    await narrowDay(date);
    const holder = await book(date, 'holder2');
    t.equal((await join(date, 'switcher')).statusCode, 201);
    t.equal((await join(date, 'patient')).statusCode, 201);
    // The switcher books another time that day by phone (staff, any van): their entry leaves.
    const byPhone = await app.inject({
      method: 'POST',
      url: '/v1/bookings',
      headers: { cookie: staff },
      payload: { ...originalClientPayload({ date, time: '08:00', email: email('switcher') }), serviceType: 'dropoff' },
    });
    t.equal(byPhone.statusCode, 201, byPhone.body);
    t.same((await entries(date)).map((e) => e.status), ['left', 'waiting']);
    // Staff cancel the holder: the patient entry is offered; staff withdraw the offer.
    const current = await bookingOf(holder);
    const cancelled = await app.inject({ method: 'POST', url: `/v1/bookings/${holder}/status`, headers: { cookie: staff }, payload: { status: 'cancelled', version: current.version } });
    t.equal(cancelled.statusCode, 200, cancelled.body);
    const offered = (await entries(date))[1]!;
    t.equal(offered.status, 'offered', 'a staff cancellation offers the place at once');
    const offer = await bookingOf(offered.booking_id!);
    const withdrawn = await app.inject({ method: 'POST', url: `/v1/bookings/${offer.id}/status`, headers: { cookie: staff }, payload: { status: 'cancelled', version: offer.version } });
    t.equal(withdrawn.statusCode, 200, withdrawn.body);
    t.equal((await entries(date))[1]!.status, 'withdrawn');
    t.same(await mailKinds(offer.id), ['waitlist-offer'], 'no cancellation e-mail for an offer withdrawn');
  });

  t.test("a customer's export lists their waitlist entries, and erasing them deletes the entries", async (t) => {
    n += 1;
    await book(nextWeekday(1, 30 + n), 'private');
    t.equal((await join(nextWeekday(2, 30 + n), 'private', 'afternoon')).statusCode, 201);
    const call = (method: 'GET' | 'POST', url: string, payload?: object) => app.inject({ method, url, headers: { cookie: staff }, ...(payload ? { payload } : {}) });
    const customer = (await call('GET', `/v1/customers?q=${encodeURIComponent(email('private'))}`)).json().data[0];
    const exported = (await call('GET', `/v1/customers/${customer.id}/export`)).json();
    t.match(exported.waitlistEntries, [{ part: 'afternoon', status: 'waiting', request: { email: email('private') } }]);
    t.match((await call('GET', `/v1/customers/${customer.id}/export?format=csv`)).body, /waitlist,.*waiting for .* \(afternoon\)/);
    const erased = await call('POST', `/v1/customers/${customer.id}/erasure`, { confirmation: 'ERASE' });
    t.equal(erased.statusCode, 200, erased.body);
    t.equal(erased.json().erased.waitlist_entries, 1);
    t.same(await app.db.selectFrom('waitlist_entries').select('id').where('email', '=', email('private')).execute(), [], 'no entry left');
  });

  t.test('the database refuses an offer without its hold, and a hold on any other status', async (t) => {
    const id = await book(nextWeekday(5, 40), 'checks');
    await t.rejects(sql`UPDATE bookings SET status = 'offered' WHERE id = ${id}`.execute(app.db), { message: /bookings_offer_held_until/ });
    await t.rejects(sql`UPDATE bookings SET offer_expires_at = now() WHERE id = ${id}`.execute(app.db), { message: /bookings_offer_held_until/ });
    await t.rejects(sql`INSERT INTO waitlist_entries (date, part, request, email, ends_at) VALUES ('2026-12-01', 'noon', '{}', 'a@b.co', now())`.execute(app.db), {
      message: /waitlist_part_known/,
    });
  });
});

t.test('the offer e-mail says until when the place is held and links to the answer; one still unsent when the offer ended is not sent', async (t) => {
  const smtp = await startSmtp(t);
  let clock = testNow;
  // Sent only when woken: the poller cannot race the clock below.
  const app = await buildTestApp(t, { env: mailEnv(smtp, { BOOKING_SLOT_CAPACITY: '1', MAIL_POLL_MS: '3600000', LOG_LEVEL: 'silent' }), now: () => clock });
  const date = nextWeekday(5, 9);
  const { time: _time, ...body } = originalClientPayload({ date, email: 'waiting@example.co.nz' });
  t.equal((await app.inject({ method: 'POST', url: '/v1/waitlist', payload: { ...body, part: 'morning' } })).statusCode, 201);
  // The van is free that morning: the minute's sweep offers the first start.
  const [offer] = await app.offerFreedPlaces([date]);
  t.ok(offer, 'offered');
  await app.mailer.wake();
  const sent = smtp.received.find((m) => m.subject?.startsWith('A time opened up'));
  t.ok(sent, 'the offer e-mail was sent');
  t.match(sent!.text, /It is yours if you confirm it by .* 2026, .* (am|pm)/);
  t.match(sent!.text, /\/booking\/manage\/[A-Za-z0-9_-]+/, 'with the link to confirm or decline');
  t.notOk(sent!.attachments.some((a) => a.contentType.startsWith('text/calendar')), 'no invitation: nothing is booked yet');

  // A second offer whose e-mail could not go before it lapsed is dropped, not sent late.
  const other = nextWeekday(5, 16);
  const { time: _t2, ...second } = originalClientPayload({ date: other, email: 'late@example.co.nz' });
  t.equal((await app.inject({ method: 'POST', url: '/v1/waitlist', payload: second })).statusCode, 201);
  const [late] = await app.offerFreedPlaces([other]);
  clock = new Date(testNow.getTime() + 2 * 3_600_000);
  await app.offerFreedPlaces();
  await app.mailer.wake();
  t.equal(smtp.received.filter((m) => m.subject?.startsWith('A time opened up')).length, 1, 'not sent');
  const row = await app.db.selectFrom('outbox_emails').select(['status', 'last_error']).where('booking_id', '=', late!.booking.id).where('kind', '=', 'waitlist-offer').executeTakeFirstOrThrow();
  t.match(row, { status: 'skipped', last_error: /The offer has ended/ });
});
