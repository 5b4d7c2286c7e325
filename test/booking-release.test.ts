/**
 * Issue 23, "Release as spam": POST /v1/bookings/release { ids, reason } cancels every pending or
 * confirmed booking named without any e-mail to the address given (its queued customer e-mails
 * skipped), frees its place, records the release in its history with the reason, and lists the
 * ids it could not release.
 */
import t from 'tap';
import { buildTestApp, forEachBackend, login } from './helper.ts';
import { inDays, originalClientPayload } from './support/payloads.ts';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

forEachBackend(t, async (t, backend) => {
  const app = await buildTestApp(t, { backend, env: { BOOKING_SLOT_CAPACITY: '1' } });
  const cookie = await login(app);
  const book = async (overrides: Record<string, unknown>) => {
    const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload(overrides) });
    t.equal(res.statusCode, 201, 'booked');
    return res.json().id as string;
  };
  const release = (payload: unknown, headers: Record<string, string> = { cookie }) =>
    app.inject({ method: 'POST', url: '/v1/bookings/release', payload: payload as object, headers });

  t.test('needs a session, and validates its body', async (t) => {
    t.equal((await release({ ids: [UNKNOWN], reason: 'spam' }, {})).statusCode, 401);
    t.equal((await release({ ids: [], reason: 'spam' })).statusCode, 400, 'at least one id');
    t.equal((await release({ ids: Array.from({ length: 101 }, () => UNKNOWN), reason: 'spam' })).statusCode, 400, 'at most 100');
    t.equal((await release({ ids: ['nope'], reason: 'spam' })).statusCode, 400, 'uuids only');
    t.equal((await release({ ids: [UNKNOWN], reason: '' })).statusCode, 400, 'a reason');
    t.equal((await release({ ids: [UNKNOWN], reason: '   ' })).statusCode, 400, 'a reason that says something');
    t.equal((await release({ ids: [UNKNOWN], reason: 'x'.repeat(201) })).statusCode, 400, 'at most 200 characters');
    t.equal((await release({ ids: [UNKNOWN], reason: 'spam', extra: 1 })).statusCode, 400, 'no unknown keys');
  });

  t.test('releases without e-mail, frees the place, records the reason, lists the rest', async (t) => {
    const spam = await book({ date: inDays(5), time: '10:00', email: 'spam1@example.com' });
    const spamConfirmed = await book({ date: inDays(6), time: '10:00', email: 'spam2@example.com' });
    const completed = await book({ date: inDays(7), time: '10:00', email: 'real@example.com' });
    const cancelled = await book({ date: inDays(8), time: '10:00', email: 'gone@example.com' });
    await app.db.updateTable('bookings').set({ status: 'confirmed' }).where('id', '=', spamConfirmed).execute();
    await app.db.updateTable('bookings').set({ status: 'completed' }).where('id', '=', completed).execute();
    await app.db.updateTable('bookings').set({ status: 'cancelled' }).where('id', '=', cancelled).execute();
    // A queued reminder, as a confirmation queues one.
    const confirmationRow = await app.db.selectFrom('outbox_emails').selectAll().where('booking_id', '=', spamConfirmed).where('kind', 'not like', 'staff-%').executeTakeFirstOrThrow();
    const { id: _id, created_at: _created, ...copy } = confirmationRow as typeof confirmationRow & { created_at?: unknown };
    await app.db.insertInto('outbox_emails').values({ ...copy, kind: 'booking-reminder', status: 'queued' } as never).execute();
    const outboxBefore = await app.db.selectFrom('outbox_emails').select(['id']).execute();

    const res = await release({ ids: [spam, spamConfirmed, completed, cancelled, UNKNOWN, spam], reason: '  Fake names, no such street  ' });
    t.equal(res.statusCode, 200);
    const body = res.json();
    t.same(body.released.map((b: { _id: string }) => b._id).sort(), [spam, spamConfirmed].sort());
    t.ok(body.released.every((b: { status: string }) => b.status === 'cancelled'));
    t.same(
      [...body.skipped].sort((a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id)),
      [
        { id: completed, reason: 'Already completed' },
        { id: cancelled, reason: 'Already cancelled' },
        { id: UNKNOWN, reason: 'No such booking' },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );

    const outboxAfter = await app.db.selectFrom('outbox_emails').selectAll().execute();
    t.equal(outboxAfter.length, outboxBefore.length, 'no e-mail queued by the release');
    const toSpammers = outboxAfter.filter((e) => e.booking_id === spam || e.booking_id === spamConfirmed).filter((e) => !e.kind.startsWith('staff-'));
    t.ok(toSpammers.length > 0);
    t.notOk(toSpammers.some((e) => e.status === 'queued'), 'nothing is left queued to a released booking\'s address');
    t.equal(toSpammers.find((e) => e.kind === 'booking-reminder')?.status, 'skipped', 'the queued reminder is skipped');
    t.notOk(outboxAfter.some((e) => e.kind.includes('cancel')), 'no cancellation e-mail');

    const history = await app.db.selectFrom('booking_status_changes').selectAll().where('booking_id', '=', spamConfirmed).execute();
    t.match(history.at(-1), { from_status: 'confirmed', to_status: 'cancelled', changed_by: 'Staff', note: 'Fake names, no such street' });
    t.equal((await app.db.selectFrom('booking_status_changes').select('id').where('booking_id', 'in', [completed, cancelled]).execute()).length, 0, 'nothing recorded for the skipped');

    // The place is free: the same time can be booked again (one van).
    await book({ date: inDays(5), time: '10:00', email: 'someone@example.com' });

    const again = await release({ ids: [spam], reason: 'again' });
    t.same(again.json(), { released: [], skipped: [{ id: spam, reason: 'Already cancelled' }] });
  });

  t.test('is in the OpenAPI document, behind the session', async (t) => {
    const doc = (await app.inject('/v1/openapi.json')).json();
    const operation = doc.paths['/v1/bookings/release']?.post;
    t.equal(operation?.operationId, 'releaseBookings');
    t.same(operation?.security, [{ staffSession: [] }]);
  });
});
