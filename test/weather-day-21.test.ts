/**
 * Issue 21, the weather day: POST /v1/weather-days asks every pending or confirmed booking of one
 * kind on a date, once (a repeat asks only bookings not asked yet, and never e-mails anyone
 * twice), in one transaction: the weather day, the flag for seven days, the history line and the
 * apology e-mail with the manage link. The manage page then allows a move inside the notice period
 * and past MANAGE_MAX_CHANGES until the window closes; a move by the customer or by staff ends
 * "awaiting a new time". On both databases, with the test clock.
 */
import t from 'tap';
import { slotStartsAt } from '../src/domain/booking-dates.ts';
import { MANAGE_MESSAGES } from '../src/domain/manage-rules.ts';
import { WEATHER_MESSAGES, WEATHER_MOVE_DAYS } from '../src/domain/weather-day.ts';
import { manageLinkFor } from '../src/db/manage-link.repository.ts';
import { composeQueued } from '../src/mail/booking-mail.ts';
import { buildTestApp, forEachBackend, TEST_ADMIN_PASSWORD } from './helper.ts';
import { inDays, nextWeekday, originalClientPayload, testNow } from './support/payloads.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const startOf = (date: string, time: string) => new Date(slotStartsAt(date, time)).getTime();

t.setTimeout(300_000);

forEachBackend(t, async (t, backend) => {
  let clock = testNow;
  const app = await buildTestApp(t, { backend, now: () => clock, env: { MANAGE_MAX_CHANGES: '1' } });

  /** A fresh staff session (the clock moves by days in these tests), signed in as Sam. */
  async function staffCookie(): Promise<string> {
    const res = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { password: TEST_ADMIN_PASSWORD, name: 'Sam' } });
    if (res.statusCode !== 204) throw new Error(`login failed: ${res.body}`);
    return `${res.cookies[0]!.name}=${res.cookies[0]!.value}`;
  }
  let cookie = await staffCookie();
  const ask = (payload: object, headers: Record<string, string> = {}) => app.inject({ method: 'POST', url: '/v1/weather-days', headers: { cookie, ...headers }, payload });
  const list = (date: string) => app.inject({ url: `/v1/weather-days?date=${date}`, headers: { cookie } });
  const row = (id: string) => app.db.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const history = (id: string) => app.db.selectFrom('booking_status_changes').selectAll().where('booking_id', '=', id).orderBy('id').execute();
  const weatherMails = (id: string) =>
    app.db.selectFrom('outbox_emails').selectAll().where('booking_id', '=', id).where('kind', '=', 'booking-weather').execute().then((rows) => rows.map((row) => composeQueued(row, app.mail)));
  const post = (url: string, fields: Record<string, string>) =>
    app.inject({ method: 'POST', url, payload: form(fields), headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:80' } });

  let customers = 0;
  /** An online booking (Deluxe Clean, medium car, on-site unless told) by a customer of its own, and its manage path. */
  async function book(date: string, time: string, overrides: Record<string, unknown> = {}): Promise<{ id: string; path: string }> {
    customers += 1;
    const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date, time, email: `rain${customers}@example.co.nz`, ...overrides }) });
    if (res.statusCode !== 201) throw new Error(`booking failed: ${res.body}`);
    const { id } = res.json();
    return { id, path: new URL((await manageLinkFor(app.db, id, 'http://localhost'))!).pathname };
  }

  t.test('staff only, same-origin only, validated and documented', async (t) => {
    t.equal((await app.inject({ method: 'POST', url: '/v1/weather-days', payload: { date: inDays(3) } })).statusCode, 401, 'POST without a session');
    t.equal((await app.inject({ url: `/v1/weather-days?date=${inDays(3)}` })).statusCode, 401, 'GET without a session');
    t.equal((await ask({ date: inDays(3) }, { 'sec-fetch-site': 'cross-site' })).statusCode, 403, 'from another site');
    for (const payload of [{}, { date: 'tomorrow' }, { date: inDays(3), serviceType: 'car' }, { date: inDays(3), extra: 1 }, { date: '2026-02-30' }]) {
      const res = await ask(payload);
      t.equal(res.statusCode, 400, JSON.stringify(payload));
      t.type(res.json().message, 'string');
      t.ok(Array.isArray(res.json().errors), 'the error shape');
    }
    const past = await ask({ date: inDays(-1) });
    t.equal(past.statusCode, 400);
    t.same(past.json().errors, [{ field: 'date', message: WEATHER_MESSAGES.datePast }]);
    const far = await ask({ date: inDays(400) });
    t.equal(far.statusCode, 400);
    t.same(far.json().errors, [{ field: 'date', message: WEATHER_MESSAGES.dateTooFar }]);
    t.equal((await app.inject({ url: '/v1/weather-days', headers: { cookie } })).statusCode, 400, 'GET needs a date');
    t.equal((await app.db.selectFrom('weather_days').selectAll().execute()).length, 0, 'nothing written');
    const doc = (await app.inject('/v1/openapi.json')).json();
    t.equal(doc.paths['/v1/weather-days'].post.operationId, 'askWeatherDay');
    t.same(doc.paths['/v1/weather-days'].post.security, [{ staffSession: [] }]);
    t.ok(doc.paths['/v1/weather-days'].post.responses['201']);
    t.equal(doc.paths['/v1/weather-days'].get.operationId, 'listWeatherDays');
  });

  // The rainy day: a weekday (drop-off bays work Monday to Saturday), 10 days or more ahead.
  const rainy = nextWeekday(3, 10);
  const rainyStart = startOf(rainy, '10:00');

  t.test('the ask: each upcoming booking of that kind on that date is flagged, written in its history and e-mailed, exactly once', async (t) => {
    clock = testNow;
    // A is moved once online first: with MANAGE_MAX_CHANGES=1 its customer has used their move.
    const a = await book(inDays(40), '10:00');
    t.equal((await post(`${a.path}/move`, { version: '1', date: rainy, time: '10:00', confirm: 'yes' })).statusCode, 303, 'A moved onto the rainy day');
    const b = await book(rainy, '13:00');
    const dropoff = await book(rainy, '09:00', { serviceType: 'dropoff', houseNumber: '', streetAddress: '', suburb: '', city: '', postalCode: '', region: '' });
    const otherDay = await book(addDays(rainy, 1), '10:00');
    const quick = { service: 'Quick Clean' };
    const cancelled = await book(rainy, '15:00', quick);
    t.equal((await post(`${cancelled.path}/cancel`, { version: '1', confirm: 'yes' })).statusCode, 303);
    const completed = await book(rainy, '16:00', quick);
    await app.db.updateTable('bookings').set({ status: 'completed' }).where('id', '=', completed.id).execute();
    // A phone booking without an e-mail: asked and flagged, but there is nobody to e-mail.
    const phoned = await app.inject({
      method: 'POST',
      url: '/v1/bookings',
      headers: { cookie },
      payload: originalClientPayload({ email: '', name: 'Walk In', phone: '021 555 0000', date: rainy, time: '08:00' }),
    });
    t.equal(phoned.statusCode, 201, phoned.body);
    const phonedId: string = phoned.json().booking._id;

    // Staff ask two days before.
    clock = new Date(rainyStart - 2 * DAY);
    cookie = await staffCookie();
    const res = await ask({ date: rainy });
    t.equal(res.statusCode, 201, res.body);
    const body = res.json();
    t.match(body.weatherDay, { date: rainy, serviceType: 'onsite', askedBy: 'Sam' });
    t.same(
      body.asked.map((asked: { booking: { _id: string } }) => asked.booking._id),
      [phonedId, a.id, b.id],
      'the on-site bookings of that day still to come, by start: not the drop-off, the other day, the cancelled or the completed one',
    );
    const until = new Date(clock.getTime() + WEATHER_MOVE_DAYS * DAY);
    for (const asked of body.asked) t.match(asked, { answer: 'awaiting', moveUntil: until.toISOString() });

    for (const id of [a.id, b.id, phonedId]) {
      const flagged = await row(id);
      t.equal(flagged.weather_day_id, body.weatherDay.id);
      t.equal(flagged.weather_move_until?.toISOString(), until.toISOString(), 'seven days to choose');
      t.equal(flagged.date, rainy, 'the booking keeps its place');
      t.ok(flagged.status === 'pending' || flagged.status === 'confirmed', 'nothing cancelled');
      const lines = (await history(id)).filter((line) => line.note === WEATHER_MESSAGES.historyNote);
      t.equal(lines.length, 1, 'one history line');
      t.match(lines[0], { changed_by: 'Sam', from_status: flagged.status, to_status: flagged.status });
    }
    for (const untouched of [dropoff.id, otherDay.id, cancelled.id, completed.id]) {
      const other = await row(untouched);
      t.equal(other.weather_day_id, null, 'not asked');
      t.equal((await weatherMails(untouched)).length, 0);
    }
    for (const id of [a.id, b.id]) {
      const mails = await weatherMails(id);
      t.equal(mails.length, 1, 'one apology e-mail');
      t.match(mails[0]!.subject, /choose a new time/i);
      t.match(mails[0]!.text_body, /weather/);
      t.match(mails[0]!.text_body, /\/booking\/manage\/[A-Za-z0-9_-]{43}/, 'with the manage link');
    }
    t.equal((await app.db.selectFrom('outbox_emails').selectAll().where('booking_id', '=', phonedId).execute()).length, 0, 'no address: no e-mail');

    // Asking again: nobody asked twice, and a booking placed since is asked.
    const again = await ask({ date: rainy, serviceType: 'onsite' });
    t.equal(again.statusCode, 201);
    t.same(again.json().asked, [], 'nobody asked twice');
    t.equal(again.json().weatherDay.id, body.weatherDay.id, 'the same weather day');
    clock = testNow;
    const late = await book(rainy, '17:00', quick);
    clock = new Date(rainyStart - 2 * DAY);
    const third = await ask({ date: rainy });
    t.same(
      third.json().asked.map((asked: { booking: { _id: string } }) => asked.booking._id),
      [late.id],
      'only the booking not asked yet',
    );
    for (const id of [a.id, b.id, late.id]) t.equal((await weatherMails(id)).length, 1, 'each e-mailed exactly once');
    t.equal((await history(a.id)).filter((line) => line.note === WEATHER_MESSAGES.historyNote).length, 1);

    // The drop-off bookings of that day are asked on their own.
    const bays = await ask({ date: rainy, serviceType: 'dropoff' });
    t.equal(bays.statusCode, 201);
    t.same(
      bays.json().asked.map((asked: { booking: { _id: string } }) => asked.booking._id),
      [dropoff.id],
    );

    const listed = await list(rainy);
    t.equal(listed.statusCode, 200);
    t.same(
      listed.json().weatherDays.map((day: { weatherDay: { serviceType: string }; bookings: unknown[] }) => [day.weatherDay.serviceType, day.bookings.length]),
      [
        ['onsite', 4],
        ['dropoff', 1],
      ],
    );

    t.test('the customer moves inside the notice period, past the cap of moves; that ends the flag', async (t) => {
      clock = new Date(rainyStart - 5 * HOUR);
      const page = await app.inject(a.path);
      t.equal(page.statusCode, 200);
      t.match(page.body, /We have had to ask you to choose a new time because of the weather/);
      t.match(page.body, new RegExp(`href="${a.path}/move"`), 'the move is offered although the appointment is 5 hours away');
      t.notMatch(page.body, /already been moved online/, 'the cap of moves is not applied');
      const current = await row(a.id);
      const target = addDays(rainy, 2);
      const choose = await post(`${a.path}/move`, { version: String(current.version), date: target, time: '10:00' });
      t.equal(choose.statusCode, 200, 'the confirmation step');
      const moved = await post(`${a.path}/move`, { version: String(current.version), date: target, time: '10:00', confirm: 'yes' });
      t.equal(moved.statusCode, 303, moved.body);
      const after = await row(a.id);
      t.match(after, { date: target, time: '10:00', weather_move_until: null, weather_day_id: body.weatherDay.id });
      t.match((await history(a.id)).at(-1), { changed_by: 'Customer', from_date: rainy, to_date: target });
      // Back to the normal rules: the cap (one move) now applies.
      const capped = await post(`${a.path}/move`, { version: String(after.version), date: addDays(rainy, 3), time: '10:00', confirm: 'yes' });
      t.equal(capped.statusCode, 409);
      t.match(capped.body, /already been moved online/);
    });

    t.test('a move by staff ends the flag too; the list shows who chose', async (t) => {
      cookie = await staffCookie();
      const current = await row(b.id);
      const res = await app.inject({ method: 'POST', url: `/v1/bookings/${b.id}/move`, headers: { cookie }, payload: { version: current.version, date: addDays(rainy, 1), time: '13:00' } });
      t.equal(res.statusCode, 200, res.body);
      t.match(await row(b.id), { weather_move_until: null, weather_day_id: body.weatherDay.id });
      const onsite = (await list(rainy)).json().weatherDays[0].bookings as { booking: { _id: string }; answer: string }[];
      t.same(
        Object.fromEntries(onsite.map((entry) => [entry.booking._id, entry.answer])),
        { [phonedId]: 'awaiting', [a.id]: 'moved', [b.id]: 'moved', [late.id]: 'awaiting' },
      );
    });

    t.test('inside the notice period without a weather ask, or for another booking, the normal rules hold', async (t) => {
      // The other day's booking was never asked: 5 hours before its appointment it is locked.
      clock = new Date(startOf(addDays(rainy, 1), '10:00') - 5 * HOUR);
      const refused = await post(`${otherDay.path}/move`, { version: '1', date: addDays(rainy, 5), time: '10:00', confirm: 'yes' });
      t.equal(refused.statusCode, 409);
      t.match(refused.body, MANAGE_MESSAGES.locked.cutoff);
    });
  });

  t.test('two asks at once: each booking is asked and e-mailed once; a staff edit that moves it ends the flag', async (t) => {
    clock = testNow;
    const date = nextWeekday(5, 25);
    const one = await book(date, '09:00');
    const two = await book(date, '14:00');
    cookie = await staffCookie();
    const [first, second] = await Promise.all([ask({ date }), ask({ date })]);
    t.same([first.statusCode, second.statusCode], [201, 201], `${first.body} ${second.body}`);
    const asked = [...first.json().asked, ...second.json().asked].map((entry: { booking: { _id: string } }) => entry.booking._id).sort();
    t.same(asked, [one.id, two.id].sort(), 'between them, each booking asked once');
    t.equal(first.json().weatherDay.id, second.json().weatherDay.id, 'one weather day');
    for (const id of [one.id, two.id]) {
      t.equal((await weatherMails(id)).length, 1, 'e-mailed once');
      t.equal((await history(id)).filter((line) => line.note === WEATHER_MESSAGES.historyNote).length, 1, 'one history line');
    }

    // PATCH /v1/bookings/{id} with a new time: whoever moves the booking ends "awaiting a new time".
    const current = await row(one.id);
    const edit = await app.inject({ method: 'PATCH', url: `/v1/bookings/${one.id}`, headers: { cookie }, payload: { version: current.version, time: '10:00', notifyCustomer: false } });
    t.equal(edit.statusCode, 200, edit.body);
    t.match(await row(one.id), { time: '10:00', weather_move_until: null, weather_day_id: first.json().weatherDay.id });
    // An edit that does not move it (the notes) leaves it awaiting.
    const other = await row(two.id);
    const notes = await app.inject({ method: 'PATCH', url: `/v1/bookings/${two.id}`, headers: { cookie }, payload: { version: other.version, notes: 'Gate code 4411', notifyCustomer: false } });
    t.equal(notes.statusCode, 200, notes.body);
    t.not((await row(two.id)).weather_move_until, null, 'still awaiting a new time');
  });

  t.test('the database keeps the flag whole', async (t) => {
    clock = testNow;
    const lone = await book(nextWeekday(6, 30), '10:00');
    await t.rejects(
      app.db.updateTable('bookings').set({ weather_move_until: new Date() }).where('id', '=', lone.id).execute(),
      /bookings_weather_move_asked/,
      'no "awaiting a new time" without the weather day that asked',
    );
    await t.rejects(
      app.db.insertInto('weather_days').values({ date: inDays(3), service_type: 'boat', asked_by: 'Sam' }).execute(),
      /weather_days_service_type_check/,
    );
  });

  t.test('after seven days the window closes: the notice period applies again', async (t) => {
    clock = testNow;
    const far = nextWeekday(4, 20);
    const start = startOf(far, '10:00');
    const booking = await book(far, '10:00');
    clock = new Date(start - 8 * DAY);
    cookie = await staffCookie();
    const res = await ask({ date: far });
    t.equal(res.statusCode, 201);
    t.equal(res.json().asked.length, 1);
    clock = new Date(start - 7.5 * DAY);
    t.match((await app.inject(booking.path)).body, /because of the weather/, 'while the window is open the page explains it');
    clock = new Date(start - 5 * HOUR);
    const page = await app.inject(booking.path);
    t.notMatch(page.body, /because of the weather/);
    t.match(page.body, MANAGE_MESSAGES.locked.cutoff);
    const version = String((await row(booking.id)).version);
    const refused = await post(`${booking.path}/move`, { version, date: addDays(far, 2), time: '10:00', confirm: 'yes' });
    t.equal(refused.statusCode, 409);
    t.match(refused.body, MANAGE_MESSAGES.locked.cutoff);
    const after = await row(booking.id);
    t.equal(after.date, far, 'not moved');
    t.equal(after.weather_move_until?.toISOString(), res.json().asked[0].moveUntil, 'still flagged, but past its window');
  });
});

function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}
