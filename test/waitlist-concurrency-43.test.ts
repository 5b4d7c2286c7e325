/**
 * Issue 43, the waitlist under concurrency: sweeps racing each other (in one instance, and on the
 * PostgreSQL server in two instances on one database, as behind a load balancer) offer a freed
 * place once, to the first entry in order of joining, and never offer one entry two places; a
 * customer booking the place while the sweeps run gets it or is refused, never both.
 */
import t from 'tap';
import { sql } from 'kysely';
import { buildTestApp, createServerDatabase, forEachBackend, login } from './helper.ts';
import { nextWeekday, originalClientPayload } from './support/payloads.ts';

forEachBackend(t, async (t, backend) => {
  const env = { BOOKING_SLOT_CAPACITY: '1', WAITLIST_MAX_PER_EMAIL: '0', DB_CONNECT_TIMEOUT_MS: '30000' };
  const shared: Record<string, string> = backend === 'postgres' ? { DATABASE_URL: await createServerDatabase(t, { migrated: true }) } : {};
  const first = await buildTestApp(t, { backend, env: { ...env, ...shared } });
  // On the server, a second instance on the same database; the embedded database is one process's.
  const apps = backend === 'postgres' ? [first, await buildTestApp(t, { backend, env: { ...env, ...shared } })] : [first];
  const staff = await login(first);

  for (const [round, weekday] of [[1, 2], [2, 3], [3, 4]] as const) {
    t.test(`round ${round}: racing sweeps offer one place, to the first entry that fits`, async (t) => {
      const date = nextWeekday(weekday, 14);
      for (const [from, to] of [['07:00', '10:00'], ['14:00', '24:00']]) {
        const res = await first.inject({ method: 'POST', url: '/v1/closures', headers: { cookie: staff }, payload: { date, from, to, kind: 'onsite', reason: 'Narrow day' } });
        t.equal(res.statusCode, 201, 'closed');
      }
      const holder = await first.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date, time: '10:00', email: `holder${round}-${backend}@example.com` }) });
      t.equal(holder.statusCode, 201, 'the holder booked');
      for (let i = 0; i < 4; i += 1) {
        const { time: _time, ...body } = originalClientPayload({ date, email: `waiting${round}-${i}-${backend}@example.com` });
        const joined = await apps[i % apps.length]!.inject({ method: 'POST', url: '/v1/waitlist', payload: body });
        t.equal(joined.statusCode, 201, `entry ${i} joined`);
      }
      // Cancelled without the route's own offer, so that only the racing sweeps offer it.
      await sql`UPDATE bookings SET status = 'cancelled', version = version + 1 WHERE id = ${holder.json().id}`.execute(first.db);
      // Six sweeps at once, and a customer trying to book the same start meanwhile (round 3).
      const sweeps = Array.from({ length: 6 }, (_, i) => apps[i % apps.length]!.offerFreedPlaces([date]));
      const walkIn =
        round === 3
          ? apps.at(-1)!.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date, time: '10:00', email: `walkin-${backend}@example.com` }) })
          : undefined;
      const offers = (await Promise.all(sweeps)).flat();
      const walked = walkIn ? (await walkIn).statusCode : undefined;

      const entries = await first.db.selectFrom('waitlist_entries').select(['email', 'status', 'booking_id']).where('date', '=', date).orderBy('created_at').execute();
      const held = await first.db
        .selectFrom('bookings')
        .select(['id', 'status', 'email'])
        .where('date', '=', date)
        .where('status', 'in', ['offered', 'pending', 'confirmed'])
        .execute();
      t.equal(held.length, 1, 'one place, held once');
      if (walked === 201) {
        t.equal(offers.length, 0, 'the customer who booked got it: no offer');
        t.ok(entries.every((e) => e.status === 'waiting'), 'every entry still waits');
      } else {
        if (walkIn) t.equal(walked, 409, 'the customer is refused: the place is held');
        t.equal(offers.length, 1, 'one offer among all the sweeps');
        t.same(
          entries.map((e) => e.status),
          ['offered', 'waiting', 'waiting', 'waiting'],
          'to the first entry in order of joining',
        );
        t.equal(held[0]!.id, entries[0]!.booking_id);
        t.match(held[0], { status: 'offered', email: entries[0]!.email });
      }
    });
  }
});
