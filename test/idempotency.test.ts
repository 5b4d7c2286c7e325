/** Idempotent submissions through the API: the Idempotency-Key header of create-booking and contact-us-form. */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import t from 'tap';
import { insertContactMessage } from '../src/db/contact-messages.repository.ts';
import { answerOnce, purgeExpiredKeys } from '../src/services/idempotency.service.ts';
import { buildTestApp, forEachBackend } from './helper.ts';
import { inDays, originalClientPayload } from './support/payloads.ts';

/**
 * A booking payload on a date of its customer's own (a van holds each job for hours now, so
 * unrelated tests must not compete for one day's vans); an explicit date still wins.
 */
const customerDates = new Map<string, string>();
function bookingPayload(overrides: Record<string, unknown>) {
  const name = String(overrides.name);
  if (!customerDates.has(name)) customerDates.set(name, inDays(20 + customerDates.size));
  return originalClientPayload({ date: customerDates.get(name), ...overrides });
}

const message = { name: 'Tane Walker', email: 'tane@example.com', phone: '021 555 1234', message: 'Do you clean boats?' };

forEachBackend(t, async (t, backend) => {
  const app = await buildTestApp(t, { backend });
  const post = (url: string, payload: object, key?: string) =>
    app.inject({ method: 'POST', url, payload, headers: key === undefined ? {} : { 'idempotency-key': key } });
  const book = (payload: object, key?: string) => post('/v1/create-booking', payload, key);
  const contact = (payload: object, key?: string) => post('/v1/contact-us-form', payload, key);
  const countRows = async (table: 'bookings' | 'contact_messages' | 'idempotency_keys') =>
    Number((await app.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const bookingsNamed = (name: string) => app.db.selectFrom('bookings').selectAll().where('name', '=', name).execute();
  const messagesFrom = (name: string) => app.db.selectFrom('contact_messages').selectAll().where('name', '=', name).execute();
  /** Makes every stored key look `hours` old. */
  const ageKeys = (hours: number) =>
    app.db.updateTable('idempotency_keys').set({ created_at: sql<Date>`now() - make_interval(hours => ${hours})` }).execute();

  t.test('20 simultaneous bookings with one key make one booking and 20 identical answers', async (t) => {
    const key = randomUUID();
    const payload = bookingPayload({ name: 'Concurrent Customer', date: inDays(4), time: '09:00' });
    const answers = await Promise.all(Array.from({ length: 20 }, () => book(payload, key)));
    t.same(answers.map((a) => a.statusCode), Array(20).fill(201));
    const first = answers[0]!.json();
    t.match(first, { message: /booking has been received/, id: /^[0-9a-f-]{36}$/, booking: { name: 'Concurrent Customer' } });
    for (const answer of answers) t.same(answer.json(), first, 'the same body, id included');
    t.same(new Set(answers.map((a) => a.body)).size, 1, 'byte for byte');
    t.equal(answers.filter((a) => a.headers['idempotent-replayed'] === 'true').length, 19, 'all but the first are replays');
    const rows = await bookingsNamed('Concurrent Customer');
    t.equal(rows.length, 1, 'one booking');
    t.equal(rows[0]!.id, first.id);
    const stored = await app.db.selectFrom('idempotency_keys').selectAll().where('key', '=', key).execute();
    t.match(stored, [{ scope: 'create-booking', response_status: 201, fingerprint: /^[0-9a-f]{64}$/ }]);

    const later = await book(payload, key);
    t.equal(later.statusCode, 201);
    t.equal(later.headers['idempotent-replayed'], 'true');
    t.same(later.json(), first, 'a later retry gets the same answer');
  });

  t.test('retries waiting for an answer in progress hold no database connection: they wait in the process, not on the key\'s lock', async (t) => {
    const request = { scope: 'test-flight', key: randomUUID(), payload: { n: 1 } };
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let produced = 0;
    const answers = Array.from({ length: 12 }, () =>
      answerOnce(app.db, request, async () => {
        produced += 1;
        await gate;
        return { status: 201, body: { produced } };
      }),
    );
    // The first is inside its transaction, holding the key's lock; nobody else is queued on it.
    while (produced === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    // (The embedded database has one connection, which the first holds: nothing else can ask.)
    if (backend === 'postgres') {
      const waiting = await sql<{ n: string }>`SELECT count(*)::text AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`.execute(app.db);
      t.equal(waiting.rows[0]!.n, '0', 'no transaction waits on the key');
    }
    release();
    const settled = await Promise.all(answers);
    t.equal(produced, 1, 'produced once');
    t.same(new Set(settled.map((a) => JSON.stringify(a.body))), new Set(['{"produced":1}']));
    t.equal(settled.filter((a) => a.replayed).length, 11, 'the others are replays');
  });

  t.test('the body is compared by content: key order does not matter, any change does (422)', async (t) => {
    const key = randomUUID();
    const payload = bookingPayload({ name: 'Reordered Keys', time: '11:00' });
    const created = await book(payload, key);
    t.equal(created.statusCode, 201);
    const reordered = Object.fromEntries(Object.entries(payload).reverse());
    const again = await book(reordered, key);
    t.equal(again.statusCode, 201);
    t.equal(again.headers['idempotent-replayed'], 'true');
    t.equal(again.json().id, created.json().id);

    const before = await countRows('bookings');
    const changed = await book({ ...payload, notes: 'Please ring first' }, key);
    t.equal(changed.statusCode, 422);
    t.same(changed.json(), {
      message: 'This Idempotency-Key was already used with a different request body',
      errors: [{ field: 'Idempotency-Key', message: 'This Idempotency-Key was already used with a different request body' }],
    });
    t.notOk(changed.headers['idempotent-replayed']);
    t.equal(await countRows('bookings'), before, 'nothing stored');
  });

  t.test('an invalid key is a 400 in the error shape and stores nothing', async (t) => {
    const before = await countRows('bookings');
    for (const key of ['', 'two words', 'x'.repeat(256), 'tab\there', 'caf\u00e9']) {
      const res = await book(bookingPayload({ name: 'Bad Key' }), key);
      t.equal(res.statusCode, 400, JSON.stringify(key));
      t.same(res.json(), {
        message: 'Must be 1 to 255 visible ASCII characters (letters, digits, punctuation; no spaces)',
        errors: [{ field: 'Idempotency-Key', message: 'Must be 1 to 255 visible ASCII characters (letters, digits, punctuation; no spaces)' }],
      });
    }
    t.equal(await countRows('bookings'), before);
    const longest = await book(bookingPayload({ name: 'Longest Key', time: '12:00' }), '~'.repeat(255));
    t.equal(longest.statusCode, 201, '255 visible characters are a valid key');
  });

  t.test('without a key every request is processed, as before', async (t) => {
    const payload = bookingPayload({ name: 'No Key', time: '13:00' });
    t.equal((await book(payload)).statusCode, 201);
    t.equal((await book(payload)).statusCode, 201);
    t.equal((await bookingsNamed('No Key')).length, 2);
  });

  t.test('a refused request does not use up its key: a 400 or a 409 can be retried with it', async (t) => {
    const key = randomUUID();
    const invalid = await book(bookingPayload({ name: 'Retry After Fix', phone: '12', time: '14:00' }), key);
    t.equal(invalid.statusCode, 400);
    const fixed = await book(bookingPayload({ name: 'Retry After Fix', time: '14:00' }), key);
    t.equal(fixed.statusCode, 201, 'the corrected body is booked with the same key');
    t.notOk(fixed.headers['idempotent-replayed']);

    const slot = { date: inDays(7), time: '15:00' };
    const taken = [await book(bookingPayload({ ...slot, name: 'Holder One' })), await book(bookingPayload({ ...slot, name: 'Holder Two' }))];
    t.same(taken.map((r) => r.statusCode), [201, 201]);
    const waiting = randomUUID();
    const payload = bookingPayload({ ...slot, name: 'Waiting Customer' });
    const full = await book(payload, waiting);
    t.equal(full.statusCode, 409, 'the slot is full');
    t.same(await app.db.selectFrom('idempotency_keys').select('key').where('key', '=', waiting).execute(), [], 'a 409 is not stored');
    await app.db.updateTable('bookings').set({ status: 'cancelled' }).where('id', '=', taken[0]!.json().id).execute();
    const retried = await book(payload, waiting);
    t.equal(retried.statusCode, 201, 'once a place is free the retry books it');
    t.equal((await bookingsNamed('Waiting Customer')).length, 1);
  });

  t.test('a key older than 24 hours is forgotten: the request is processed again and the key reused', async (t) => {
    const key = randomUUID();
    const payload = bookingPayload({ name: 'Returning Customer', time: '16:00' });
    const first = await book(payload, key);
    t.equal(first.statusCode, 201);
    await ageKeys(23);
    t.equal((await book(payload, key)).headers['idempotent-replayed'], 'true', 'still replayed at 23 hours');
    await ageKeys(25);
    const after = await book(payload, key);
    t.equal(after.statusCode, 201);
    t.notOk(after.headers['idempotent-replayed'], 'not replayed after 24 hours');
    t.not(after.json().id, first.json().id, 'a new booking');
    t.equal((await bookingsNamed('Returning Customer')).length, 2);
    const replayed = await book(payload, key);
    t.equal(replayed.json().id, after.json().id, 'the key now stands for the new booking');

    await ageKeys(25);
    const other = await book(bookingPayload({ name: 'Other Body', time: '17:00' }), key);
    t.equal(other.statusCode, 201, 'an expired key is no 422 either');
  });

  t.test('expired keys are purged, live ones kept', async (t) => {
    t.ok((await book(bookingPayload({ name: 'Purge Old', time: '17:00' }), randomUUID())).statusCode === 201);
    await ageKeys(25);
    const live = randomUUID();
    t.equal((await book(bookingPayload({ name: 'Purge New', time: '17:00' }), live)).statusCode, 201);
    const deleted = await purgeExpiredKeys(app.db);
    t.ok(deleted >= 1, `${deleted} deleted`);
    t.same((await app.db.selectFrom('idempotency_keys').select('key').execute()).map((r) => r.key), [live]);
  });

  t.test('contact-us-form: 20 simultaneous posts with one key store one message; another body is a 422; a bad key a 400', async (t) => {
    const key = randomUUID();
    const payload = { ...message, name: 'Concurrent Sender' };
    const answers = await Promise.all(Array.from({ length: 20 }, () => contact(payload, key)));
    t.same(answers.map((a) => a.statusCode), Array(20).fill(201));
    const first = answers[0]!.json();
    t.match(first, { message: /Thank you/, id: /^[0-9a-f-]{36}$/ });
    for (const answer of answers) t.same(answer.json(), first);
    t.equal(answers.filter((a) => a.headers['idempotent-replayed'] === 'true').length, 19);
    t.match(await messagesFrom('Concurrent Sender'), [{ id: first.id }]);
    t.equal((await messagesFrom('Concurrent Sender')).length, 1);

    const changed = await contact({ ...payload, message: 'Something else' }, key);
    t.equal(changed.statusCode, 422);
    t.match(changed.json(), { errors: [{ field: 'Idempotency-Key' }] });
    const bad = await contact(payload, 'not a key');
    t.equal(bad.statusCode, 400);
    t.match(bad.json(), { errors: [{ field: 'Idempotency-Key', message: /visible ASCII/ }] });
    t.equal((await messagesFrom('Concurrent Sender')).length, 1);
  });

  t.test('a key belongs to its route: the same key on the other route is another request', async (t) => {
    const key = randomUUID();
    t.equal((await book(bookingPayload({ name: 'Shared Key', time: '10:00' }), key)).statusCode, 201);
    const message2 = await contact({ ...message, name: 'Shared Key' }, key);
    t.equal(message2.statusCode, 201);
    t.notOk(message2.headers['idempotent-replayed']);
  });

  t.test('the answer is stored in the same transaction as the row: when storing it fails, no row remains', async (t) => {
    const before = await countRows('contact_messages');
    // A 500 cannot be stored (the table refuses it), so the insert of the key fails after the message was written.
    await t.rejects(
      answerOnce(app.db, { scope: 'test', key: randomUUID(), payload: {} }, async (trx) => {
        await insertContactMessage(trx, { ...message, name: 'Rolled Back' });
        return { status: 500, body: {} };
      }),
    );
    t.equal(await countRows('contact_messages'), before, 'the message was rolled back with the key');
    t.same(await messagesFrom('Rolled Back'), []);
  });

  t.test('a key is never committed claimed but unanswered: the database refuses the commit (migrations/025)', async (t) => {
    const key = randomUUID();
    await t.rejects(
      app.db.transaction().execute(async (trx) => {
        await sql`insert into idempotency_keys (scope, key, fingerprint) values ('test', ${key}, ${'0'.repeat(64)})`.execute(trx);
      }),
      /claimed but not answered/,
    );
    t.equal((await app.db.selectFrom('idempotency_keys').select('key').where('key', '=', key).execute()).length, 0, 'nothing was stored');
    // Answered in the same transaction, the claim commits.
    await app.db.transaction().execute(async (trx) => {
      await sql`insert into idempotency_keys (scope, key, fingerprint) values ('test', ${key}, ${'0'.repeat(64)})`.execute(trx);
      await sql`update idempotency_keys set response_status = 200, response_body = '{}' where scope = 'test' and key = ${key}`.execute(trx);
    });
    t.match(await app.db.selectFrom('idempotency_keys').selectAll().where('key', '=', key).executeTakeFirst(), { response_status: 200, response_body: {} });
    await t.rejects(
      sql`update idempotency_keys set response_status = 200 where scope = 'test' and key = ${key}`.execute(app.db).then(() =>
        sql`update idempotency_keys set response_status = null where scope = 'test' and key = ${key}`.execute(app.db),
      ),
      /idempotency_keys_answer_whole/,
      'a status without a body (or the reverse) is refused at once',
    );
  });

  t.test('the header is documented on both routes', async (t) => {
    const doc = (await app.inject('/v1/openapi.json')).json();
    for (const path of ['/v1/create-booking', '/v1/contact-us-form']) {
      const operation = doc.paths[path].post;
      const header = operation.parameters.find((p: { in: string; name: string }) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
      t.match(header, { required: false, schema: { type: 'string', pattern: String }, description: /same key/ }, path);
      t.ok(operation.responses['422'], `${path} documents the 422`);
    }
  });
});
