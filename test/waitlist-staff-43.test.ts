/**
 * Issue 43, the staff side of the waitlist: GET /v1/waitlist?date= lists a date's entries in order
 * of joining (the customer, the job in words, the offer, the starts that fit a waiting entry's job
 * now), and POST /v1/waitlist/{id}/offer offers a place by hand through the engine: a booking in
 * status 'offered' held for WAITLIST_HOLD_MINUTES, the entry offered by the staff member named,
 * the "a time opened up" e-mail queued; or the reason it cannot be.
 *
 * One van (BOOKING_SLOT_CAPACITY=1) and one date whose edges are closed, so that one Deluxe Clean
 * (3½ hours) at 10:00 leaves no start for another (as in test/waitlist-43.test.ts). The entries
 * wait for the morning, which stays full: the engine's own pass never offers them the afternoon
 * that staff open, so every offer here is the one made by hand.
 */
import t from 'tap';
import { WAITLIST_MESSAGES } from '../src/domain/waitlist.ts';
import { buildTestApp, forEachBackend, TEST_ADMIN_PASSWORD } from './helper.ts';
import { nextWeekday, originalClientPayload, testNow } from './support/payloads.ts';

const HOLD_MINUTES = 60;
const STAFF_NAME = 'Tama';

forEachBackend(t, async (t, backend) => {
  const app = await buildTestApp(t, { backend, env: { BOOKING_SLOT_CAPACITY: '1', WAITLIST_HOLD_MINUTES: String(HOLD_MINUTES) } });
  const signedIn = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { password: TEST_ADMIN_PASSWORD, name: STAFF_NAME } });
  t.equal(signedIn.statusCode, 204, signedIn.body);
  const cookie = `${signedIn.cookies[0]!.name}=${signedIn.cookies[0]!.value}`;
  const email = (who: string) => `${who}-${backend}@example.co.nz`;

  const date = nextWeekday(3, 12);
  const closures: string[] = [];
  for (const [from, to] of [['07:00', '10:00'], ['14:00', '24:00']] as const) {
    const res = await app.inject({ method: 'POST', url: '/v1/closures', headers: { cookie }, payload: { date, from, to, kind: 'onsite', reason: 'Van elsewhere' } });
    t.equal(res.statusCode, 201, res.body);
    closures.push(res.json().id);
  }
  const holder = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date, time: '10:00', email: email('holder') }) });
  t.equal(holder.statusCode, 201, holder.body);
  const joined: string[] = [];
  for (const [who, name, overrides] of [
    ['aroha', 'Aroha Smith', {}],
    ['ben', 'Ben Jones', { vehicles: [{ vehicleType: 'suv', service: 'Quick Clean', plate: 'abc 123', addOns: [] }], service: '', vehicleType: '', selectedVehicleType: '' }],
  ] as const) {
    const { time: _time, ...body } = originalClientPayload({ date, email: email(who), name, ...overrides });
    const res = await app.inject({ method: 'POST', url: '/v1/waitlist', payload: { ...body, part: 'morning' } });
    t.equal(res.statusCode, 201, res.body);
    joined.push(res.json().id);
  }
  const [aroha, ben] = joined as [string, string];
  const list = () => app.inject({ url: `/v1/waitlist?date=${date}`, headers: { cookie } });
  const offer = (id: string, time: string) => app.inject({ method: 'POST', url: `/v1/waitlist/${id}/offer`, headers: { cookie }, payload: { time } });

  t.test("the date's entries in order of joining, with the customer and the job in words; no start fits on a full date", async (t) => {
    const res = await list();
    t.equal(res.statusCode, 200, res.body);
    t.equal(res.headers['cache-control'], 'no-store');
    const answer = res.json();
    t.match(answer, { date, waiting: 2 });
    t.same(
      answer.data.map((entry: { id: string }) => entry.id),
      [aroha, ben],
      'in order of joining',
    );
    t.match(answer.data[0], {
      date,
      part: 'morning',
      partLabel: 'Morning (a start before 12:00)',
      status: 'waiting',
      createdAt: /^\d{4}-\d{2}-\d{2}T/,
      customer: { name: 'Aroha Smith', email: email('aroha'), phone: /^\+64 / },
      serviceType: 'onsite',
      suburb: 'Mount Wellington',
      job: 'Vehicle 1 (Medium Car): Deluxe Clean',
      durationMinutes: 210,
      offeredBy: null,
      offer: null,
      freeStarts: [],
    });
    t.match(answer.data[1], { customer: { name: 'Ben Jones' }, job: 'ABC123 (SUV/UTE): Quick Clean' }, "a job sent as vehicles, named by each vehicle's plate");
    t.equal((await app.inject({ url: `/v1/waitlist?date=${nextWeekday(3, 40)}`, headers: { cookie } })).json().data.length, 0, 'another date has none');
  });

  t.test('staff open the afternoon: the starts that fit each waiting job, outside its part of the day too', async (t) => {
    const reopened = await app.inject({ method: 'DELETE', url: `/v1/closures/${closures[1]}`, headers: { cookie } });
    t.equal(reopened.statusCode, 204);
    type Start = { time: string; inPart: boolean };
    const [first, second] = (await list()).json().data as { freeStarts: Start[] }[];
    const times = first!.freeStarts.map((start) => start.time);
    t.ok(times.length > 0, `free starts: ${times.join(', ')}`);
    t.ok(times.every((time) => time >= '14:00'), 'the afternoon only: the morning stays full');
    t.ok(
      first!.freeStarts.every((start) => !start.inPart),
      'each marked outside the morning the customer asked for',
    );
    t.ok(second!.freeStarts.some((start) => start.time === times[0]), 'the shorter job fits there too');
  });

  t.test('an offer by hand at a start that fits: held as an offered booking, the entry offered by the staff member, the e-mail queued', async (t) => {
    const [first] = (await list()).json().data;
    const time = first.freeStarts[0].time as string;
    const res = await offer(aroha, time);
    t.equal(res.statusCode, 201, res.body);
    const { entryId, booking } = res.json();
    t.equal(entryId, aroha);
    t.match(booking, { status: 'offered', date, time, name: 'Aroha Smith', email: email('aroha') });
    const entry = await app.db.selectFrom('waitlist_entries').selectAll().where('id', '=', aroha).executeTakeFirstOrThrow();
    t.match(entry, { status: 'offered', offered_by: STAFF_NAME, booking_id: booking._id });
    const stored = await app.db.selectFrom('bookings').select(['status', 'offer_expires_at']).where('id', '=', booking._id).executeTakeFirstOrThrow();
    t.equal(stored.status, 'offered');
    t.equal(stored.offer_expires_at!.getTime(), testNow.getTime() + HOLD_MINUTES * 60_000, 'held for WAITLIST_HOLD_MINUTES');
    const mails = await app.db.selectFrom('outbox_emails').select('kind').where('booking_id', '=', booking._id).execute();
    t.same(
      mails.map((mail) => mail.kind),
      ['waitlist-offer'],
      'the offer e-mail alone',
    );
    const history = await app.db.selectFrom('booking_status_changes').select(['changed_by', 'note']).where('booking_id', '=', booking._id).execute();
    t.match(history, [{ changed_by: STAFF_NAME, note: /Offered from the waitlist \(morning/ }]);

    const answer = (await list()).json();
    t.equal(answer.waiting, 1, 'one entry still waits');
    t.match(answer.data[0], {
      status: 'offered',
      offeredBy: STAFF_NAME,
      offer: { reference: booking.reference, time, expiresAt: new Date(testNow.getTime() + HOLD_MINUTES * 60_000).toISOString() },
      freeStarts: [],
    });
  });

  t.test('the reasons an offer cannot be made', async (t) => {
    const held = (await list()).json().data[0].offer.time as string;
    const taken = await offer(ben, held);
    t.equal(taken.statusCode, 409, 'the start just offered is held');
    t.same(taken.json(), { message: WAITLIST_MESSAGES.staffNoFit, errors: [{ field: 'time', message: WAITLIST_MESSAGES.staffNoFit }] });
    const morning = await offer(ben, '10:00');
    t.equal(morning.statusCode, 409, 'the full morning');
    t.equal(morning.json().message, WAITLIST_MESSAGES.staffNoFit);
    const again = await offer(aroha, '17:00');
    t.equal(again.statusCode, 409, 'an entry offered already is no longer waiting');
    t.equal(again.json().message, WAITLIST_MESSAGES.staffNoEntry);
    const unknown = await offer('00000000-0000-4000-8000-000000000000', '14:00');
    t.equal(unknown.statusCode, 404);
    t.equal(unknown.json().message, WAITLIST_MESSAGES.staffNoEntry);
    const notAStart = await offer(ben, '14:30');
    t.equal(notAStart.statusCode, 400, 'starts are on the hour');
    t.match(notAStart.json(), { errors: [{ field: 'time' }] });
    t.equal((await offer(ben, '2pm')).statusCode, 400, 'not a time');
    t.equal((await app.db.selectFrom('waitlist_entries').select('status').where('id', '=', ben).executeTakeFirstOrThrow()).status, 'waiting', 'Ben still waits');
  });

  t.test('staff only, and a date that is a date', async (t) => {
    const anonymous = await app.inject(`/v1/waitlist?date=${date}`);
    t.equal(anonymous.statusCode, 401);
    const anonymousOffer = await app.inject({ method: 'POST', url: `/v1/waitlist/${ben}/offer`, payload: { time: '14:00' } });
    t.equal(anonymousOffer.statusCode, 401);
    for (const bad of ['2026-02-30', 'tomorrow', '']) {
      const res = await app.inject({ url: `/v1/waitlist?date=${bad}`, headers: { cookie } });
      t.equal(res.statusCode, 400, `date=${bad}`);
      t.match(res.json(), { message: String, errors: [{ field: 'date', message: String }] }, 'the documented error shape');
    }
    t.equal((await app.inject({ url: '/v1/waitlist', headers: { cookie } })).statusCode, 400, 'the date is required');
  });
});
