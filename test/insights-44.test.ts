/**
 * The owner's Insights (issue 44): GET /v1/insights over a hand-computed April 2026 — two vans with
 * known hours and closures, completed jobs paid and unpaid, a reopened one, cancellations, a
 * no-show, a lapsed booking, an offer, bookings before and after the month — every number checked
 * against figures worked out by hand. April 2026 holds the end of daylight saving (Sunday 5 April,
 * 03:00 NZDT → 02:00 NZST): a job paid at 23:30 that Sunday belongs to the week before, a job at
 * 08:00 the Monday after (20:00 UTC on Sunday) to the week after, and to Monday's 08:00 column.
 */
import t from 'tap';
import { aucklandInstant } from '../src/domain/booking-dates.ts';
import { buildTestApp, forEachBackend, login } from './helper.ts';
import { bookingRow } from './support/payloads.ts';

const at = (day: string, time: string) => new Date(aucklandInstant(day, time));
const line = (kind: 'package' | 'add-on', code: string, cents: number, minutes: number) => ({
  vehicle: 0, kind, code, description: code, quantity: 1, unitCents: cents, totalCents: cents, minutes,
});
const QC = line('package', 'Quick Clean', 6900, 60);

interface Fixture {
  key: string;
  day: string;
  time: string;
  van?: 'A' | 'B';
  status: string;
  customer: number;
  created: [string, string];
  lines?: ReturnType<typeof line>[];
  buffer?: number;
  lapsed?: boolean;
  /** Completion: when (Auckland), amount, method (null: unpaid). */
  paid?: { at: [string, string]; amount: number; method: string | null };
}

const BOOKINGS: Fixture[] = [
  { key: 'B1', day: '2026-04-01', time: '09:00', van: 'A', status: 'completed', customer: 1, created: ['2026-04-01', '08:00'], buffer: 30, paid: { at: ['2026-04-01', '10:00'], amount: 6900, method: 'cash' } },
  { key: 'B2', day: '2026-04-04', time: '12:00', van: 'B', status: 'completed', customer: 2, created: ['2026-03-20', '12:00'], buffer: 30, paid: { at: ['2026-04-05', '23:30'], amount: 8000, method: 'card' } },
  { key: 'B3', day: '2026-04-06', time: '08:00', van: 'A', status: 'completed', customer: 1, created: ['2026-04-03', '12:00'], paid: { at: ['2026-04-06', '09:00'], amount: 6900, method: null } },
  { key: 'B4', day: '2026-04-07', time: '10:00', van: 'B', status: 'no-show', customer: 3, created: ['2026-04-07', '07:00'] },
  { key: 'B5', day: '2026-04-09', time: '14:00', van: 'A', status: 'completed', customer: 2, created: ['2026-03-01', '12:00'], lines: [QC, line('add-on', 'pet-hair', 4500, 30)], paid: { at: ['2026-04-09', '16:00'], amount: 11400, method: 'bank-transfer' } },
  { key: 'B6', day: '2026-04-15', time: '11:00', van: 'A', status: 'cancelled', customer: 4, created: ['2026-04-01', '12:00'], lines: [QC, line('add-on', 'odour-treatment', 5900, 30)] },
  { key: 'B7', day: '2026-04-16', time: '09:00', status: 'cancelled', lapsed: true, customer: 5, created: ['2026-04-15', '12:00'] },
  { key: 'B8', day: '2026-04-21', time: '09:00', van: 'B', status: 'confirmed', customer: 6, created: ['2026-04-13', '12:00'], buffer: 15 },
  { key: 'B9', day: '2026-04-22', time: '16:00', van: 'A', status: 'pending', customer: 3, created: ['2026-04-20', '12:00'], buffer: 30 },
  { key: 'B10', day: '2026-04-28', time: '08:00', van: 'B', status: 'offered', customer: 7, created: ['2026-04-27', '12:00'] },
  { key: 'B11', day: '2026-04-29', time: '21:00', status: 'pending', customer: 8, created: ['2026-04-29', '12:00'] },
  { key: 'B12', day: '2026-03-31', time: '10:00', van: 'A', status: 'completed', customer: 9, created: ['2026-03-01', '12:00'], paid: { at: ['2026-04-01', '08:00'], amount: 5000, method: 'other' } },
  { key: 'B13', day: '2026-05-01', time: '10:00', van: 'A', status: 'completed', customer: 1, created: ['2026-04-01', '12:00'], paid: { at: ['2026-05-01', '11:00'], amount: 6900, method: 'cash' } },
  // Reopened after completion: its payment row stays, but it is not completed, so not taken.
  { key: 'B14', day: '2026-04-14', time: '10:00', van: 'B', status: 'confirmed', customer: 10, created: ['2026-04-10', '12:00'], paid: { at: ['2026-04-14', '11:00'], amount: 6900, method: 'cash' } },
  { key: 'B15', day: '2026-03-10', time: '10:00', van: 'A', status: 'completed', customer: 6, created: ['2026-03-01', '12:00'] },
];

const WEEKS = ['2026-03-30', '2026-04-06', '2026-04-13', '2026-04-20', '2026-04-27'];
const money = (totalCents: number, gstCents: number, byMethod: [number, number, number, number]) => ({
  totalCents, gstCents, byMethod: { cash: byMethod[0], 'bank-transfer': byMethod[1], card: byMethod[2], other: byMethod[3] },
});
const use = (held: number[], open: number[]) => ({
  heldMinutes: held.reduce((a, b) => a + b, 0),
  openMinutes: open.reduce((a, b) => a + b, 0),
  weeks: WEEKS.map((week, i) => ({ week, heldMinutes: held[i], openMinutes: open[i] })),
});
const heat = Array.from({ length: 7 }, () => Array<number>(14).fill(0));
for (const [weekday, hour, count] of [[3, 9, 1], [6, 12, 1], [1, 8, 1], [2, 10, 2], [4, 14, 1], [2, 9, 1], [3, 16, 1]] as const) heat[weekday - 1]![hour - 7] = count;

const EXPECTED = {
  from: '2026-04-01',
  to: '2026-04-30',
  weeks: WEEKS,
  revenue: {
    // B1 cash 69.00 (GST 9.00), B2 card 80.00 (10.43: paid Sunday 5 April 23:30 NZST, the week of 30 March),
    // B12 other 50.00 (6.52: the job began in March, completed 1 April); B5 by bank transfer 114.00 (14.87).
    ...money(31300, 4082, [6900, 11400, 8000, 5000]),
    weeks: [
      { week: '2026-03-30', ...money(19900, 2595, [6900, 0, 8000, 5000]) },
      { week: '2026-04-06', ...money(11400, 1487, [0, 11400, 0, 0]) },
      { week: '2026-04-13', ...money(0, 0, [0, 0, 0, 0]) },
      { week: '2026-04-20', ...money(0, 0, [0, 0, 0, 0]) },
      { week: '2026-04-27', ...money(0, 0, [0, 0, 0, 0]) },
    ],
  },
  work: {
    // Completed in April and still completed: B1, B2, B3 (unpaid), B5, B12.
    byPackage: [{ code: 'Quick Clean', name: 'Quick Clean', count: 5, jobs: 5, amountCents: 34500 }],
    byAddOn: [{ code: 'pet-hair', name: 'Pet hair removal', count: 1, jobs: 1, amountCents: 4500 }],
  },
  utilisation: {
    heldMinutes: 270 + 255,
    openMinutes: 12180 + 12000,
    resources: [
      // Van A: B1 90 (60 + 30 buffer); B3 60, B5 60 of its 90 (the van's kind closed 15:00–17:00 on 9 April);
      // B9 60 of 90 (the day closes at 17:00). Open: Mon–Fri 9 h, Sat 4 h; 9 April less 2 h; 24 April closed.
      { name: 'Van A', kind: 'onsite', ...use([90, 120, 0, 60, 0], [1860, 2820, 2940, 2400, 2160]) },
      // Van B: B2 60 of 90 (Saturday closes at 13:00); B4 (no-show) 60; B14 60; B8 75 (15 buffer); B10 an offer.
      // Its own closure 12:00–17:00 on 9 April overlaps the kind's: 5 h off, not 7.
      { name: 'Van B', kind: 'onsite', ...use([60, 60, 60, 75, 0], [1860, 2640, 2940, 2400, 2160]) },
    ],
  },
  customers: {
    new: 5,
    returning: 1,
    weeks: [
      { week: '2026-03-30', new: 2, returning: 0 },
      { week: '2026-04-06', new: 1, returning: 2 },
      { week: '2026-04-13', new: 1, returning: 0 },
      { week: '2026-04-20', new: 0, returning: 2 },
      { week: '2026-04-27', new: 1, returning: 0 },
    ],
  },
  losses: { bookings: 11, cancelled: { count: 1, amountCents: 12800 }, noShow: { count: 1, amountCents: 6900 }, lapsed: { count: 1, amountCents: 6900 } },
  leadTime: {
    // 0, 0, 0, 2, 3, 4, 8, 15, 39 days.
    count: 9,
    medianDays: 3,
    buckets: [
      { label: '0–1', min: 0, max: 1, count: 3 },
      { label: '2–3', min: 2, max: 3, count: 2 },
      { label: '4–7', min: 4, max: 7, count: 1 },
      { label: '8–14', min: 8, max: 14, count: 1 },
      { label: '15–30', min: 15, max: 30, count: 1 },
      { label: '31+', min: 31, max: null, count: 1 },
    ],
  },
  // The 30 days before, 2 to 31 March: B15 (10 March, booked 1 March, completed but never paid)
  // and B12 (31 March, booked 1 March, paid on 1 April, so April's).
  previous: {
    from: '2026-03-02',
    to: '2026-03-31',
    revenue: { totalCents: 0, gstCents: 0 },
    work: { amountCents: 0 },
    // Both vans open four whole weeks (5 × 9 h + 4 h) and Monday and Tuesday 30-31 March; Van A holds B15 and B12.
    utilisation: { heldMinutes: 120, openMinutes: 2 * (4 * 2940 + 1080) },
    customers: { new: 2, returning: 0 },
    losses: { bookings: 2, cancelled: { count: 0, amountCents: 0 }, noShow: { count: 0, amountCents: 0 }, lapsed: { count: 0, amountCents: 0 } },
    // 9 and 30 days ahead.
    leadTime: { count: 2, medianDays: 19.5 },
  },
  heatMap: { firstHour: 7, counts: heat, outside: 1 },
};

forEachBackend(t, async (t, backend) => {
  const app = await buildTestApp(t, { backend, env: { LOG_LEVEL: process.env.INSIGHTS_LOG ?? 'silent' } });
  const db = app.db;
  await db.updateTable('resources').set({ active: false }).execute();
  const vans = { A: '', B: '' };
  for (const [i, name] of (['Van A', 'Van B'] as const).entries()) {
    vans[name.slice(-1) as 'A' | 'B'] = (await db.insertInto('resources').values({ name, kind: 'onsite', position: 100 + i }).returning('id').executeTakeFirstOrThrow()).id;
  }
  await db.deleteFrom('working_hours').execute();
  await db
    .insertInto('working_hours')
    .values([...[1, 2, 3, 4, 5].map((weekday) => ({ kind: 'onsite', weekday, opens: '08:00', closes: '17:00' })), { kind: 'onsite', weekday: 6, opens: '09:00', closes: '13:00' }])
    .execute();
  const closure = (date: string, from: string | null, to: string | null, scope: { kind?: string; resource_id?: string }) => ({
    date, from_time: from, to_time: to, kind: scope.kind ?? null, resource_id: scope.resource_id ?? null,
    starts_at: at(date, from ?? '00:00'), ends_at: to === null ? at('2026-04-25', '00:00') : at(date, to), reason: 'Fixture', created_by: 'owner',
  });
  await db
    .insertInto('closures')
    .values([closure('2026-04-09', '12:00', '17:00', { resource_id: vans.B }), closure('2026-04-09', '15:00', '17:00', { kind: 'onsite' }), closure('2026-04-24', null, null, {})])
    .execute();
  let invoice = 0;
  for (const b of BOOKINGS) {
    const lines = b.lines ?? [QC];
    const cents = lines.reduce((sum, l) => sum + l.totalCents, 0);
    const row = bookingRow({
      date: b.day, time: b.time, status: b.status, resource_id: b.van ? vans[b.van] : null, buffer_minutes: b.buffer ?? 0,
      email: `c${b.customer}@example.com`, phone: `021 555 00${String(b.customer).padStart(2, '0')}`, name: b.key,
      lines: JSON.stringify(lines), vehicles: undefined, list_price_cents: cents, total_cents: cents,
      created_at: at(...b.created), ...(b.status === 'offered' ? { offer_expires_at: at('2026-04-27', '13:00') } : {}),
    });
    const { id } = await db.insertInto('bookings').values(row as never).returning('id').executeTakeFirstOrThrow();
    if (b.lapsed) await db.updateTable('bookings').set({ lapsed_at: at(b.day, '08:00') } as never).where('id', '=', id).execute();
    if (b.paid) {
      await db
        .insertInto('booking_payments')
        .values({
          booking_id: id, quoted_cents: cents, amount_cents: b.paid.amount, amount_reason: b.paid.amount === cents ? null : 'Fixture',
          payment_method: b.paid.method, paid_at: b.paid.method ? at(...b.paid.at) : null,
          gst_number: '123-456-789', gst_cents: Math.round((b.paid.amount * 3) / 23), invoice_number: ++invoice,
          completed_at: at(...b.paid.at), completed_by: 'owner',
        })
        .execute();
    }
  }

  t.equal((await app.inject({ method: 'GET', url: '/v1/insights?from=2026-04-01&to=2026-04-30' })).statusCode, 401, 'no session: 401');
  const cookie = await login(app);
  const res = await app.inject({ method: 'GET', url: '/v1/insights?from=2026-04-01&to=2026-04-30', headers: { cookie } });
  t.equal(res.statusCode, 200, res.body);
  const body = res.json();
  for (const resource of body.utilisation.resources) t.match(resource.id, /^[0-9a-f-]{36}$/);
  body.utilisation.resources = body.utilisation.resources.map(({ id: _id, ...rest }: { id: string }) => rest);
  for (const key of Object.keys(EXPECTED) as (keyof typeof EXPECTED)[]) t.same(body[key], EXPECTED[key], key);
  t.same(Object.keys(body).sort(), Object.keys(EXPECTED).sort(), 'nothing else');

  const takings = (await app.inject({ method: 'GET', url: '/v1/takings?from=2026-04-01&to=2026-04-30', headers: { cookie } })).json();
  t.same([takings.taken.totalCents, takings.taken.gstCents, takings.taken.byMethod], [body.revenue.totalCents, body.revenue.gstCents, body.revenue.byMethod], 'revenue agrees with the takings');

  const bad = await app.inject({ method: 'GET', url: '/v1/insights?from=2026-04-30&to=2026-04-01', headers: { cookie } });
  t.equal(bad.statusCode, 400, 'from after to: 400');
  const long = await app.inject({ method: 'GET', url: '/v1/insights?from=2024-01-01&to=2026-04-01', headers: { cookie } });
  t.equal(long.statusCode, 400, 'longer than TAKINGS_MAX_DAYS: 400');
});

/**
 * What the Insights read instead of probing (migrations/042), kept by the database whoever writes:
 * a payment's copy of its job's lines and whether it is still completed, and each customer's first
 * job. A week that begins before the range counts a customer new only if their first job is in the
 * range, so the weeks' new customers add up to the range's.
 */
forEachBackend(t, async (t, backend) => {
  const app = await buildTestApp(t, { backend, env: { LOG_LEVEL: 'silent' } });
  const db = app.db;
  const insert = async (overrides: Record<string, unknown>) =>
    (await db.insertInto('bookings').values(bookingRow({ email: 'first@example.com', ...overrides }) as never).returning('id').executeTakeFirstOrThrow()).id;
  const payment = () => db.selectFrom('booking_payments').select(['lines', 'booking_completed']).executeTakeFirstOrThrow();
  const firstJob = async () => (await db.selectFrom('customers').select('first_job_at').where('key', '=', 'e:first@example.com').executeTakeFirstOrThrow()).first_job_at?.toISOString() ?? null;

  // Wednesday 1 April and Monday 30 March 2026: the range's first week begins two days before it.
  const monday = await insert({ date: '2026-03-30', time: '09:00', status: 'cancelled' });
  const wednesday = await insert({ date: '2026-04-01', time: '09:00', status: 'confirmed' });
  t.equal(await firstJob(), at('2026-04-01', '09:00').toISOString(), "a cancelled booking is not the customer's first job");
  await db.updateTable('bookings').set({ status: 'completed' } as never).where('id', '=', monday).execute();
  t.equal(await firstJob(), at('2026-03-30', '09:00').toISOString(), 'completed on Monday: that is their first job now');

  await db
    .insertInto('booking_payments')
    .values({ booking_id: wednesday, quoted_cents: 6900, amount_cents: 6900, payment_method: 'cash', paid_at: at('2026-04-01', '10:00'), gst_cents: 0, completed_at: at('2026-04-01', '10:00'), completed_by: 'owner' })
    .execute();
  const own = (await db.selectFrom('bookings').select('lines').where('id', '=', wednesday).executeTakeFirstOrThrow()).lines;
  t.same(await payment(), { lines: own, booking_completed: false }, "the payment takes its job's lines; the job is not completed yet");
  await db.updateTable('bookings').set({ status: 'completed' } as never).where('id', '=', wednesday).execute();
  t.equal((await payment()).booking_completed, true, 'completed: copied to its payment');
  // Minutes as before (the held time is the lines' own: bookings_time_is_lines).
  const pet = [{ vehicle: 0, kind: 'package', code: 'Quick Clean', description: 'Quick Clean', quantity: 1, unitCents: 6900, totalCents: 6900, minutes: 30 }, { vehicle: 0, kind: 'add-on', code: 'pet-hair', description: 'Pet hair removal', quantity: 1, unitCents: 4500, totalCents: 4500, minutes: 30 }];
  await db.updateTable('bookings').set({ lines: JSON.stringify(pet), list_price_cents: 11400, total_cents: 11400 } as never).where('id', '=', wednesday).execute();
  t.same((await payment()).lines, pet, "a change of the job's lines: copied");
  await db.updateTable('booking_payments').set({ lines: JSON.stringify([]), booking_completed: false } as never).execute();
  t.same(await payment(), { lines: pet, booking_completed: true }, 'a payment written otherwise keeps its job\'s own');

  const cookie = await login(app);
  const body = (await app.inject({ method: 'GET', url: '/v1/insights?from=2026-04-01&to=2026-04-07', headers: { cookie } })).json();
  t.same(body.customers, { new: 0, returning: 1, weeks: [{ week: '2026-03-30', new: 0, returning: 1 }, { week: '2026-04-06', new: 0, returning: 0 }] }, 'first job on the Monday before the range: returning on the Wednesday');
  t.same(body.work.byAddOn.map((w: { code: string; count: number }) => [w.code, w.count]), [['pet-hair', 1]], 'the work is read from the payment');
  t.same(body.revenue.totalCents, 6900);

  await db.updateTable('bookings').set({ status: 'confirmed' } as never).where('id', '=', wednesday).execute();
  t.equal((await payment()).booking_completed, false, 'reopened: copied too');
  const reopened = (await app.inject({ method: 'GET', url: '/v1/insights?from=2026-04-01&to=2026-04-07', headers: { cookie } })).json();
  t.same([reopened.revenue.totalCents, reopened.work.byAddOn], [0, []], 'a reopened job is neither taken nor done');
  t.same(reopened.previous.customers, { new: 1, returning: 0 }, 'the Monday, in the week before: new then');
});
