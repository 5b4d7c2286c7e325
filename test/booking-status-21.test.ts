/**
 * Issue 21, "Statuses, no-shows and notes": the one transition table (src/domain/booking-status.ts)
 * against a small reference model (fast-check), in the domain and through
 * POST /v1/bookings/{id}/status on the app's clock; a no-show refused before the appointment
 * starts and allowed after, with no e-mail and the place kept; a staff cancellation within
 * MANAGE_CUTOFF_HOURS marked late (the booking, its history, the CSV), and cleared when reopened;
 * the database's own CHECKs; internal notes stored, listed, refused when invalid, and absent from
 * the manage page and from every outbox row.
 */
import t from 'tap';
import fc from 'fast-check';
import { buildTestApp, forEachBackend, login } from './helper.ts';
import { inDays, originalClientPayload, testNow } from './support/payloads.ts';
import { actionsFrom, BOOKING_STATUSES, canChangeStatus, isLateCancellation, STATUS_ACTIONS, statusRefusal } from '../src/domain/booking-status.ts';
import { manageLinkFor } from '../src/db/manage-link.repository.ts';
import { mailEnv } from './support/mail.ts';
import { startSmtp } from './support/smtp.ts';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const HOUR = 3_600_000;

/**
 * The reference model, written out independently of the table: every allowed change, '*' marking
 * the ones allowed only once the appointment has started.
 */
const MODEL: Record<string, readonly string[]> = {
  // A waitlist offer (issue 43): its customer confirms it (not staff); staff may withdraw it.
  offered: ['cancelled'],
  pending: ['confirmed', 'cancelled', 'no-show*'],
  confirmed: ['completed', 'cancelled', 'no-show*', 'pending'],
  completed: ['pending'],
  'no-show': ['pending'],
  cancelled: ['pending'],
};
function modelAllows(from: string, to: string, started: boolean): boolean {
  const allowed = MODEL[from] ?? [];
  return allowed.includes(to) || (started && allowed.includes(`${to}*`));
}

const STATUS_OR_NOT = fc.constantFrom(...BOOKING_STATUSES, 'bogus', '', 'Pending');

t.test('the transition table matches the reference model, for every pair and either side of the start', async (t) => {
  const startsAt = new Date('2026-12-01T21:00:00Z');
  fc.assert(
    fc.property(STATUS_OR_NOT, STATUS_OR_NOT, fc.integer({ min: -72 * 60, max: 72 * 60 }), (from, to, minutesFromStart) => {
      const now = new Date(startsAt.getTime() + minutesFromStart * 60_000);
      const started = minutesFromStart >= 0;
      const allowed = canChangeStatus(from, to, { startsAt, now });
      if (allowed !== modelAllows(from, to, started)) return false;
      // The buttons are the table's allowed changes, each once.
      const offered = actionsFrom(from, { startsAt: startsAt.toISOString(), now }).map((a) => a.to);
      if (offered.includes(to as never) !== allowed || new Set(offered).size !== offered.length) return false;
      // Refused for the time alone only when the model allows it once started.
      return (statusRefusal(from, to, { startsAt, now }) === 'not-started') === (!allowed && modelAllows(from, to, true));
    }),
    { numRuns: 2000 },
  );
  // Without a clock, a change with a time condition is never allowed (the completion asks with two arguments).
  for (const from of BOOKING_STATUSES) {
    for (const to of BOOKING_STATUSES) t.equal(canChangeStatus(from, to), modelAllows(from, to, false), `${from} -> ${to} without a clock`);
  }
  t.equal(STATUS_ACTIONS.filter((a) => a.when === 'started').map((a) => a.to).join(), 'no-show', 'only the no-show waits for the start');
});

t.test('a cancellation is late within the notice period, never when it is 0', async (t) => {
  const startsAt = new Date('2026-12-01T21:00:00Z');
  t.notOk(isLateCancellation(startsAt, new Date(startsAt.getTime() - 24 * HOUR), 24), 'exactly the notice: on time');
  t.ok(isLateCancellation(startsAt, new Date(startsAt.getTime() - 24 * HOUR + 1), 24), 'a millisecond inside it: late');
  t.ok(isLateCancellation(startsAt, new Date(startsAt.getTime() + HOUR), 24), 'after the start: late');
  t.notOk(isLateCancellation(startsAt, new Date(startsAt.getTime() + HOUR), 0), 'MANAGE_CUTOFF_HOURS=0 marks none late');
});

forEachBackend(t, async (t, backend) => {
  let clock = testNow;
  const app = await buildTestApp(t, { backend, now: () => clock });
  let cookie = await login(app);
  let day = 0;
  /** A booking through the API on a date of its own (10:00 Auckland), with its start. */
  const book = async (overrides: Record<string, unknown> = {}) => {
    day += 1;
    const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: inDays(4 + day), time: '10:00', email: `customer${day}@example.co.nz`, ...overrides }) });
    if (res.statusCode !== 201) throw new Error(`booking failed: ${res.body}`);
    const id = res.json().id as string;
    return { id, startsAt: (await row(id)).starts_at };
  };
  const row = (id: string) => app.db.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const outbox = (id: string) => app.db.selectFrom('outbox_emails').selectAll().where('booking_id', '=', id).orderBy('id').execute();
  /** A staff request, signing in again when the moved clock ended the session. */
  const staff = async (method: 'GET' | 'POST', url: string, payload?: object, headers: Record<string, string> = {}) => {
    let res = await app.inject({ method, url, ...(payload ? { payload } : {}), headers: { cookie, ...headers } });
    if (res.statusCode === 401) {
      cookie = await login(app);
      res = await app.inject({ method, url, ...(payload ? { payload } : {}), headers: { cookie, ...headers } });
    }
    return res;
  };
  const setStatus = async (id: string, status: string) => staff('POST', `/v1/bookings/${id}/status`, { status, version: (await row(id)).version });
  t.teardown(() => {
    clock = testNow;
  });

  t.test('a no-show is refused before the appointment starts and allowed once it has, with no e-mail and the place kept', async (t) => {
    const { id, startsAt } = await book();
    t.equal((await setStatus(id, 'confirmed')).statusCode, 200);
    clock = new Date(startsAt.getTime() - 60_000);
    const early = await setStatus(id, 'no-show');
    t.equal(early.statusCode, 409, 'a minute before the start');
    t.equal(early.json().message, 'This appointment has not started yet, so it cannot be marked as a no-show.');
    t.equal(early.json().errors[0].field, 'status');
    t.equal((await row(id)).status, 'confirmed', 'nothing changed');

    const mailBefore = (await outbox(id)).length;
    clock = startsAt;
    const res = await setStatus(id, 'no-show');
    t.equal(res.statusCode, 200, 'at the start');
    t.equal(res.json().booking.status, 'no-show');
    t.match(res.json().history.at(-1), { from: 'confirmed', to: 'no-show', by: 'Staff' });
    t.equal((await outbox(id)).length, mailBefore, 'no e-mail for a no-show');
    const held = await row(id);
    t.not(held.resource_id, null, 'it keeps its van');

    // It holds its place as a completed job does: the database refuses another job on top of it
    // (booked online the days before, when the wizard takes such bookings).
    clock = testNow;
    const other = await book({ date: held.date, time: '11:00', email: 'overlap@example.co.nz' });
    t.not((await row(other.id)).resource_id, held.resource_id, 'the next job is placed on the other van, not over the no-show');
    const full = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: held.date, time: '11:00', email: 'third@example.co.nz' }) });
    t.equal(full.statusCode, 409, 'both vans taken: the no-show still holds its van');
    await t.rejects(app.db.updateTable('bookings').set({ resource_id: held.resource_id }).where('id', '=', other.id).execute(), /bookings_no_overlap/);

    // Listed under its own filter, and in the CSV.
    const list = await staff('GET', '/v1/bookings?status=no-show');
    t.equal(list.statusCode, 200);
    t.same(list.json().data.map((b: { _id: string }) => b._id), [id]);
    const csv = await staff('GET', '/v1/bookings/export.csv?status=no-show');
    t.match(csv.body, new RegExp(`${id},[A-Z0-9]{8},[^,]+,no-show,`));
    // A no-show cannot be moved, cancelled or completed; it can go back to pending.
    t.equal((await setStatus(id, 'cancelled')).statusCode, 409);
    t.equal((await setStatus(id, 'completed')).statusCode, 409);
    t.equal((await setStatus(id, 'pending')).statusCode, 200, 'back to pending undoes a mistake');
    clock = testNow;
  });

  t.test('a pending booking can be a no-show too; the status endpoint refuses unknown statuses', async (t) => {
    const { id, startsAt } = await book();
    t.equal((await setStatus(id, 'no-show')).statusCode, 409, 'not before the start');
    clock = new Date(startsAt.getTime() + 2 * HOUR);
    t.equal((await setStatus(id, 'no-show')).statusCode, 200);
    t.equal((await setStatus(id, 'noshow')).statusCode, 400, 'not a status');
    clock = testNow;
  });

  t.test('a staff cancellation within the notice period is marked late, in the booking, its history and the CSV', async (t) => {
    const early = await book();
    const late = await book();
    clock = new Date(early.startsAt.getTime() - 25 * HOUR);
    const onTime = await setStatus(early.id, 'cancelled');
    t.equal(onTime.statusCode, 200);
    t.equal(onTime.json().booking.cancelledLate, false, '25 hours ahead: on time');
    t.equal(onTime.json().history.at(-1).note, null);

    clock = new Date(late.startsAt.getTime() - 2 * HOUR);
    const res = await setStatus(late.id, 'cancelled');
    t.equal(res.statusCode, 200);
    t.equal(res.json().booking.cancelledLate, true, '2 hours ahead: late');
    t.equal(res.json().history.at(-1).note, 'Cancelled late (within the notice period)');
    t.equal((await row(late.id)).cancelled_late, true);
    t.ok((await outbox(late.id)).some((e) => e.kind.includes('cancel')), 'the customer is still told of the cancellation');

    const csv = await staff('GET', '/v1/bookings/export.csv?status=cancelled');
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split(/\r?\n/);
    const column = lines[0]!.split(',').indexOf('Cancelled late');
    t.ok(column > 0, 'a Cancelled late column');
    t.equal(lines.find((l) => l.startsWith(late.id))!.split(',')[column], 'yes');
    t.equal(lines.find((l) => l.startsWith(early.id))!.split(',')[column], '');

    clock = testNow;
    const reopened = await setStatus(late.id, 'pending');
    t.equal(reopened.statusCode, 200);
    t.equal(reopened.json().booking.cancelledLate, false, 'reopening clears the mark');
  });

  t.test('the database refuses an unknown status and a late mark on a booking that is not cancelled', async (t) => {
    const { id } = await book();
    await t.rejects(app.db.updateTable('bookings').set({ status: 'lost' }).where('id', '=', id).execute(), /bookings_status_known/);
    await t.rejects(app.db.updateTable('bookings').set({ cancelled_late: true }).where('id', '=', id).execute(), /bookings_late_only_when_cancelled/);
    await t.rejects(
      app.db.insertInto('booking_status_changes').values({ booking_id: id, from_status: 'pending', to_status: 'lost', changed_by: 'x' }).execute(),
      /booking_status_changes_to_status_known/,
    );
  });

  t.test('every change through the API follows the model, on either side of the start (fast-check)', async (t) => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ to: fc.constantFrom(...BOOKING_STATUSES), started: fc.boolean() }), { minLength: 1, maxLength: 6 }), async (steps) => {
        clock = testNow;
        const { id, startsAt } = await book();
        // The model's state: the status, and whether a cancellation was late (days ahead: on time;
        // after the start: late).
        let status = 'pending';
        let late = false;
        for (const step of steps) {
          clock = step.started ? new Date(startsAt.getTime() + 30 * 60_000) : testNow;
          const res = await setStatus(id, step.to);
          const allowed = modelAllows(status, step.to, step.started);
          if (res.statusCode !== (allowed ? 200 : 409)) throw new Error(`${status} -> ${step.to} (started: ${step.started}): ${res.statusCode} ${res.body}`);
          if (allowed) {
            status = step.to;
            late = step.to === 'cancelled' && step.started;
          }
          const stored = await row(id);
          if (stored.status !== status || stored.cancelled_late !== late) throw new Error(`stored ${stored.status}/${stored.cancelled_late}, model ${status}/${late}`);
        }
        clock = testNow;
      }),
      { numRuns: 12 },
    );
    t.pass('the server agreed with the model');
  });

  t.test('internal notes: stored with the author, listed oldest first, refused when invalid', async (t) => {
    const { id } = await book();
    const named = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { password: 'correct horse battery staple', name: 'Aroha' } });
    t.equal(named.statusCode, 204);
    const aroha = `${named.cookies[0]!.name}=${named.cookies[0]!.value}`;
    const add = (text: unknown, headers: Record<string, string> = { cookie: aroha }) =>
      app.inject({ method: 'POST', url: `/v1/bookings/${id}/notes`, payload: { text } as object, headers });

    t.same((await staff('GET', `/v1/bookings/${id}/notes`)).json(), { notes: [] });
    const first = await add('  Gate code 4411\nDog is friendly  ');
    t.equal(first.statusCode, 201);
    t.match(first.json(), { text: 'Gate code 4411\nDog is friendly', by: 'Aroha' });
    t.equal((await add('Park on the street\tplease')).statusCode, 201, 'a tab is fine');
    const list = await staff('GET', `/v1/bookings/${id}/notes`);
    t.same(list.json().notes.map((n: { text: string }) => n.text), ['Gate code 4411\nDog is friendly', 'Park on the street\tplease']);
    t.ok(list.json().notes.every((n: { at: string }) => !Number.isNaN(Date.parse(n.at))));

    const refused: [unknown, string][] = [
      ['', 'empty'],
      ['   \n ', 'blank'],
      ['x'.repeat(2001), 'over 2000 characters'],
      ['ring \u0007 the bell', 'a control character'],
      ['nul \u0000', 'a NUL'],
      [42, 'not text'],
    ];
    for (const [text, why] of refused) {
      const res = await add(text);
      t.equal(res.statusCode, 400, why);
      t.type(res.json().message, 'string', `${why}: in the error shape`);
    }
    t.equal((await add('x'.repeat(2000))).statusCode, 201, 'exactly 2000 characters');
    const noText = await app.inject({ method: 'POST', url: `/v1/bookings/${id}/notes`, payload: {}, headers: { cookie: aroha } });
    t.equal(noText.statusCode, 400, 'text required');
    const extra = await app.inject({ method: 'POST', url: `/v1/bookings/${id}/notes`, payload: { text: 'x', by: 'Boss' }, headers: { cookie: aroha } });
    t.equal(extra.statusCode, 400, 'no other keys');
    t.equal((await add('hello', {})).statusCode, 401, 'staff only');
    t.equal((await app.inject({ method: 'GET', url: `/v1/bookings/${id}/notes` })).statusCode, 401, 'reading too');
    t.equal((await add('hello', { cookie: aroha, origin: 'https://evil.example' })).statusCode, 403, 'not from another site');
    t.equal((await add('hello', { cookie: aroha, 'sec-fetch-site': 'cross-site' })).statusCode, 403);
    t.equal((await app.inject({ method: 'POST', url: `/v1/bookings/${UNKNOWN}/notes`, payload: { text: 'x' }, headers: { cookie: aroha } })).statusCode, 404);
    t.equal((await staff('GET', `/v1/bookings/${UNKNOWN}/notes`)).statusCode, 404);
    t.equal((await staff('GET', '/v1/bookings/nope/notes')).statusCode, 400);
    t.equal((await app.db.selectFrom('booking_notes').select('id').where('booking_id', '=', id).execute()).length, 3, 'only the valid ones stored');
    await t.rejects(app.db.updateTable('booking_notes').set({ body: 'changed' }).where('booking_id', '=', id).execute(), /append-only/);
    await t.rejects(app.db.insertInto('booking_notes').values({ booking_id: id, body: 'a\u0001b', author: 'x' }).execute(), /booking_notes_body_check/);
  });

  t.test('a note never reaches the customer: not on the manage page, not in any e-mail', async (t) => {
    const secret = 'Gate code 9173 (staff only)';
    const { id, startsAt } = await book();
    t.equal((await staff('POST', `/v1/bookings/${id}/notes`, { text: secret })).statusCode, 201);
    // Changes that e-mail the customer, after the note was written.
    t.equal((await setStatus(id, 'confirmed')).statusCode, 200);
    clock = new Date(startsAt.getTime() - 3 * HOUR);
    t.equal((await setStatus(id, 'cancelled')).statusCode, 200);
    clock = testNow;
    t.equal((await setStatus(id, 'pending')).statusCode, 200);
    t.equal((await setStatus(id, 'confirmed')).statusCode, 200);

    const link = (await manageLinkFor(app.db, id, 'http://localhost'))!;
    const page = await app.inject({ method: 'GET', url: new URL(link).pathname });
    t.equal(page.statusCode, 200);
    // The whole phrase: four digits alone turn up by chance in ids, tokens and time stamps.
    t.notOk(page.body.includes('Gate code 9173'), 'not on the manage page');

    const rows = await app.db.selectFrom('outbox_emails').selectAll().execute();
    t.ok(rows.filter((r) => r.booking_id === id).length >= 3, 'e-mails were written');
    t.notOk(
      rows.some((r) => Object.values(r).some((value) => JSON.stringify(value ?? null).includes('Gate code 9173'))),
      'in no outbox row, for the customer or for staff',
    );
  });
});

t.test('a reminder still waiting when the booking is marked a no-show is dropped, not sent', async (t) => {
  const smtp = await startSmtp(t);
  let clock = testNow;
  // Sent only when woken: the poller cannot race the clock below.
  const app = await buildTestApp(t, { env: mailEnv(smtp, { REMINDER_HOURS_BEFORE: '24', MAIL_POLL_MS: '3600000', LOG_LEVEL: 'silent' }), now: () => clock });
  const cookie = await login(app);
  const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: inDays(3), time: '10:00', email: 'away@example.co.nz' }) });
  t.equal(res.statusCode, 201);
  const id = res.json().id as string;
  await app.mailer.wake();
  const { starts_at: startsAt, version } = await app.db.selectFrom('bookings').select(['starts_at', 'version']).where('id', '=', id).executeTakeFirstOrThrow();
  const sentBefore = smtp.received.length;

  // The reminder was due a day before but never went (the relay was down); the customer did not come.
  clock = new Date(startsAt.getTime() + 3_600_000);
  const marked = await app.inject({ method: 'POST', url: `/v1/bookings/${id}/status`, headers: { cookie }, payload: { status: 'no-show', version } });
  t.equal(marked.statusCode, 200);
  await app.mailer.wake();
  await app.mailer.wake();
  t.equal(smtp.received.length, sentBefore, 'nothing more was sent');
  const reminder = await app.db.selectFrom('outbox_emails').selectAll().where('booking_id', '=', id).where('kind', '=', 'booking-reminder').executeTakeFirstOrThrow();
  t.equal(reminder.status, 'skipped');
});
