/**
 * Issue 20, concurrency: 60 simultaneous bookings of overlapping jobs of mixed durations on one
 * date with two vans, on one instance (both backends) and spread over two instances on one
 * PostgreSQL database. Whatever the interleaving: no two place-holding jobs of one van overlap
 * (checked in SQL), never a 5xx, every refusal a 409 with a reason, and every refusal right (only
 * bookings are made, so a job refused as full is still refused at the end). A closure and a van's
 * deactivation racing with bookings take the same locks: a booking either sees them or is listed
 * by them. And the database itself refuses an overlapping row written by hand, by INSERT or by
 * UPDATE (SQLSTATE 23P01).
 */
import { sql, type Kysely } from 'kysely';
import t, { type Test } from 'tap';
import type { App } from '../src/app.ts';
import type { Database } from '../src/db/database.ts';
import { durationFor } from '../src/domain/catalogue.ts';
import { MESSAGES, SLOT_MESSAGES } from '../src/domain/messages.ts';
import { ResourceHoldsJobsError, changeResource } from '../src/services/resources.service.ts';
import { buildTestApp, createServerDatabase, forEachBackend, login } from './helper.ts';
import { bookingRow, inDays, originalClientPayload, testNow } from './support/payloads.ts';

const serverUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;

/** On-site jobs from one to eight hours, each starting early enough to end by 21:00. */
const JOBS = [
  { service: 'Quick Clean', coatingType: '', vehicleType: 'sm', selectedVehicleType: 'sm' },
  { service: 'Express Clean', coatingType: '', vehicleType: 'mid', selectedVehicleType: 'mid' },
  { service: 'Deluxe interior only', coatingType: '', vehicleType: 'suv', selectedVehicleType: 'suv' },
  { service: 'Deluxe Clean', coatingType: '', vehicleType: 'sm', selectedVehicleType: 'sm' },
  { service: 'Ultimate Clean', coatingType: '', vehicleType: 'mid', selectedVehicleType: 'mid' },
  { service: 'Ceramic Coating', coatingType: 'coat1', vehicleType: 'sm', selectedVehicleType: 'Hatchback' },
  { service: 'Ceramic Coating', coatingType: 'coat2', vehicleType: 'suv', selectedVehicleType: 'Suv' },
  { service: 'Window Tinting', coatingType: '', vehicleType: 'mid', selectedVehicleType: 'mid' },
];
const STARTS = ['07:00', '08:00', '09:00', '10:00', '11:00', '12:00', '13:00'];

/** What a refused booking may be told: a reason the job does not fit, or that the time was just taken. */
const REFUSALS: readonly string[] = [MESSAGES.slotFull, SLOT_MESSAGES.taken, MESSAGES.slotClosed, SLOT_MESSAGES.outsideHours, SLOT_MESSAGES.endsAfterClosing];

function racers(date: string, tag: string) {
  return Array.from({ length: 60 }, (_, i) => {
    const job = JOBS[(i * 5) % JOBS.length]!;
    return originalClientPayload({ ...job, date, time: STARTS[(i * 3) % STARTS.length]!, serviceType: 'onsite', email: `racer.${tag}.${i}@example.co.nz`, name: `Racer ${i}` });
  });
}

/** Pairs of place-holding jobs on one resource whose held intervals overlap: must be none. */
async function overlappingPairs(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from bookings a join bookings b
      on a.resource_id = b.resource_id and a.id < b.id and a.held && b.held
    where a.status in ('pending', 'confirmed', 'completed') and b.status in ('pending', 'confirmed', 'completed')`.execute(db);
  return rows[0]!.n;
}

/** Sends the 60 at once, through `apps` in turn, and checks every promise. */
async function race(t: Test, apps: App[], date: string, tag: string) {
  const payloads = racers(date, tag);
  const answers = await Promise.all(payloads.map((payload, i) => apps[i % apps.length]!.inject({ method: 'POST', url: '/v1/create-booking', payload })));
  const statuses = answers.map((a) => a.statusCode);
  t.same([...new Set(statuses)].filter((s) => s !== 201 && s !== 409), [], 'every answer a 201 or a 409: never a 5xx');
  const refused = answers.map((a, i) => ({ a, i })).filter(({ a }) => a.statusCode === 409);
  const accepted = answers.filter((a) => a.statusCode === 201);
  t.ok(accepted.length >= 2, `${accepted.length} booked`);
  t.ok(refused.length > 0, `${refused.length} refused`);
  for (const { a } of refused) {
    const body = a.json();
    if (!REFUSALS.includes(body.message) || body.errors?.[0]?.field !== 'time') t.fail(`a refusal without a reason: ${a.body}`);
  }
  t.pass('every refusal names its reason');
  const db = apps[0]!.db;
  t.equal(await overlappingPairs(db), 0, 'no two jobs of one van overlap (SQL)');
  const stored = await db.selectFrom('bookings').select(['id', 'resource_id', 'starts_at', 'ends_at', 'service', 'vehicle_type', 'coating_type']).where('date', '=', date).execute();
  t.equal(stored.length, accepted.length, 'one row per 201');
  t.ok(stored.every((b) => b.resource_id !== null), 'each holds a van');
  t.ok(
    stored.every((b) => b.ends_at.getTime() - b.starts_at.getTime() === durationFor(b.service, b.vehicle_type, b.coating_type)! * 60_000),
    'each for its whole duration',
  );
  // Bookings were only added, so a time full when refused is still full now.
  const wrong: string[] = [];
  for (const { i } of refused) {
    const p = payloads[i]!;
    const query = new URLSearchParams({ date, service: p.service, vehicleType: p.vehicleType, coatingType: p.coatingType, serviceType: 'onsite' });
    const slots: { time: string; available: boolean; reason: string | null }[] = (await apps[0]!.inject(`/v1/availability?${query}`)).json().slots;
    const slot = slots.find((s) => s.time === p.time)!;
    if (slot.available || slot.reason !== 'full') wrong.push(`${p.service} ${p.vehicleType} ${p.coatingType} at ${p.time}: ${JSON.stringify(slot)}`);
  }
  t.same(wrong, [], 'every refused job is indeed full at the end');
}

forEachBackend(t, async (t, backend) => {
  t.test('60 simultaneous bookings on one instance', async (t) => {
    const app = await buildTestApp(t, { backend });
    await race(t, [app], inDays(4), `one-${backend}`);
  });

  t.test('a closure racing with bookings: every booking in the closed hours was taken before it, and it lists each', async (t) => {
    const app = await buildTestApp(t, { backend });
    const cookie = await login(app);
    const date = inDays(8);
    const payloads = Array.from({ length: 30 }, (_, i) =>
      originalClientPayload({ ...JOBS[i % 2]!, date, time: `${String(7 + (i % 14)).padStart(2, '0')}:00`, serviceType: 'onsite', email: `closure.race.${backend}.${i}@example.co.nz` }),
    );
    // The closure is sent once a third of the bookings are answered, with the rest still in flight.
    let answered = 0;
    let closing: Promise<Awaited<ReturnType<typeof app.inject>>> | undefined;
    const close = () => app.inject({ method: 'POST', url: '/v1/closures', headers: { cookie }, payload: { date, from: '10:00', to: '14:00', kind: 'onsite', reason: 'Team meeting' } });
    const answers = await Promise.all(
      payloads.map((payload) =>
        app.inject({ method: 'POST', url: '/v1/create-booking', payload }).then((res) => {
          if (++answered === 10) closing = close();
          return res;
        }),
      ),
    );
    const closure = await closing!;
    t.equal(closure.statusCode, 201, 'closed');
    t.same([...new Set(answers.map((a) => a.statusCode))].filter((s) => s !== 201 && s !== 409), [], 'never a 5xx');
    const { rows } = await sql<{ id: string }>`
      select b.id from bookings b, closures c
      where c.id = ${closure.json().id}::uuid and b.held && c.during and b.status in ('pending', 'confirmed', 'completed')`.execute(app.db);
    const listed = closure.json().affectedBookings.map((b: { _id: string }) => b._id).sort();
    t.same(rows.map((r) => r.id).sort(), listed, 'the bookings in the closed hours are exactly the ones it listed when it was made');
    t.equal(await overlappingPairs(app.db), 0);
  });

  t.test('deactivating a van while bookings race for it: refused listing its jobs, or no job is ever placed on it', async (t) => {
    const app = await buildTestApp(t, { backend });
    const date = inDays(9);
    const [, van2] = (await app.db.selectFrom('resources').select('id').where('kind', '=', 'onsite').orderBy('position').execute()).map((r) => r.id);
    const payloads = Array.from({ length: 20 }, (_, i) =>
      originalClientPayload({ ...JOBS[i % 3]!, date, time: `${String(7 + (i % 12)).padStart(2, '0')}:00`, serviceType: 'onsite', email: `deactivate.race.${backend}.${i}@example.co.nz` }),
    );
    // The deactivation is sent once a few bookings are answered, with the rest still in flight.
    let answered = 0;
    let deactivating: Promise<unknown> | undefined;
    const deactivate = () => changeResource(app.db, van2!, { active: false }, testNow).then(() => 'deactivated' as const, (error: unknown) => error);
    const statuses = await Promise.all(
      payloads.map((payload) =>
        app.inject({ method: 'POST', url: '/v1/create-booking', payload }).then((res) => {
          if (++answered === 3) deactivating = deactivate();
          return res.statusCode;
        }),
      ),
    );
    const outcome = await deactivating!;
    t.same([...new Set(statuses)].filter((s) => s !== 201 && s !== 409), [], 'never a 5xx');
    const onVan2 = await app.db.selectFrom('bookings').select('id').where('resource_id', '=', van2!).where('status', '=', 'pending').execute();
    if (outcome === 'deactivated') {
      t.same(onVan2, [], 'deactivated: nothing was ever placed on it');
    } else {
      t.ok(outcome instanceof ResourceHoldsJobsError, `refused as holding jobs: ${outcome}`);
      const listed = (outcome as ResourceHoldsJobsError).bookings.map((b) => b.id);
      t.ok(listed.length > 0 && listed.every((id) => onVan2.some((b) => b.id === id)), 'refused: it lists jobs that are on it');
    }
    t.equal(await overlappingPairs(app.db), 0);
  });

  t.test('a hand-written overlapping INSERT or UPDATE fails on the constraint (23P01)', async (t) => {
    const app = await buildTestApp(t, { backend });
    const date = inDays(6);
    const [van1, van2] = (await app.db.selectFrom('resources').select('id').where('kind', '=', 'onsite').orderBy('position').execute()).map((r) => r.id);
    const code = (p: Promise<unknown>) => p.then(() => 'no error', (e: { code?: string }) => e.code);
    const [morning] = await app.db.insertInto('bookings').values(bookingRow({ date, time: '09:00', service: 'Deluxe Clean', resource_id: van1, buffer_minutes: 30 })).returning('id').execute();
    t.ok(morning, 'Van 1 held 09:00-12:30');

    t.equal(await code(app.db.insertInto('bookings').values(bookingRow({ date, time: '12:00', resource_id: van1 })).execute()), '23P01', 'INSERT inside the buffer');
    t.equal(
      await code(sql`insert into bookings (${sql.raw(Object.keys(bookingRow()).map((c) => `"${c}"`).join(', '))}) select ${sql.join(Object.values(bookingRow({ date, time: '10:00', resource_id: van1 })))}`.execute(app.db)),
      '23P01',
      'INSERT in plain SQL',
    );
    const [afternoon] = await app.db.insertInto('bookings').values(bookingRow({ date, time: '13:00', resource_id: van1, buffer_minutes: 30 })).returning('id').execute();
    t.ok(afternoon, 'the next job on Van 1 from 13:00, after the buffer');
    const [other] = await app.db.insertInto('bookings').values(bookingRow({ date, time: '10:00', resource_id: van2, buffer_minutes: 30 })).returning('id').execute();
    const [cancelled] = await app.db.insertInto('bookings').values(bookingRow({ date, time: '10:00', resource_id: van1, status: 'cancelled' })).returning('id').execute();
    t.ok(other && cancelled, 'a job on Van 2 and a cancelled one on Van 1 at 10:00 (a cancelled job holds nothing)');

    t.equal(
      await code(sql`update bookings set "time" = '12:00', starts_at = starts_at - interval '1 hour', ends_at = ends_at - interval '1 hour' where id = ${afternoon!.id}::uuid`.execute(app.db)),
      '23P01',
      'UPDATE moving a job earlier into the one before',
    );
    t.equal(await code(sql`update bookings set resource_id = ${van1}::uuid where id = ${other!.id}::uuid`.execute(app.db)), '23P01', 'UPDATE moving a job to the busy van');
    t.equal(await code(sql`update bookings set status = 'pending' where id = ${cancelled!.id}::uuid`.execute(app.db)), '23P01', 'UPDATE reopening a cancelled job over another');
    t.equal(await code(sql`update bookings set buffer_minutes = 90 where id = ${morning!.id}::uuid`.execute(app.db)), '23P01', 'UPDATE lengthening the buffer into the next job (12:00 + 90 minutes)');
    t.equal(await code(sql`update bookings set buffer_minutes = 0 where id = ${morning!.id}::uuid`.execute(app.db)), 'no error', 'a change that overlaps nothing is written');
    t.equal(await overlappingPairs(app.db), 0);
  });
});

t.test('60 simultaneous bookings spread over two instances on one PostgreSQL database', { skip: serverUrl ? false : 'needs a PostgreSQL server: set TEST_DATABASE_URL' }, async (t) => {
  const databaseUrl = await createServerDatabase(t);
  const env = { DATABASE_URL: databaseUrl };
  // Started together on a fresh database: both migrate it and seed the vans at once.
  const apps = await Promise.all([buildTestApp(t, { backend: 'postgres', env }), buildTestApp(t, { backend: 'postgres', env })]);
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from resources where kind = 'onsite'`.execute(apps[0]!.db);
  t.equal(rows[0]!.n, 2, 'two vans, seeded once');
  await race(t, apps, inDays(5), 'two');
});
