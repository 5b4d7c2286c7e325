/**
 * Issue 43, the staff side of maintenance plans: GET /v1/plans (by status, customer or booking),
 * GET /v1/plans/{id}, POST /v1/bookings/{id}/plan, pause, resume, stop, PATCH (the interval), skip a
 * visit and book a visit that waits for a time. Each answers in the documented error shape (400,
 * 404, 409, never 500), needs a staff session, and refuses a change to a plan as it was (409).
 */
import t, { type Test } from 'tap';
import { addDaysToDay } from '../src/domain/booking-dates.ts';
import { PLAN_INTERVALS } from '../src/domain/plans.ts';
import { PLAN_INTERVALS as CLIENT_INTERVALS } from '../client/staff/lib/plans-api.ts';
import { TEST_ADMIN_PASSWORD, buildTestApp, forEachBackend } from './helper.ts';
import { nextWeekday, originalClientPayload, today } from './support/payloads.ts';

const NO_PLAN = '00000000-0000-4000-8000-000000000000';

t.test('the dashboard offers the intervals the plans take', async (t) => {
  t.same(CLIENT_INTERVALS, PLAN_INTERVALS);
});

forEachBackend(t, async (t, backend) => {
  const app = await buildTestApp(t, { backend, env: { BOOKING_SLOT_CAPACITY: '1' } });
  const signIn = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { password: TEST_ADMIN_PASSWORD, name: 'Hemi' } });
  t.equal(signIn.statusCode, 204);
  const cookie = `${signIn.cookies[0]!.name}=${signIn.cookies[0]!.value}`;
  const as = { cookie };
  let n = 0;

  /** A booking of a customer of its own (a Deluxe Clean on site, 3½ hours) at 10:00 on an ISO weekday at least `atLeast` days ahead: each test has a weekday of its own, as there is one van. */
  async function book(weekday: number, atLeast = 2) {
    n += 1;
    const date = nextWeekday(weekday, atLeast);
    const email = `staffplan${n}-${backend}@example.co.nz`;
    const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date, time: '10:00', email, name: `Regular ${n}` }) });
    if (res.statusCode !== 201) throw new Error(`booking failed: ${res.body}`);
    return { id: res.json().id as string, date, email, reference: res.json().reference as string };
  }
  const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, headers: Record<string, string> = as) =>
    app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const startPlan = async (bookingId: string, intervalWeeks: number) => {
    const res = await api('POST', `/v1/bookings/${bookingId}/plan`, { intervalWeeks });
    t.equal(res.statusCode, 201, res.body);
    return res.json();
  };
  const closeDay = async (date: string) => {
    const res = await api('POST', '/v1/closures', { date, kind: 'onsite', reason: 'Van in for service' });
    t.equal(res.statusCode, 201, res.body);
    return res.json().id as string;
  };
  const reopen = (id: string) => app.inject({ method: 'DELETE', url: `/v1/closures/${id}`, headers: as });
  /** An error answer in the documented shape, with its status. */
  const refused = (t: Test, res: { statusCode: number; json(): unknown; body: string }, status: number, message?: RegExp) => {
    t.equal(res.statusCode, status, res.body);
    const body = res.json() as { message: unknown; errors: unknown };
    t.type(body.message, 'string');
    t.ok(Array.isArray(body.errors), 'with its errors');
    if (message) t.match(body.message, message);
  };

  t.test('staff only: every route answers 401 without a session', async (t) => {
    const due = nextWeekday(1, 10);
    for (const [method, url, payload] of [
      ['GET', '/v1/plans'],
      ['GET', `/v1/plans/${NO_PLAN}`],
      ['POST', `/v1/bookings/${NO_PLAN}/plan`, { intervalWeeks: 4 }],
      ['POST', `/v1/plans/${NO_PLAN}/pause`, {}],
      ['POST', `/v1/plans/${NO_PLAN}/resume`, {}],
      ['POST', `/v1/plans/${NO_PLAN}/stop`, {}],
      ['PATCH', `/v1/plans/${NO_PLAN}`, { intervalWeeks: 4 }],
      ['POST', `/v1/plans/${NO_PLAN}/visits/${due}/skip`, {}],
      ['POST', `/v1/plans/${NO_PLAN}/visits/${due}/book`, { date: due, time: '10:00' }],
    ] as const) {
      const res = await api(method, url, payload, {});
      refused(t, res, 401);
      t.equal(res.headers['cache-control'], 'no-store', `${method} ${url}`);
    }
  });

  t.test('make a plan of a booking, list it, open it', async (t) => {
    const first = await book(3, 2);
    const plan = await startPlan(first.id, 4);
    t.match(plan, { status: 'active', intervalWeeks: 4, time: '10:00', bookingId: first.id, bookingReference: first.reference, createdBy: 'Hemi', serviceType: 'onsite', needsTime: 0, stoppedAt: null });
    t.match(plan.customer, { name: `Regular ${n}`, email: first.email });
    t.equal(plan.weekday, 'wednesday');
    t.same(plan.nextVisit, { date: first.date, time: '10:00' }, 'its next visit: the booking it was made from');
    t.ok(plan.visits.length >= 3, 'the visits up to the horizon are booked at once');
    t.same(plan.visits[0], { dueDate: first.date, state: 'booked', booking: { id: first.id, reference: first.reference, date: first.date, time: '10:00', status: 'pending' }, offered: [], keptAt: null });
    t.same(plan.visits[1].dueDate, addDaysToDay(first.date, 28));
    t.equal(new Set(plan.visits.map((v: { booking: { reference: string } }) => v.booking.reference)).size, plan.visits.length, 'each visit its own booking');

    const list = await api('GET', '/v1/plans');
    t.equal(list.statusCode, 200);
    const row = list.json().data.find((p: { id: string }) => p.id === plan.id);
    const { version: _v, bookingReference: _r, stoppedAt: _s, visits: _visits, ...summary } = plan;
    t.same(row, summary, 'the list says what the plan says');
    t.equal((await api('GET', '/v1/plans?status=paused')).json().data.filter((p: { id: string }) => p.id === plan.id).length, 0, 'filtered by status');
    t.equal((await api('GET', '/v1/plans?status=active')).json().data.filter((p: { id: string }) => p.id === plan.id).length, 1);

    const ofVisit = await api('GET', `/v1/plans?bookingId=${plan.visits[1].booking.id}`);
    t.same(ofVisit.json().data.map((p: { id: string }) => p.id), [plan.id], 'the plan of a booking it booked');
    t.same((await api('GET', `/v1/plans?bookingId=${NO_PLAN}`)).json(), { data: [], needsTime: 0 }, 'a booking of no plan: none');

    const customers = await api('GET', `/v1/customers?q=${encodeURIComponent(first.email)}`);
    const customerId = customers.json().data[0].id;
    t.same((await api('GET', `/v1/plans?customerId=${customerId}`)).json().data.map((p: { id: string }) => p.id), [plan.id], "the customer's plans");
    t.same((await api('GET', `/v1/plans?customerId=${NO_PLAN}`)).json().data, [], 'no such customer: none');

    t.same((await api('GET', `/v1/plans/${plan.id}`)).json(), plan, 'opened as it was made');

    refused(t, await api('GET', '/v1/plans?status=gone'), 400);
    refused(t, await api('GET', '/v1/plans?customerId=nope'), 400);
    refused(t, await api('GET', `/v1/plans/${NO_PLAN}`), 404, /could not find that plan/);
    refused(t, await api('GET', '/v1/plans/not-an-id'), 400);
  });

  t.test('making a plan: 400, 404 and 409', async (t) => {
    const first = await book(4, 2);
    refused(t, await api('POST', `/v1/bookings/${first.id}/plan`, { intervalWeeks: 5 }), 400, /Please choose how often/);
    refused(t, await api('POST', `/v1/bookings/${first.id}/plan`, { intervalWeeks: '4' }), 400);
    refused(t, await api('POST', `/v1/bookings/${first.id}/plan`, {}), 400);
    refused(t, await api('POST', `/v1/bookings/${first.id}/plan`, { intervalWeeks: 4, extra: true }), 400);
    refused(t, await api('POST', `/v1/bookings/${NO_PLAN}/plan`, { intervalWeeks: 4 }), 404);
    const plan = await startPlan(first.id, 12);
    refused(t, await api('POST', `/v1/bookings/${first.id}/plan`, { intervalWeeks: 4 }), 409, /already part of a regular plan/);
    refused(t, await api('POST', `/v1/bookings/${plan.visits[1]?.booking.id ?? first.id}/plan`, { intervalWeeks: 4 }), 409, /already part/);
    const cancelled = await book(4, 40);
    const row = await app.db.selectFrom('bookings').select('version').where('id', '=', cancelled.id).executeTakeFirstOrThrow();
    t.equal((await api('POST', `/v1/bookings/${cancelled.id}/status`, { status: 'cancelled', version: row.version })).statusCode, 200);
    refused(t, await api('POST', `/v1/bookings/${cancelled.id}/plan`, { intervalWeeks: 4 }), 409, /Only an upcoming booking/);
  });

  t.test('pause, resume, change the interval and stop, each refused on a stale version', async (t) => {
    const first = await book(5, 2);
    let plan = await startPlan(first.id, 2);

    let res = await api('POST', `/v1/plans/${plan.id}/pause`, { version: plan.version });
    t.equal(res.statusCode, 200, res.body);
    t.equal(res.json().status, 'paused');
    refused(t, await api('POST', `/v1/plans/${plan.id}/resume`, { version: plan.version }), 409, /changed a moment ago/);
    plan = res.json();
    t.equal((await api('GET', '/v1/plans?status=paused')).json().data.filter((p: { id: string }) => p.id === plan.id).length, 1, 'listed as paused');

    res = await app.inject({ method: 'POST', url: `/v1/plans/${plan.id}/resume`, headers: as });
    t.equal(res.statusCode, 200, `no body: the plan as it is (${res.body})`);
    t.equal(res.json().status, 'active');
    plan = res.json();
    refused(t, await api('POST', `/v1/plans/${plan.id}/pause`, { version: 'one' }), 400);
    refused(t, await api('POST', `/v1/plans/${plan.id}/pause`, { version: plan.version, why: 'x' }), 400);
    refused(t, await api('POST', `/v1/plans/${NO_PLAN}/pause`, {}), 404);

    refused(t, await api('PATCH', `/v1/plans/${plan.id}`, { intervalWeeks: 2 }), 400, /already repeats/);
    refused(t, await api('PATCH', `/v1/plans/${plan.id}`, { intervalWeeks: 7 }), 400, /Please choose how often/);
    refused(t, await api('PATCH', `/v1/plans/${plan.id}`, { intervalWeeks: 4, version: plan.version - 1 }), 409, /changed a moment ago/);
    refused(t, await api('PATCH', `/v1/plans/${NO_PLAN}`, { intervalWeeks: 4 }), 404);
    res = await api('PATCH', `/v1/plans/${plan.id}`, { intervalWeeks: 4, version: plan.version });
    t.equal(res.statusCode, 200, res.body);
    t.equal(res.json().intervalWeeks, 4);
    const live = res.json().visits.filter((v: { state: string; booking: { status: string } | null }) => v.state === 'booked' && v.booking?.status !== 'cancelled');
    for (let i = 2; i < live.length; i++) t.equal(addDaysToDay(live[i - 1].dueDate, 28), live[i].dueDate, 'four weeks apart after the next visit');
    plan = res.json();

    refused(t, await api('POST', `/v1/plans/${plan.id}/stop`, { version: plan.version - 1 }), 409, /changed a moment ago/);
    res = await api('POST', `/v1/plans/${plan.id}/stop`, { version: plan.version });
    t.equal(res.statusCode, 200, res.body);
    t.equal(res.json().status, 'stopped');
    t.type(res.json().stoppedAt, 'string');
    t.same(res.json().nextVisit, { date: first.date, time: '10:00' }, 'the booking it was made from stays');
    const stopMail = await app.db.selectFrom('outbox_emails').select('kind').where('booking_id', '=', first.id).where('kind', '=', 'plan-stopped').execute();
    t.equal(stopMail.length, 1, 'one e-mail for the stop');
    for (const action of ['pause', 'resume', 'stop']) refused(t, await api('POST', `/v1/plans/${plan.id}/${action}`, {}), 409, /has been stopped/);
    refused(t, await api('PATCH', `/v1/plans/${plan.id}`, { intervalWeeks: 8 }), 409, /has been stopped/);
  });

  t.test('skip a visit', async (t) => {
    const first = await book(6, 2);
    const plan = await startPlan(first.id, 3);
    const second = plan.visits[1];
    refused(t, await api('POST', `/v1/plans/${plan.id}/visits/${second.dueDate}/skip`, { version: plan.version + 1 }), 409, /changed a moment ago/);
    const res = await api('POST', `/v1/plans/${plan.id}/visits/${second.dueDate}/skip`, { version: plan.version });
    t.equal(res.statusCode, 200, res.body);
    const skipped = res.json().visits.find((v: { dueDate: string }) => v.dueDate === second.dueDate);
    t.equal(skipped.state, 'skipped');
    t.equal(skipped.booking.status, 'cancelled', 'its booking cancelled');
    const mail = await app.db.selectFrom('outbox_emails').select('kind').where('booking_id', '=', second.booking.id).where('kind', '=', 'booking-cancelled').execute();
    t.equal(mail.length, 1, 'with the usual cancellation e-mail');
    refused(t, await api('POST', `/v1/plans/${plan.id}/visits/${second.dueDate}/skip`, {}), 404, /not part of this plan/);
    refused(t, await api('POST', `/v1/plans/${plan.id}/visits/${addDaysToDay(second.dueDate, 1)}/skip`, {}), 404);
    refused(t, await api('POST', `/v1/plans/${plan.id}/visits/2026-02-30/skip`, {}), 400);
    refused(t, await api('POST', `/v1/plans/${plan.id}/visits/someday/skip`, {}), 400);
    refused(t, await api('POST', `/v1/plans/${NO_PLAN}/visits/${second.dueDate}/skip`, {}), 404);
    // A visit already over: its booking completed.
    const third = plan.visits[2];
    await app.db.updateTable('bookings').set({ status: 'completed' }).where('id', '=', third.booking.id).execute();
    refused(t, await api('POST', `/v1/plans/${plan.id}/visits/${third.dueDate}/skip`, {}), 409, /can no longer be changed/);
  });

  t.test('a visit that waits for a time is booked at an offered start, or any start that fits', async (t) => {
    const first = await book(2, 20);
    const due = addDaysToDay(first.date, 14);
    const closures = [];
    for (let d = -2; d <= 2; d++) closures.push(await closeDay(addDaysToDay(due, d)));
    const plan = await startPlan(first.id, 2);
    t.equal(plan.needsTime, 1, 'counted on the plan');
    const waiting = plan.visits.find((v: { dueDate: string }) => v.dueDate === due);
    t.match(waiting, { state: 'needs-time', booking: null });
    t.equal(waiting.offered.length, 3, 'with the three nearest starts');
    const listed = (await api('GET', '/v1/plans')).json();
    t.equal(listed.data.find((p: { id: string }) => p.id === plan.id).needsTime, 1, 'and in the list');
    t.ok(listed.needsTime >= 1, 'counted over the list');
    const url = `/v1/plans/${plan.id}/visits/${due}/book`;

    refused(t, await api('POST', url, { date: due, time: '10:00' }), 409, /just been taken/);
    refused(t, await api('POST', url, { date: due, time: '25:00' }), 400);
    refused(t, await api('POST', url, { date: 'soon', time: '10:00' }), 400);
    refused(t, await api('POST', url, { date: due }), 400);
    refused(t, await api('POST', url, { date: today, time: '20:00' }), 400, /.+/); // as a customer's booking: from tomorrow
    refused(t, await api('POST', url, { ...waiting.offered[0], version: plan.version + 1 }), 409, /changed a moment ago/);
    refused(t, await api('POST', `/v1/plans/${plan.id}/visits/${addDaysToDay(due, 1)}/book`, waiting.offered[0]), 404, /not part of this plan/);
    // Staff may book any start that fits, not only those offered: the first start of the day after the closures that was not offered.
    const other = { date: addDaysToDay(due, 3), time: '14:00' };
    t.notOk(waiting.offered.some((s: { date: string; time: string }) => s.date === other.date && s.time === other.time), 'a start not offered');
    const res = await api('POST', url, { ...other, version: plan.version });
    t.equal(res.statusCode, 200, res.body);
    const booked = res.json().visits.find((v: { dueDate: string }) => v.dueDate === due);
    t.match(booked, { state: 'booked', offered: [], booking: { date: other.date, time: other.time, status: 'pending' } });
    t.equal(res.json().needsTime, 0);
    refused(t, await api('POST', url, waiting.offered[1]), 404, /not part of this plan/); // booked once
    for (const id of closures) await reopen(id);
  });
});
