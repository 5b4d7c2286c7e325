/**
 * The Customers view of issue 22 on both databases: bookings grouped into customers by e-mail
 * (trimmed, any case) or, without one, by phone; their counts, what they spent, their last and
 * next visit; the search; keyset paging (against a reference model of the grouping, with
 * fast-check); the customer's page; the guard and bad input.
 */
import t from 'tap';
import fc from 'fast-check';
import { sql } from 'kysely';
import { buildTestApp, forEachBackend, login } from './helper.ts';
import { bookingRow, inDays, testNow } from './support/payloads.ts';
import { aucklandInstant } from '../src/domain/booking-dates.ts';

interface CustomerJson {
  id: string;
  name: string;
  email: string;
  phone: string;
  bookings: number;
  completedJobs: number;
  totalSpentCents: number;
  lastVisit: { bookingId: string; reference: string; date: string; time: string; status: string } | null;
  nextVisit: { bookingId: string; reference: string; date: string; time: string; status: string } | null;
  lastBookedAt: string;
}

/** An Auckland wall time a given number of minutes from the tests' clock, on the hour. */
function hourFromNow(hours: number): { date: string; time: string } {
  const instant = new Date(testNow.getTime() + hours * 3_600_000);
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', hourCycle: 'h23' }).formatToParts(instant);
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return { date: `${part('year')}-${part('month')}-${part('day')}`, time: `${part('hour')}:00` };
}

forEachBackend(t, async (t, backend) => {
  // The app's clock: the tests' moment, moved by the test of stored visits only.
  let clock = testNow;
  const app = await buildTestApp(t, { backend, now: () => clock });
  const cookie = await login(app);
  const get = (url: string, headers: Record<string, string> = { cookie }) => app.inject({ method: 'GET', url, headers });
  const list = async (query = ''): Promise<CustomerJson[]> => {
    const res = await get(`/v1/customers?limit=100${query ? `&${query}` : ''}`);
    if (res.statusCode !== 200) throw new Error(`GET /v1/customers?${query}: ${res.statusCode} ${res.body}`);
    return res.json().data;
  };
  const insert = async (rows: Record<string, unknown>[]) => {
    const inserted = [];
    // One statement each, so each is made at its own moment (the most recent one names the customer).
    for (const row of rows) inserted.push(await app.db.insertInto('bookings').values(bookingRow(row) as never).returningAll().executeTakeFirstOrThrow());
    return inserted;
  };
  const clear = async () => {
    await sql`DELETE FROM booking_status_changes`.execute(app.db);
    await sql`DELETE FROM outbox_emails`.execute(app.db);
    await sql`DELETE FROM bookings`.execute(app.db);
    await sql`DELETE FROM contact_messages`.execute(app.db);
  };

  t.test('the summary\'s functions keep their plans for the connection (migrations/027)', async (t) => {
    // Planned anew on every call otherwise: most of a booking's insert. A migration replacing
    // either function must give it the setting again (CREATE OR REPLACE drops it).
    const { rows } = await sql<{ name: string; config: string[] | null }>`
      select proname as name, proconfig as config from pg_proc
       where proname in ('customers_refresh', 'customers_visits_refresh') and pronamespace = current_schema()::regnamespace
       order by proname`.execute(app.db);
    t.same(rows, [
      { name: 'customers_refresh', config: ['plan_cache_mode=force_generic_plan'] },
      { name: 'customers_visits_refresh', config: ['plan_cache_mode=force_generic_plan'] },
    ]);
  });

  t.test("a booking's summary reads its customer's bookings by index, whatever plan is kept (migrations/029)", async (t) => {
    await clear();
    // A thousand customers, analysed: a plan made for a list of keys of unknown length (the one
    // kept for the connection) read this whole table and hashed it, on every booking's insert.
    await app.db.insertInto('bookings').values(Array.from({ length: 1000 }, (_, i) => bookingRow({ email: `many.${i}@example.com`, name: `Many ${i}` }) as never)).execute();
    await sql`analyze bookings`.execute(app.db);
    const scans = sql<{ seq: number; idx: number }>`select seq_scan::int as seq, idx_scan::int as idx from pg_stat_xact_user_tables where relname = 'bookings'`;
    await app.db.transaction().execute(async (trx) => {
      const refresh = () => sql`select customers_refresh(array['e:many.7@example.com'], false)`.execute(trx);
      await refresh();
      const before = (await scans.execute(trx)).rows[0]!;
      await refresh();
      const after = (await scans.execute(trx)).rows[0]!;
      t.equal(after.seq - before.seq, 0, 'no read of the whole table');
      t.ok(after.idx > before.idx, 'the key read through an index');
    });
    t.match((await list('q=many.7%40')).map((c) => [c.email, c.bookings]), [['many.7@example.com', 1]]);
    await clear();
  });

  t.test('every customers endpoint answers 401 without a session', async (t) => {
    for (const url of ['/v1/customers', '/v1/customers?q=x', '/v1/customers/00000000-0000-4000-8000-000000000000']) {
      const res = await get(url, {});
      t.equal(res.statusCode, 401, url);
      t.match(res.json(), { message: String, errors: [] });
      t.equal(res.headers['cache-control'], 'no-store');
    }
  });

  t.test('bookings group by e-mail (trimmed, any case), and by phone without one', async (t) => {
    await clear();
    const [first, , , walkIn] = await insert([
      { name: 'Aroha Smith', email: 'Aroha@Example.com', phone: '021 111 2222', date: inDays(-20), time: '09:00', status: 'completed', total_cents: 6900, list_price_cents: 6900 },
      { name: 'Aroha Smith', email: '  aroha@example.COM ', phone: '021 111 2222', date: inDays(-5), time: '10:00', status: 'cancelled' },
      { name: 'Aroha S.', email: 'aroha@example.com', phone: '021-111-2223', date: inDays(10), time: '11:00', status: 'confirmed' },
      { name: 'Walk-in Wiremu', email: '', phone: '022 333 4444', date: inDays(-2), time: '08:00', status: 'completed', total_cents: 10900, list_price_cents: 10900 },
      { name: 'Wiremu T', email: '', phone: '(022) 333-4444', date: inDays(4), time: '13:00', status: 'pending' },
      { name: 'Ben Jones', email: 'ben@example.com', phone: '021 111 2222', date: inDays(3), time: '12:00', status: 'pending' },
    ]);
    const customers = await list();
    t.equal(customers.length, 3, 'three customers from six bookings');
    t.same(customers.map((c) => c.name), ['Ben Jones', 'Wiremu T', 'Aroha S.'], 'most recently booked first, named by their latest booking');
    const [ben, wiremu, aroha] = customers as [CustomerJson, CustomerJson, CustomerJson];
    t.match(aroha, { email: 'aroha@example.com', phone: '021-111-2223', bookings: 3, completedJobs: 1, totalSpentCents: 6900 });
    t.match(wiremu, { email: '', phone: '(022) 333-4444', bookings: 2, completedJobs: 1, totalSpentCents: 10900 }, 'a phone-only customer, phone compared by digits');
    t.match(ben, { bookings: 1, completedJobs: 0, totalSpentCents: 0, lastVisit: null }, 'the same phone with another e-mail is another customer');
    t.match(aroha.lastVisit, { bookingId: first!.id, reference: first!.reference, date: inDays(-20), time: '09:00', status: 'completed' }, 'the cancelled visit is no visit');
    t.match(aroha.nextVisit, { date: inDays(10), time: '11:00', status: 'confirmed' });
    t.match(wiremu.lastVisit, { bookingId: walkIn!.id, date: inDays(-2) });
    t.match(wiremu.nextVisit, { date: inDays(4), time: '13:00' });
  });

  t.test('last and next visit split at the present moment in Auckland, cancelled ones left out', async (t) => {
    await clear();
    const earlier = hourFromNow(-1);
    const later = hourFromNow(1);
    await insert([
      { name: 'Today Tui', email: 'tui@example.com', ...earlier, status: 'confirmed' },
      { name: 'Today Tui', email: 'tui@example.com', ...later, status: 'pending' },
      { name: 'Today Tui', email: 'tui@example.com', ...hourFromNow(2), status: 'cancelled' },
      { name: 'Today Tui', email: 'tui@example.com', date: inDays(-400), time: '09:00', status: 'cancelled' },
    ]);
    const [tui] = await list();
    t.match(tui!.lastVisit, { date: earlier.date, time: earlier.time }, 'an hour ago is the last visit');
    t.match(tui!.nextVisit, { date: later.date, time: later.time }, 'in an hour is the next');
    t.equal(aucklandInstant(tui!.nextVisit!.date, tui!.nextVisit!.time) > testNow.getTime(), true);
  });

  t.test('stored visits (migrations/024) follow the clock both ways and a moved appointment', async (t) => {
    await clear();
    t.teardown(() => void (clock = testNow));
    const [a, b, c] = await insert([
      { name: 'Kiri Moana', email: 'kiri@example.com', ...hourFromNow(-1), status: 'confirmed' },
      { name: 'Kiri Moana', email: 'kiri@example.com', ...hourFromNow(1), status: 'pending' },
      { name: 'Kiri Moana', email: 'kiri@example.com', date: inDays(5), time: '10:00', status: 'confirmed' },
    ]);
    const visits = async () => {
      const [listed] = await list();
      const res = await get(`/v1/customers/${listed!.id}`);
      t.same(res.json().customer.lastVisit, listed!.lastVisit, "the customer's page agrees with the list");
      t.same(res.json().customer.nextVisit, listed!.nextVisit);
      return [listed!.lastVisit?.bookingId ?? null, listed!.nextVisit?.bookingId ?? null];
    };
    const stored = async () =>
      (await sql<{ as_of: Date }>`SELECT visits_as_of AS as_of FROM customers WHERE key = 'e:kiri@example.com'`.execute(app.db)).rows[0]!.as_of.getTime();
    t.same(await visits(), [a!.id, b!.id]);
    clock = new Date(testNow.getTime() + 2 * 3_600_000);
    t.same(await visits(), [b!.id, c!.id], 'two hours on, the visit in an hour is the last one');
    t.equal(await stored(), clock.getTime(), 'and the row stores its visits as of the later moment');
    t.same(await visits(), [b!.id, c!.id], 'read again from the row');
    clock = testNow;
    t.same(await visits(), [a!.id, b!.id], 'back at the earlier moment');
    const moved = bookingRow({ date: inDays(8), time: '09:00' });
    await app.db.updateTable('bookings').set({ date: moved.date, time: moved.time, starts_at: moved.starts_at, ends_at: moved.ends_at }).where('id', '=', b!.id).execute();
    t.same(await visits(), [a!.id, c!.id], 'the next visit moved after the one in five days');
    await app.db.updateTable('bookings').set({ status: 'cancelled' }).where('id', '=', c!.id).execute();
    t.same(await visits(), [a!.id, b!.id], 'a cancelled visit is no visit');
    await app.db.deleteFrom('bookings').where('id', '=', a!.id).execute();
    t.same(await visits(), [null, b!.id], 'a deleted one neither');
  });

  t.test('the summary follows changes: completion, cancellation, a corrected e-mail, a deletion', async (t) => {
    await clear();
    const [a, b] = await insert([
      { name: 'Mere Kahu', email: 'mere@example.com', date: inDays(-3), status: 'confirmed', total_cents: 24900, list_price_cents: 24900 },
      { name: 'Mere Kahu', email: 'mere@example.com', date: inDays(-1), status: 'confirmed', total_cents: 6900, list_price_cents: 6900 },
    ]);
    await app.db.updateTable('bookings').set({ status: 'completed' }).where('id', 'in', [a!.id, b!.id]).execute();
    t.match(await list(), [{ bookings: 2, completedJobs: 2, totalSpentCents: 31800 }]);
    await app.db.updateTable('bookings').set({ status: 'cancelled' }).where('id', '=', b!.id).execute();
    t.match(await list(), [{ bookings: 2, completedJobs: 1, totalSpentCents: 24900 }]);
    await app.db.updateTable('bookings').set({ email: 'mere.kahu@example.com', name: 'Mere K' }).where('id', '=', b!.id).execute();
    const split = await list();
    t.same(split.map((c) => [c.email, c.bookings]).sort(), [['mere.kahu@example.com', 1], ['mere@example.com', 1]], 'a corrected e-mail moves the booking to its customer');
    await app.db.deleteFrom('bookings').where('id', '=', a!.id).execute();
    t.same((await list()).map((c) => c.email), ['mere.kahu@example.com'], 'a customer without bookings is gone');
    const [row] = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM customers`.execute(app.db)).rows;
    t.equal(row!.n, 1);
  });

  t.test('search by name, e-mail, phone (as typed, by digits or either form of an NZ number) and booking reference', async (t) => {
    await clear();
    const [aroha] = await insert([
      { name: 'Aroha Smith', email: 'aroha@example.com', phone: '021 111 2222' },
      { name: 'Ben 100% Jones', email: 'ben@example.org', phone: '+64 27 987 6543' },
      { name: 'Walk-in Wiremu', email: '', phone: '022 333 4444' },
    ]);
    const names = async (q: string) => (await list(`q=${encodeURIComponent(q)}`)).map((c) => c.name);
    t.same(await names('AROHA'), ['Aroha Smith'], 'name, any case');
    t.same(await names('smi'), ['Aroha Smith'], 'part of the name');
    t.same(await names('example.org'), ['Ben 100% Jones'], 'e-mail');
    t.same(await names('  BEN@EXAMPLE.ORG '), ['Ben 100% Jones'], 'the whole e-mail, spaces and case ignored');
    t.same(await names('100%'), ['Ben 100% Jones'], 'a % typed is a %, not a wildcard');
    t.same(await names('022 333'), ['Walk-in Wiremu'], 'phone as typed');
    t.same(await names('0223334444'), ['Walk-in Wiremu'], 'phone without its spaces');
    t.same(await names('987-6543'), ['Ben 100% Jones'], 'phone with other punctuation');
    t.same(await names('027 987 6543'), ['Ben 100% Jones'], 'an international number by its national form');
    t.same(await names('0279876543'), ['Ben 100% Jones'], 'and by its digits');
    t.same(await names('+64 22 333 4444'), ['Walk-in Wiremu'], 'a national number by its international form');
    t.same(await names('0064 22 333 4444'), ['Walk-in Wiremu'], 'with 00 for the +');
    t.same(await names('+64 22 333 4445'), [], 'one digit off: nobody');
    t.same(await names(aroha!.reference), ['Aroha Smith'], 'a booking reference');
    t.same(await names(aroha!.reference.toLowerCase()), ['Aroha Smith'], 'the reference in lower case');
    t.same(await names('nobody'), []);
    t.same((await names('')).length, 3, 'an empty search lists everyone');
  });

  t.test("a customer's page: their bookings by appointment, latest first, and their messages", async (t) => {
    await clear();
    const [older, newer] = await insert([
      { name: 'Aroha Smith', email: 'aroha@example.com', date: inDays(-10) },
      { name: 'Aroha Smith', email: 'AROHA@example.com', date: inDays(5) },
      { name: 'Ben Jones', email: 'ben@example.com', date: inDays(6) },
    ]);
    // A minute apart: the embedded database's clock can give two statements the same instant, and
    // messages sent at one instant have no order of their own.
    await app.db.insertInto('contact_messages').values({ name: 'Aroha', email: ' Aroha@Example.com', phone: '0211112222', message: 'First question' }).execute();
    await app.db.insertInto('contact_messages').values({ name: 'Aroha', email: 'aroha@example.com', phone: '0211112222', message: 'Second question' }).execute();
    await sql`update contact_messages set created_at = created_at - interval '1 minute' where message = 'First question'`.execute(app.db);
    await app.db.insertInto('contact_messages').values({ name: 'Ben', email: 'ben@example.com', phone: '0211112222', message: 'Not hers' }).execute();
    const aroha = (await list('q=aroha'))[0]!;
    const res = await get(`/v1/customers/${aroha.id}`);
    t.equal(res.statusCode, 200);
    const body = res.json();
    t.match(body.customer, { id: aroha.id, name: 'Aroha Smith', bookings: 2 });
    t.same(body.bookings.map((b: { _id: string }) => b._id), [newer!.id, older!.id], 'latest appointment first');
    t.same(body.messages.map((m: { message: string }) => m.message), ['Second question', 'First question'], 'her messages by e-mail, newest first');

    const walkIn = await insert([{ name: 'Walk-in Wiremu', email: '', phone: '022 333 4444' }]);
    const wiremu = (await list('q=wiremu'))[0]!;
    const wiremuPage = (await get(`/v1/customers/${wiremu.id}`)).json();
    t.same(wiremuPage.bookings.map((b: { _id: string }) => b._id), [walkIn[0]!.id]);
    t.same(wiremuPage.messages, [], 'no e-mail, no messages');

    const missing = await get('/v1/customers/00000000-0000-4000-8000-000000000000');
    t.equal(missing.statusCode, 404);
    t.match(missing.json(), { message: /No such customer/, errors: [] });
    t.equal((await get('/v1/customers/not-a-uuid')).statusCode, 400);
  });

  t.test('bad queries are 400s in the error shape', async (t) => {
    const forged = Buffer.from(JSON.stringify({ lastBookedAt: '2026-13-40 99:00:00+00', id: 'x' })).toString('base64url');
    const otherList = Buffer.from(JSON.stringify({ sort: 'newest', createdAt: '2026-11-23 16:55:01.123456+13', id: '00000000-0000-4000-8000-000000000000' })).toString('base64url');
    for (const query of ['cursor=not-a-cursor', `cursor=${forged}`, `cursor=${otherList}`, 'limit=0', 'limit=101', 'colour=red', `q=${'x'.repeat(101)}`]) {
      const res = await get(`/v1/customers?${query}`);
      t.equal(res.statusCode, 400, query);
      t.match(res.json(), { message: String, errors: Array });
    }
    const cursorRes = await get('/v1/customers?cursor=not-a-cursor');
    t.match(cursorRes.json(), { errors: [{ field: 'cursor' }] });
  });

  t.test('paging visits every customer once, matching a reference model of the grouping (property)', async (t) => {
    const emails = ['aroha@example.com', 'ben@example.com', 'mere@example.com', ''];
    const variants = [(e: string) => e, (e: string) => e.toUpperCase(), (e: string) => `  ${e} `, (e: string) => e.charAt(0).toUpperCase() + e.slice(1)];
    const phones = ['021 111 2222', '0211112222', '022 333 4444', '(027) 555-6666'];
    const statuses = ['pending', 'confirmed', 'completed', 'cancelled'];
    const booking = fc.record({
      email: fc.nat({ max: emails.length - 1 }),
      variant: fc.nat({ max: variants.length - 1 }),
      phone: fc.nat({ max: phones.length - 1 }),
      status: fc.nat({ max: statuses.length - 1 }),
      day: fc.integer({ min: -30, max: 30 }),
      hour: fc.integer({ min: 7, max: 20 }),
      cents: fc.integer({ min: 1, max: 50_000 }),
      name: fc.constantFrom('Aroha', 'Ben', 'Mere', 'Tui'),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(booking, { minLength: 0, maxLength: 14 }), fc.integer({ min: 1, max: 4 }), async (specs, limit) => {
        await clear();
        const rows = await insert(
          specs.map((s) => ({
            name: s.name,
            email: variants[s.variant]!(emails[s.email]!).trim() === '' ? '' : variants[s.variant]!(emails[s.email]!),
            phone: phones[s.phone]!,
            status: statuses[s.status]!,
            date: inDays(s.day),
            time: `${String(s.hour).padStart(2, '0')}:00`,
            total_cents: s.cents,
            list_price_cents: s.cents,
          })),
        );
        const made = new Map(
          (await sql<{ id: string; us: number }>`SELECT id, (extract(epoch FROM created_at) * 1000000)::bigint AS us FROM bookings`.execute(app.db)).rows.map((r) => [r.id, Number(r.us)]),
        );
        // The model: the grouping, contact details, counts and visits computed here from the rows.
        const model = new Map<string, typeof rows>();
        for (const row of rows) {
          const email = row.email.trim().toLowerCase();
          const key = email ? `e:${email}` : `p:${row.phone.replace(/\D/g, '')}`;
          model.set(key, [...(model.get(key) ?? []), row]);
        }
        const seen: CustomerJson[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const res = await get(`/v1/customers?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
          if (res.statusCode !== 200) throw new Error(res.body);
          const body = res.json();
          if (body.data.length > limit) throw new Error('page too long');
          seen.push(...body.data);
          cursor = body.nextCursor;
          if (++pages > 50) throw new Error('paging does not end');
        } while (cursor);
        if (new Set(seen.map((c) => c.id)).size !== seen.length) throw new Error('a customer twice');
        if (seen.length !== model.size) throw new Error(`${seen.length} customers listed, ${model.size} in the model`);
        for (let i = 1; i < seen.length; i++) if (seen[i]!.lastBookedAt > seen[i - 1]!.lastBookedAt) throw new Error('not most recent first');
        const now = testNow.getTime();
        const expected = [...model.values()].map((group) => {
          const latest = [...group].sort((a, b) => made.get(b.id)! - made.get(a.id)! || (a.id < b.id ? 1 : -1))[0]!;
          const visits = group.filter((b) => b.status !== 'cancelled').map((b) => ({ at: b.starts_at.getTime(), id: b.id, date: b.date, time: b.time }));
          const past = visits.filter((v) => v.at < now).sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1))[0];
          const next = visits.filter((v) => v.at >= now).sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1))[0];
          const completed = group.filter((b) => b.status === 'completed');
          return JSON.stringify({
            name: latest.name,
            email: latest.email,
            phone: latest.phone,
            bookings: group.length,
            completedJobs: completed.length,
            totalSpentCents: completed.reduce((sum, b) => sum + b.total_cents, 0),
            last: past ? [past.id, past.date, past.time] : null,
            next: next ? [next.id, next.date, next.time] : null,
          });
        });
        const actual = seen.map((c) =>
          JSON.stringify({
            name: c.name,
            email: c.email,
            phone: c.phone,
            bookings: c.bookings,
            completedJobs: c.completedJobs,
            totalSpentCents: c.totalSpentCents,
            last: c.lastVisit ? [c.lastVisit.bookingId, c.lastVisit.date, c.lastVisit.time] : null,
            next: c.nextVisit ? [c.nextVisit.bookingId, c.nextVisit.date, c.nextVisit.time] : null,
          }),
        );
        if (JSON.stringify([...actual].sort()) !== JSON.stringify([...expected].sort())) {
          throw new Error(`listed ${JSON.stringify(actual)}\nmodel ${JSON.stringify(expected)}`);
        }
      }),
      { numRuns: backend === 'pglite' ? 15 : 25 },
    );
    t.pass('every run matched the model');
  });

});
