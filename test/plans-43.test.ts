/**
 * Issue 43, maintenance plans: a booking made a plan books its visits through the one engine up to
 * the horizon, each an ordinary booking (reference, confirmation, history naming the plan); a
 * visit that does not fit at its start goes to the nearest that does, or waits for a time with
 * the nearest free times e-mailed; skip, pause, resume, a new interval and stop do what they say,
 * with one e-mail for a stop, and the extension books each visit once however often it runs.
 */
import t from 'tap';
import { addDaysToDay } from '../src/domain/booking-dates.ts';
import { extendPlan, placeVisit, startPlan, skipVisit, pausePlan, resumePlan, stopPlan, changeInterval, chooseVisitTime } from '../src/services/plans.service.ts';
import { visitsOf } from '../src/db/plans.repository.ts';
import { buildTestApp, forEachBackend, login } from './helper.ts';
import { nextWeekday, originalClientPayload, testNow } from './support/payloads.ts';

forEachBackend(t, async (t, backend) => {
  const app = await buildTestApp(t, { backend, env: { BOOKING_SLOT_CAPACITY: '1', PLAN_DISCOUNT_PERCENT: '10' } });
  const staff = await login(app);
  let n = 0;

  /**
   * A booking of its own customer (a Deluxe Clean, on site, 3½ hours) at 10:00 on an ISO weekday
   * at least `atLeast` days ahead: each test has a weekday of its own, as there is one van.
   */
  async function book(weekday: number, atLeast = 2, overrides: Record<string, unknown> = {}) {
    n += 1;
    const date = nextWeekday(weekday, atLeast);
    const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date, time: '10:00', email: `plan${n}-${backend}@example.co.nz`, ...overrides }) });
    if (res.statusCode !== 201) throw new Error(`booking failed: ${res.body}`);
    return app.db.selectFrom('bookings').selectAll().where('id', '=', res.json().id).executeTakeFirstOrThrow();
  }
  const visitBookings = async (planId: string) => (await visitsOf(app.db, planId)).map((v) => ({ due: v.due_date, state: v.state, date: v.booking?.date, time: v.booking?.time, status: v.booking?.status, reference: v.booking?.reference }));
  const outbox = (bookingIds: string[]) => app.db.selectFrom('outbox_emails').select(['kind', 'booking_id', 'snapshot', 'status', 'next_attempt_at']).where('booking_id', 'in', bookingIds).execute();
  const closeDay = async (date: string) => {
    const res = await app.inject({ method: 'POST', url: '/v1/closures', headers: { cookie: staff }, payload: { date, kind: 'onsite', reason: 'Van in for service' } });
    t.equal(res.statusCode, 201, res.body);
    return res.json().id as string;
  };

  t.test('every four weeks: three visits within twelve weeks, each its own booking, confirmation and history naming the plan', async (t) => {
    const first = await book(3);
    const plan = await startPlan(app.db, first.id, 4, { customer: true }, app.planOptions());
    t.equal(plan.interval_weeks, 4);
    const visits = await visitBookings(plan.id);
    t.same(
      visits.map((v) => v.due),
      [first.date, addDaysToDay(first.date, 28), addDaysToDay(first.date, 56)].filter((d) => d <= addDaysToDay(visits[0]!.due, 84)).slice(0, visits.length),
    );
    t.ok(visits.length >= 3, `three visits (${visits.length})`);
    t.ok(visits.every((v) => v.state === 'booked' && v.time === '10:00' && v.date === v.due), 'each at its due date and start');
    t.equal(new Set(visits.map((v) => v.reference)).size, visits.length, 'each with its own reference');
    const rows = await app.db.selectFrom('bookings').selectAll().where('reference', 'in', visits.slice(1).map((v) => v.reference!)).execute();
    t.ok(rows.every((r) => r.source === 'plan' && r.status === 'pending' && r.discount_kind === 'plan' && r.discount_percent === 10), 'booked by the plan, with its discount');
    t.ok(rows.every((r) => r.total_cents === first.list_price_cents - Math.floor((first.list_price_cents * 10 + 50) / 100) + first.travel_fee_cents), 'priced like the first, less 10%');
    const mail = await outbox(rows.map((r) => r.id));
    for (const r of rows) {
      t.equal(mail.filter((m) => m.booking_id === r.id && m.kind === 'booking-created').length, 1, 'a confirmation each');
      t.equal(mail.filter((m) => m.booking_id === r.id && m.kind === 'staff-new-booking').length, 0, 'no staff notification for a plan visit');
      const check = mail.find((m) => m.booking_id === r.id && m.kind === 'plan-visit-check');
      t.ok(check, '"keep, move or skip" queued');
      t.equal(check!.next_attempt_at.getTime(), r.starts_at.getTime() - 3 * 86_400_000, 'three days before');
    }
    const history = await app.db.selectFrom('booking_status_changes').select('note').where('booking_id', '=', rows[0]!.id).execute();
    t.match(history.map((h) => h.note).join('\n'), new RegExp(`regular plan \\(every 4 weeks\\) made from ${first.reference}`));
    t.same(await extendPlan(app.db, plan.id, app.planOptions()), [], 'running the extension again books nothing more');
    const again = await startPlan(app.db, first.id, 4, { customer: true }, app.planOptions()).catch((e: { statusCode: number }) => e.statusCode);
    t.equal(again, 409, 'a booking makes one plan');
    const ofVisit = await startPlan(app.db, rows[0]!.id, 2, { customer: true }, app.planOptions()).catch((e: { statusCode: number }) => e.statusCode);
    t.equal(ofVisit, 409, 'a visit of a plan is not made a plan of its own');
  });

  t.test('a visit due on a closed day goes to the nearest start that fits: the day after', async (t) => {
    const first = await book(1, 9);
    const due = addDaysToDay(first.date, 14);
    const closure = await closeDay(due);
    const plan = await startPlan(app.db, first.id, 2, { customer: false, by: 'Owner' }, app.planOptions());
    const visit = (await visitBookings(plan.id)).find((v) => v.due === due)!;
    t.equal(visit.state, 'booked');
    t.equal(visit.date, addDaysToDay(due, 1), 'the day after');
    t.equal(visit.time, '10:00', 'at the plan time');
    await app.inject({ method: 'DELETE', url: `/v1/closures/${closure}`, headers: { cookie: staff } });
  });

  t.test('no start near the date: the visit needs a time, the customer gets the three nearest, and choosing one books it', async (t) => {
    const first = await book(5, 16);
    const due = addDaysToDay(first.date, 14);
    const closures = [];
    for (let d = -2; d <= 2; d++) closures.push(await closeDay(addDaysToDay(due, d)));
    const plan = await startPlan(app.db, first.id, 2, { customer: true }, app.planOptions());
    const visit = (await visitsOf(app.db, plan.id)).find((v) => v.due_date === due)!;
    t.equal(visit.state, 'needs-time');
    t.equal(visit.booking_id, null);
    t.equal(visit.offered!.length, 3, 'three times offered');
    t.ok(visit.offered!.every((s) => s.date === addDaysToDay(due, 3) || s.date === addDaysToDay(due, -3)), 'on the nearest open days');
    const mail = await app.db.selectFrom('outbox_emails').selectAll().where('kind', '=', 'plan-needs-time').where('booking_id', '=', first.id).execute();
    t.equal(mail.length, 1, 'one e-mail');
    t.same((mail[0]!.snapshot as { plan: { offered: unknown } }).plan.offered, visit.offered, 'offering the times stored');
    const booked = await chooseVisitTime(app.db, plan.id, due, visit.offered![0]!, app.planOptions());
    t.equal(booked.date, visit.offered![0]!.date);
    t.equal((await visitsOf(app.db, plan.id)).find((v) => v.due_date === due)!.state, 'booked');
    const twice = await chooseVisitTime(app.db, plan.id, due, visit.offered![1]!, app.planOptions()).catch((e: { statusCode: number }) => e.statusCode);
    t.equal(twice, 404, 'a visit is booked once');
    for (const id of closures) await app.inject({ method: 'DELETE', url: `/v1/closures/${id}`, headers: { cookie: staff } });
  });

  t.test('skip one visit, pause, resume, change the interval, stop: one e-mail for the stop', async (t) => {
    const first = await book(7, 23);
    const plan = await startPlan(app.db, first.id, 2, { customer: true }, app.planOptions());
    let visits = await visitBookings(plan.id);
    const second = visits[1]!;
    await skipVisit(app.db, plan.id, second.due, { customer: true }, app.planOptions());
    visits = await visitBookings(plan.id);
    t.equal(visits[1]!.state, 'skipped');
    t.equal(visits[1]!.status, 'cancelled', "the skipped visit's booking is cancelled");
    await extendPlan(app.db, plan.id, app.planOptions());
    t.equal((await visitBookings(plan.id)).filter((v) => v.due === second.due).length, 1, 'and never booked again');

    const paused = await pausePlan(app.db, plan.id, app.planOptions());
    t.equal(paused.status, 'paused');
    const stale = await pausePlan(app.db, plan.id, app.planOptions(), plan.version).catch((e: { statusCode: number }) => e.statusCode);
    t.equal(stale, 409, 'a change to the plan as it was is refused');
    t.equal((await resumePlan(app.db, plan.id, app.planOptions())).status, 'active');

    const changed = await changeInterval(app.db, plan.id, 4, { customer: true }, app.planOptions());
    t.equal(changed.interval_weeks, 4);
    const after = (await visitBookings(plan.id)).filter((v) => v.state === 'booked' && v.status !== 'cancelled');
    for (let i = 2; i < after.length; i++) t.equal(addDaysToDay(after[i - 1]!.due, 28), after[i]!.due, 'four weeks apart after the next visit');

    const upcoming = after.filter((v) => v.reference !== first.reference);
    const before = await app.db.selectFrom('outbox_emails').select('id').where('booking_id', 'in', [first.id]).execute();
    const stopped = await stopPlan(app.db, plan.id, { customer: true }, app.planOptions());
    t.equal(stopped.status, 'stopped');
    const rows = await app.db.selectFrom('bookings').select(['status', 'reference', 'id']).where('reference', 'in', upcoming.map((v) => v.reference!)).execute();
    t.ok(rows.every((r) => r.status === 'cancelled'), 'the future visits are cancelled');
    t.equal((await app.db.selectFrom('bookings').select('status').where('id', '=', first.id).executeTakeFirstOrThrow()).status, 'pending', 'the booking it was made from stays');
    const mail = await app.db.selectFrom('outbox_emails').selectAll().where('booking_id', 'in', [first.id, ...rows.map((r) => r.id)]).where('id', 'not in', before.map((b) => b.id)).execute();
    const stopMail = mail.filter((m) => m.kind === 'plan-stopped');
    t.equal(stopMail.length, 1, 'one e-mail');
    t.same(
      (stopMail[0]!.snapshot as { plan: { cancelled: { reference: string }[] } }).plan.cancelled.map((c) => c.reference).sort(),
      rows.map((r) => r.reference).sort(),
      'listing every visit cancelled',
    );
    t.equal(mail.filter((m) => m.kind.startsWith('booking-cancelled')).length, 0, 'not one e-mail each');
    const reminders = await app.db.selectFrom('outbox_emails').select('status').where('booking_id', 'in', rows.map((r) => r.id)).where('kind', 'in', ['booking-reminder', 'plan-visit-check']).execute();
    t.ok(reminders.every((r) => r.status !== 'queued'), 'their reminders are dropped');
    t.equal((await skipVisit(app.db, plan.id, after[0]!.due, { customer: true }, app.planOptions()).catch((e: { statusCode: number }) => e.statusCode)), 409, 'a stopped plan changes no more');
    t.equal(await app.extendPlans(), 0, 'and the extension leaves it');
  });

  t.test('two extensions at once book each visit once', async (t) => {
    const first = await book(6, 30);
    const plan = await startPlan(app.db, first.id, 12, { customer: true }, { ...app.planOptions(), plans: { ...app.config.plans, horizonWeeks: 2 } });
    t.equal((await visitsOf(app.db, plan.id)).length, 1, 'only the first within a short horizon');
    const options = { ...app.planOptions(), plans: { ...app.config.plans, horizonWeeks: 40 } };
    const due = addDaysToDay(first.date, 84);
    const outcomes = await Promise.all([placeVisit(app.db, plan.id, due, options), placeVisit(app.db, plan.id, due, options), extendPlan(app.db, plan.id, options)]);
    const visits = await visitsOf(app.db, plan.id);
    t.equal(visits.filter((v) => v.due_date === due).length, 1);
    const bookings = await app.db.selectFrom('bookings').select('id').where('source', '=', 'plan').where('email', '=', first.email).where('status', '<>', 'cancelled').execute();
    t.equal(bookings.length, visits.filter((v) => v.state === 'booked').length - 1, `one booking per visit (${JSON.stringify(outcomes.slice(0, 2))})`);
  });

  t.test('the database refuses an interval not offered and a booked visit without its booking', async (t) => {
    const first = await book(4, 37);
    await t.rejects(app.db.insertInto('plans').values({ booking_id: first.id, interval_weeks: 5, anchor_date: first.date, start_time: '10:00', booked_through: first.date, created_by: 'x' }).execute());
    const plan = await startPlan(app.db, first.id, 3, { customer: true }, { ...app.planOptions(), plans: { ...app.config.plans, horizonWeeks: 2 } });
    await t.rejects(app.db.insertInto('plan_visits').values({ plan_id: plan.id, due_date: addDaysToDay(first.date, 21), state: 'booked', booking_id: null }).execute());
    const bad = await startPlan(app.db, first.id, 5, { customer: true }, app.planOptions()).catch((e: { statusCode: number }) => e.statusCode);
    t.equal(bad, 400, 'an interval not offered is a 400');
  });

  t.test('erasing the customer stops their plan: no visit is booked for nobody', async (t) => {
    const first = await book(2, 44);
    const plan = await startPlan(app.db, first.id, 8, { customer: true }, { ...app.planOptions(), plans: { ...app.config.plans, horizonWeeks: 2 } });
    const found = await app.inject({ method: 'GET', url: `/v1/customers?q=${encodeURIComponent(first.email)}`, headers: { cookie: staff } });
    const customer = found.json().data[0] as { id: string };
    const res = await app.inject({ method: 'POST', url: `/v1/customers/${customer.id}/erasure`, headers: { cookie: staff }, payload: { confirmation: 'ERASE' } });
    t.equal(res.statusCode, 200, res.body);
    const after = await app.db.selectFrom('plans').selectAll().where('id', '=', plan.id).executeTakeFirstOrThrow();
    t.equal(after.status, 'stopped');
    t.same(await extendPlan(app.db, plan.id, app.planOptions()), [], 'nothing booked');
  });

  void testNow;
});
