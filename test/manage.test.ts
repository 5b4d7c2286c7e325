/**
 * The customer's manage page (issue 11): /booking/manage/{token} shows the booking, and cancels or
 * moves it only through a confirmed POST, before the cutoff, as a compare-and-set with staff changes.
 * A move offers the times the booking's own job fits (issue 20): with BOOKING_SLOT_CAPACITY=1 there
 * is one van and one bay, and a job holds its van for its whole duration plus 30 minutes' travel.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import t from 'tap';
import { aucklandInstant, slotStartsAt } from '../src/domain/booking-dates.ts';
import { MANAGE_MESSAGES } from '../src/domain/manage-rules.ts';
import { MESSAGES, SLOT_MESSAGES } from '../src/domain/messages.ts';
import { manageLinkFor } from '../src/db/manage-link.repository.ts';
import { buildTestApp, forEachBackend, login } from './helper.ts';
import { bayDay, bookingRow, inDays, originalClientPayload, testNow } from './support/payloads.ts';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const hydrationState = (html: string) => JSON.parse(/<script type="application\/json" id="__DATA__">([\s\S]*?)<\/script>/.exec(html)![1]!).state;
const HOUR = 3_600_000;

forEachBackend(t, async (t, backend) => {
  let clock = testNow;
  const app = await buildTestApp(t, { backend, now: () => clock, env: { BOOKING_SLOT_CAPACITY: '1' } });
  t.beforeEach(() => {
    clock = testNow;
  });
  const staff = await login(app);

  let day = 0;
  /**
   * A booking made through the API (a Deluxe Clean of a medium car, on-site: 3½ hours), each on a
   * date of its own at 10:00 unless told, and its manage path.
   */
  async function book(overrides: Record<string, unknown> = {}): Promise<{ id: string; path: string; token: string }> {
    const at = { date: inDays(40 + day), time: '10:00' };
    day += 1;
    const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ ...at, ...overrides }) });
    if (res.statusCode !== 201) throw new Error(`booking failed: ${res.body}`);
    const { id } = res.json();
    const link = (await manageLinkFor(app.db, id, 'https://valet.example.nz'))!;
    const path = new URL(link).pathname;
    return { id, path, token: path.split('/').at(-1)! };
  }
  const post = (url: string, fields: Record<string, string>) =>
    app.inject({ method: 'POST', url, payload: form(fields), headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:80' } });
  const row = (id: string) => app.db.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const history = (id: string) => app.db.selectFrom('booking_status_changes').selectAll().where('booking_id', '=', id).orderBy('id').execute();
  const staffStatus = (id: string, status: string, version: number) =>
    app.inject({ method: 'POST', url: `/v1/bookings/${id}/status`, headers: { cookie: staff }, payload: { status, version } });

  t.test('a booking gets a manage link; only the SHA-256 of its token is stored', async (t) => {
    const { id, token, path } = await book();
    t.match(token, /^[A-Za-z0-9_-]{43}$/, '256 bits, base64url');
    const stored = await row(id);
    t.equal(stored.manage_token_hash, createHash('sha256').update(token).digest('hex'));
    t.match(stored.manage_nonce, /^[A-Za-z0-9_-]{22}$/);
    t.notOk(Object.values(stored).some((value) => String(value).includes(token)), 'the token itself is in no column');
    t.equal(new URL((await manageLinkFor(app.db, id, 'https://valet.example.nz/'))!).pathname, path, 'the same link every time');
    t.equal(await manageLinkFor(app.db, '00000000-0000-4000-8000-000000000000', 'https://x'), undefined);
  });

  t.test('a booking made before manage links gets one on first need, once', async (t) => {
    const legacy = await app.db.insertInto('bookings').values(bookingRow({ date: inDays(9), time: '12:00' })).returning('id').executeTakeFirstOrThrow();
    t.equal((await row(legacy.id)).manage_nonce, null);
    const [first, second] = await Promise.all([manageLinkFor(app.db, legacy.id, 'http://a'), manageLinkFor(app.db, legacy.id, 'http://a')]);
    t.equal(first, second);
    const res = await app.inject(new URL(first!).pathname);
    t.equal(res.statusCode, 200);
    t.match(res.body, /Quick Clean/);
  });

  t.test('the page shows the booking; GETs change nothing', async (t) => {
    const { id, path } = await book({ date: inDays(6), time: '09:00', service: 'Ceramic Coating', coatingType: 'coat2', vehicleType: 'suv', selectedVehicleType: 'Suv' });
    const before = await row(id);
    for (const url of [path, path, `${path}/cancel`, `${path}/move`, `${path}/move?date=${inDays(7)}`]) {
      const res = await app.inject(url);
      t.equal(res.statusCode, 200, url);
      t.equal(res.headers['cache-control'], 'no-store', `${url}: never stored`);
      t.equal(res.headers['referrer-policy'], 'same-origin', `${url}: the token never leaves in a Referer`);
    }
    t.same(await row(id), before, 'the booking is as it was');
    t.same(await history(id), [], 'and has no history');
    const page = await app.inject(path);
    t.match(page.body, /<title>Manage Your Booking \| Auckland Valet Co\.<\/title>/);
    t.match(page.body, /<meta name="robots" content="noindex">/);
    t.notMatch(page.body, /rel="canonical"/);
    const state = hydrationState(page.body);
    t.match(state.booking, { reference: before.reference, service: 'Ceramic Coating (3 Year Coating)', vehicle: 'SUV/UTE', status: 'pending', version: 1, where: { kind: 'onsite' } });
    t.match(state.booking.when, /^[A-Z][a-z]+day \d{1,2} [A-Z][a-z]+ \d{4}, 9:00 am$/);
    t.match(page.body, new RegExp(`${before.reference}`));
    t.match(page.body, /Total \(pay on completion\)/);
    t.match(page.body, new RegExp(`href="${path}/cancel"`));
    t.match(page.body, new RegExp(`href="${path}/move"`));
  });

  t.test('drop-off bookings show the service centre', async (t) => {
    const { path } = await book({ date: bayDay(30), serviceType: 'dropoff', houseNumber: '', streetAddress: '', suburb: '', city: '', postalCode: '', region: '' });
    const state = hydrationState((await app.inject(path)).body);
    t.same(state.booking.where, { kind: 'dropoff', lines: ['300 Mount Wellington Highway', 'Mount Wellington, Auckland 1060'] });
  });

  t.test('unknown, malformed and expired tokens are the 404 page', async (t) => {
    const { path } = await book();
    const unknown = `/booking/manage/${randomBytes(32).toString('base64url')}`;
    for (const url of [unknown, '/booking/manage/abc', `/booking/manage/${'!'.repeat(43)}`, `${unknown}/cancel`, `${unknown}/move`, '/booking/manage']) {
      const res = await app.inject(url);
      t.equal(res.statusCode, 404, url);
      t.match(res.headers['content-type'], /text\/html/, url);
      t.match(res.body, /Error 404/, url);
    }
    const gone = await post(`${unknown}/cancel`, { version: '1', confirm: 'yes' });
    t.equal(gone.statusCode, 404);
    const { date, time } = await row((await app.db.selectFrom('bookings').select('id').where('manage_token_hash', '=', createHash('sha256').update(path.split('/').at(-1)!).digest('hex')).executeTakeFirstOrThrow()).id);
    clock = new Date(new Date(slotStartsAt(date, time)).getTime() + 1);
    t.equal((await app.inject(path)).statusCode, 404, 'the link stops working once the appointment has started');
    t.equal((await post(`${path}/cancel`, { version: '1', confirm: 'yes' })).statusCode, 404);
  });

  t.test('cancel: a confirmation, then the change, recorded as the customer’s', async (t) => {
    const { id, path } = await book();
    const asked = await post(`${path}/cancel`, { version: '1' });
    t.equal(asked.statusCode, 200, 'a post without confirm=yes only asks');
    t.match(asked.body, /Yes, cancel my booking/);
    t.equal((await row(id)).status, 'pending');

    const done = await post(`${path}/cancel`, { version: '1', confirm: 'yes' });
    t.equal(done.statusCode, 303);
    t.equal(done.headers.location, `${path}?done=cancelled`);
    const cancelled = await row(id);
    t.equal(cancelled.status, 'cancelled');
    t.equal(cancelled.version, 2);
    t.match(await history(id), [{ from_status: 'pending', to_status: 'cancelled', changed_by: 'Customer', from_date: null }]);

    const page = await app.inject(done.headers.location as string);
    t.match(page.body, MANAGE_MESSAGES.cancelled);
    t.match(page.body, MANAGE_MESSAGES.locked.cancelled);
    t.notMatch(page.body, new RegExp(`href="${path}/(cancel|move)"`), 'no actions on a cancelled booking');
    t.equal(hydrationState((await app.inject(`${path}/move`)).body).view, 'overview', 'not even by typing the address');

    const again = await post(`${path}/cancel`, { version: '1', confirm: 'yes' });
    t.equal(again.statusCode, 303, 'the same post again (a double click) goes where the first went');
    t.equal((await history(id)).length, 1, 'and records nothing more');
    const move = await post(`${path}/move`, { version: '2', date: inDays(20), time: '10:00', confirm: 'yes' });
    t.equal(move.statusCode, 409);
    t.match(move.body, MANAGE_MESSAGES.locked.cancelled);
  });

  t.test('move: the times the booking’s own job fits, with their ends, a confirmation, then the change, in the history staff read', async (t) => {
    const { id, path } = await book({ date: inDays(10), time: '08:00' });
    await book({ date: inDays(11), time: '10:00' }); // holds the one van from 10:00 to 14:00 (13:30 + travel)
    const slots = await app.inject(`${path}/move?date=${inDays(11)}`);
    t.equal(slots.statusCode, 200);
    t.same(
      hydrationState(slots.body).move.slots.map((slot: { label: string; available: boolean }) => `${slot.label}${slot.available ? '' : ' (disabled)'}`),
      [
        '07:00 – 10:30 — Full (disabled)',
        '08:00 – 11:30 — Full (disabled)',
        '09:00 – 12:30 — Full (disabled)',
        '10:00 – 13:30 — Full (disabled)',
        '11:00 – 14:30 — Full (disabled)',
        '12:00 – 15:30 — Full (disabled)',
        '13:00 – 16:30 — Full (disabled)',
        '14:00 – 17:30',
        '15:00 – 18:30',
        '16:00 – 19:30',
        '17:00 – 20:30',
        '18:00 – 21:30 — Ends after closing (disabled)',
        '19:00 – 22:30 — Ends after closing (disabled)',
        '20:00 – 23:30 — Ends after closing (disabled)',
      ],
      'every start of the 3½-hour job: those overlapping the van’s other job are full, those ending after 21:00 too late',
    );
    t.match(slots.body, /<input type="radio" id="move-time-1000" disabled=""/, 'a full time cannot be chosen');
    t.match(slots.body, /<label for="move-time-1000">10:00 – 13:30 — Full<\/label>/, 'and says why, with its end');
    t.match(slots.body, /<input type="radio" id="move-time-1900" disabled=""/);
    t.match(slots.body, /<label for="move-time-1900">19:00 – 22:30 — Ends after closing<\/label>/);
    t.match(slots.body, /<input type="radio" id="move-time-1400" required=""/);
    t.match(slots.body, /<label for="move-time-1400">14:00 – 17:30<\/label>/);
    t.match(slots.body, /Your booking takes about 3½ hours: each time shows when it would end\./);

    const own = await app.inject(`${path}/move?date=${inDays(10)}`);
    t.match(own.body, /08:00 – 11:30 — your booking/);
    t.match(own.body, /<input type="radio" id="move-time-0900" required=""/, 'its own place never counts against it: an hour later fits on the same van');
    const bad = await app.inject(`${path}/move?date=2020-01-01`);
    t.equal(bad.statusCode, 400);
    t.match(bad.body, MESSAGES.datePast);

    const overlapping = await post(`${path}/move`, { version: '1', date: inDays(11), time: '11:00' });
    t.equal(overlapping.statusCode, 409, 'a time whose job would overlap the other one is refused at once');
    t.match(overlapping.body, MESSAGES.slotFull);
    t.match(hydrationState(overlapping.body), { view: 'move', move: { time: '11:00', errors: [{ field: 'time', message: MESSAGES.slotFull }] } });
    const late = await post(`${path}/move`, { version: '1', date: inDays(11), time: '19:00' });
    t.equal(late.statusCode, 409);
    t.match(late.body, SLOT_MESSAGES.endsAfterClosing);

    const asked = await post(`${path}/move`, { version: '1', date: inDays(11), time: '14:00' });
    t.equal(asked.statusCode, 200);
    const state = hydrationState(asked.body);
    t.equal(state.view, 'confirm-move');
    t.match(asked.body, /Yes, move my booking/);
    t.equal((await row(id)).date, inDays(10), 'asking changes nothing');

    const done = await post(`${path}/move`, { version: '1', date: inDays(11), time: '14:00', confirm: 'yes' });
    t.equal(done.statusCode, 303);
    t.equal(done.headers.location, `${path}?done=moved`);
    const moved = await row(id);
    t.match(moved, { date: inDays(11), time: '14:00', status: 'pending', version: 2 });
    t.equal(new Date(moved.starts_at).getTime(), aucklandInstant(inDays(11), '14:00'), 'it holds the van from its new start…');
    t.equal(new Date(moved.ends_at).getTime(), aucklandInstant(inDays(11), '17:30'), '…for the same 3½ hours');
    t.ok(moved.resource_id, 'on a van');
    t.match(await history(id), [{ from_status: 'pending', to_status: 'pending', changed_by: 'Customer', from_date: inDays(10), from_time: '08:00', to_date: inDays(11), to_time: '14:00' }]);
    t.match((await app.inject(done.headers.location as string)).body, MANAGE_MESSAGES.moved);

    const details = await app.inject({ url: `/v1/bookings/${id}`, headers: { cookie: staff } });
    t.match(details.json().history, [{ by: 'Customer', from: 'pending', to: 'pending', move: { from: { date: inDays(10), time: '08:00' }, to: { date: inDays(11), time: '14:00' } } }]);
    const statusChange = await staffStatus(id, 'confirmed', 2);
    t.equal(statusChange.statusCode, 200);
    t.match(statusChange.json().history, [{ move: { to: { time: '14:00' } } }, { by: 'Staff', to: 'confirmed', move: null }]);

    const same = await post(`${path}/move`, { version: '3', date: inDays(11), time: '14:00' });
    t.equal(same.statusCode, 400);
    t.match(same.body, MANAGE_MESSAGES.sameSlot);
  });

  t.test('move: a time taken meanwhile is refused, and nothing changes', async (t) => {
    const { id, path } = await book({ date: inDays(12), time: '08:00' });
    const asked = await post(`${path}/move`, { version: '1', date: inDays(12), time: '15:00' });
    t.equal(hydrationState(asked.body).view, 'confirm-move');
    await book({ date: inDays(12), time: '14:00' }); // the van from 14:00 to 18:00: into 15:00-18:30
    const res = await post(`${path}/move`, { version: '1', date: inDays(12), time: '15:00', confirm: 'yes' });
    t.equal(res.statusCode, 409);
    t.match(res.body, MESSAGES.slotFull);
    const shown = hydrationState(res.body);
    t.equal(shown.view, 'move', 'the times are shown again');
    t.match(shown.move.slots.find((slot: { time: string }) => slot.time === '15:00'), { available: false, label: '15:00 – 18:30 — Full' }, 'refreshed');
    t.match(await row(id), { date: inDays(12), time: '08:00', version: 1 });
    t.same(await history(id), []);

    const closed = await app.inject({ method: 'POST', url: '/v1/closures', headers: { cookie: staff }, payload: { date: inDays(13), reason: 'Staff training' } });
    t.equal(closed.statusCode, 201);
    const refused = await post(`${path}/move`, { version: '1', date: inDays(13), time: '09:00', confirm: 'yes' });
    t.equal(refused.statusCode, 409);
    t.match(refused.body, MESSAGES.slotClosed);
  });

  t.test('after the cutoff the page says why and gives the phone number; changes are refused', async (t) => {
    const { id, path } = await book({ date: inDays(15), time: '10:00' });
    const start = new Date(slotStartsAt(inDays(15), '10:00')).getTime();
    clock = new Date(start - 25 * HOUR);
    t.match((await app.inject(path)).body, new RegExp(`href="${path}/cancel"`), '25 hours before: still open');
    clock = new Date(start - 23 * HOUR);
    const page = await app.inject(path);
    t.equal(page.statusCode, 200);
    t.match(page.body, /until 24 hours before the appointment/);
    t.match(page.body, /href="tel:\+64215550123"/);
    t.notMatch(page.body, new RegExp(`href="${path}/(cancel|move)"`));
    for (const [url, fields] of [
      [`${path}/cancel`, { version: '1', confirm: 'yes' }],
      [`${path}/move`, { version: '1', date: inDays(20), time: '10:00', confirm: 'yes' }],
    ] as const) {
      const res = await post(url, fields);
      t.equal(res.statusCode, 409, url);
      t.match(res.body, MANAGE_MESSAGES.locked.cutoff);
    }
    t.match(await row(id), { status: 'pending', date: inDays(15), version: 1 });
  });

  t.test('a staff change and a customer change at once: one wins, the other is told', async (t) => {
    const first = await book();
    t.equal((await staffStatus(first.id, 'confirmed', 1)).statusCode, 200, 'staff confirm while the customer looks at version 1');
    const late = await post(`${first.path}/cancel`, { version: '1', confirm: 'yes' });
    t.equal(late.statusCode, 409);
    t.match(late.body, MANAGE_MESSAGES.changedMeanwhile);
    t.match(hydrationState(late.body).booking, { status: 'confirmed', version: 2 }, 'shown as it is now');
    t.equal((await row(first.id)).status, 'confirmed');

    const second = await book();
    t.equal((await post(`${second.path}/cancel`, { version: '1', confirm: 'yes' })).statusCode, 303);
    const staffLate = await staffStatus(second.id, 'confirmed', 1);
    t.equal(staffLate.statusCode, 409, 'staff acting on the old version are told too');
    t.equal((await row(second.id)).status, 'cancelled');

    const third = await book();
    const [customer, staffAnswer] = await Promise.all([post(`${third.path}/move`, { version: '1', date: inDays(25), time: '12:00', confirm: 'yes' }), staffStatus(third.id, 'cancelled', 1)]);
    const winners = [customer.statusCode === 303, staffAnswer.statusCode === 200].filter(Boolean).length;
    t.equal(winners, 1, `exactly one wins (customer ${customer.statusCode}, staff ${staffAnswer.statusCode})`);
    t.equal((await row(third.id)).version, 2);
    t.equal((await history(third.id)).length, 1);
  });

  t.test('posts from another site are refused', async (t) => {
    const { id, path } = await book();
    const res = await app.inject({
      method: 'POST',
      url: `${path}/cancel`,
      payload: form({ version: '1', confirm: 'yes' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    t.equal(res.statusCode, 403);
    t.equal((await row(id)).status, 'pending');
  });
});

t.test('MANAGE_CUTOFF_HOURS sets the cutoff', async (t) => {
  const app = await buildTestApp(t, { env: { MANAGE_CUTOFF_HOURS: '200' } });
  t.equal(app.config.manageCutoffHours, 200);
  const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: inDays(5) }) });
  const link = (await manageLinkFor(app.db, res.json().id, 'http://x'))!;
  const page = await app.inject(new URL(link).pathname);
  t.match(page.body, /until 200 hours before the appointment/);
});

t.test('the token never reaches the logs', async (t) => {
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const app = await buildTestApp(t, { env: { LOG_LEVEL: 'info' }, logStream });
  const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: inDays(5) }) });
  const path = new URL((await manageLinkFor(app.db, res.json().id, 'http://x'))!).pathname;
  const token = path.split('/').at(-1)!;
  await app.inject(path);
  await app.inject({ method: 'POST', url: `${path}/cancel`, payload: form({ version: '1', confirm: 'yes' }), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  t.ok(lines.some((line) => line.includes('/booking/manage/[token]/cancel')), 'requests are logged by where they went');
  t.notOk(lines.some((line) => line.includes(token)), 'but never with the token');
});
