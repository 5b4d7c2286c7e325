/**
 * Issue 43, the customer's side of maintenance plans: from a booking's manage page they make it a
 * plan, keep or skip a visit (a skip confirmed first); the plan's page (any of its bookings' links,
 * past ones too) lists the visits and skips one, chooses a time for one that needs it (a time taken
 * meanwhile: the nearest ones offered again), pauses, resumes, changes how often and stops it
 * (confirmed first). Every change is a POST carrying the plan's version: a stale one is a 409 with
 * the reason; a GET changes nothing. One van (BOOKING_SLOT_CAPACITY=1): each test books on a
 * weekday of its own, so that one test's visits never take another's van.
 */
import t from 'tap';
import { addDaysToDay, slotStartsAt } from '../src/domain/booking-dates.ts';
import { MANAGE_MESSAGES } from '../src/domain/manage-rules.ts';
import { PLAN_MESSAGES } from '../src/domain/plans.ts';
import { manageLinkFor } from '../src/db/manage-link.repository.ts';
import { visitsOf } from '../src/db/plans.repository.ts';
import { PlanChangedError } from '../src/services/plans.service.ts';
import { buildTestApp, forEachBackend, login } from './helper.ts';
import { nextWeekday, originalClientPayload, testNow } from './support/payloads.ts';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const hydrationState = (html: string) => JSON.parse(/<script type="application\/json" id="__DATA__">([\s\S]*?)<\/script>/.exec(html)![1]!).state;
const STALE = new PlanChangedError().message;
/** The HTML escaping of a message as the page renders it. */
const html = (text: string) => text.replaceAll('&', '&amp;').replaceAll("'", '&#x27;').replaceAll('"', '&quot;');

forEachBackend(t, async (t, backend) => {
  let clock = testNow;
  const app = await buildTestApp(t, { backend, now: () => clock, env: { BOOKING_SLOT_CAPACITY: '1' } });
  t.beforeEach(() => {
    clock = testNow;
  });
  const staff = await login(app);
  let n = 0;

  const pathOf = async (bookingId: string) => new URL((await manageLinkFor(app.db, bookingId, 'https://valet.example.nz'))!).pathname;
  /** A booking of its own customer (a Deluxe Clean on site, 3½ hours) at 10:00 on an ISO weekday at least `atLeast` days ahead, and its manage path. */
  async function book(weekday: number, atLeast = 2) {
    n += 1;
    const date = nextWeekday(weekday, atLeast);
    const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date, time: '10:00', email: `manage-plan${n}-${backend}@example.co.nz` }) });
    if (res.statusCode !== 201) throw new Error(`booking failed: ${res.body}`);
    const id: string = res.json().id;
    return { id, date, path: await pathOf(id) };
  }
  const post = (url: string, fields: Record<string, string>) =>
    app.inject({ method: 'POST', url, payload: form(fields), headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:80' } });
  const row = (id: string) => app.db.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const planOf = (bookingId: string) => app.db.selectFrom('plans').selectAll().where('booking_id', '=', bookingId).executeTakeFirst();
  const history = (id: string) => app.db.selectFrom('booking_status_changes').selectAll().where('booking_id', '=', id).orderBy('id').execute();
  /** Makes the booking a plan from its manage page; the plan's row. */
  async function makePlan(first: { id: string; path: string }, weeks: number) {
    const res = await post(`${first.path}/plan`, { intervalWeeks: String(weeks) });
    t.equal(res.statusCode, 303, res.body.slice(0, 200));
    return (await planOf(first.id))!;
  }
  const closeDay = async (date: string) => {
    const res = await app.inject({ method: 'POST', url: '/v1/closures', headers: { cookie: staff }, payload: { date, kind: 'onsite', reason: 'Van in for service' } });
    if (res.statusCode !== 201) throw new Error(`closure failed: ${res.body}`);
    return res.json().id as string;
  };

  t.test('make a plan from the manage page', async (t) => {
    const first = await book(3);
    const page = await app.inject(first.path);
    t.match(page.body, /<h2 id="manage-make-plan-title">Make this a regular valet<\/h2>/);
    t.same(
      hydrationState(page.body).planIntervals.map((c: { label: string }) => c.label),
      ['every fortnight', 'every 3 weeks', 'every 4 weeks', 'every 6 weeks', 'every 8 weeks', 'every 12 weeks'],
      'the intervals, worded as intervalText words them',
    );
    t.match(page.body, /<option value="4" selected="">Every 4 weeks<\/option>/, 'every four weeks chosen unless another is');
    t.equal(hydrationState(page.body).plan, null);

    const bad = await post(`${first.path}/plan`, { intervalWeeks: '5' });
    t.equal(bad.statusCode, 400, 'an interval not offered');
    t.match(bad.body, PLAN_MESSAGES.intervalRequired);
    t.equal(await planOf(first.id), undefined, 'no plan');

    const made = await post(`${first.path}/plan`, { intervalWeeks: '4' });
    t.equal(made.statusCode, 303);
    t.equal(made.headers.location, `${first.path}/plan?done=started`);
    const plan = (await planOf(first.id))!;
    t.match(plan, { interval_weeks: 4, status: 'active', created_by: 'Customer', anchor_date: first.date, start_time: '10:00' });
    t.match((await history(first.id)).map((h) => h.note), ['Made a regular plan: every 4 weeks']);

    const planPage = await app.inject(made.headers.location as string);
    t.equal(planPage.statusCode, 200);
    t.equal(planPage.headers['cache-control'], 'no-store');
    t.equal(planPage.headers['referrer-policy'], 'same-origin');
    t.match(planPage.body, /<title>Your Regular Plan \| Auckland Valet Co\.<\/title>/);
    t.match(planPage.body, /<meta name="robots" content="noindex">/);
    t.match(planPage.body, html(PLAN_MESSAGES.started(4)));
    const state = hydrationState(planPage.body);
    t.match(state.plan, { interval: 'every 4 weeks', status: 'active', intervalWeeks: 4, version: plan.version });
    t.match(state.plan.when, /^[A-Z][a-z]+days at 10:00 am$/);
    t.ok(state.visits.length >= 3, `three visits or more within twelve weeks (${state.visits.length})`);
    t.same(state.visits.slice(0, 3).map((v: { dueDate: string }) => v.dueDate), [first.date, addDaysToDay(first.date, 28), addDaysToDay(first.date, 56)]);
    t.ok(state.visits.every((v: { state: string; reference: string | null }) => v.state === 'booked' && v.reference), 'each booked, with its reference');

    const again = await post(`${first.path}/plan`, { intervalWeeks: '6' });
    t.equal(again.statusCode, 409, 'a booking makes one plan');
    t.match(again.body, html(PLAN_MESSAGES.alreadyPlanned));

    const overview = await app.inject(first.path);
    t.match(overview.body, /Part of your regular plan: every 4 weeks\./);
    t.match(overview.body, new RegExp(`href="${first.path}/plan"`));
    t.same(hydrationState(overview.body).plan, { interval: 'every 4 weeks', status: 'active', visit: { canKeep: false, canSkip: true } }, 'the booking it was made from is skipped, not kept');
    t.equal(hydrationState(overview.body).planIntervals, null, 'and is not offered as a plan again');
  });

  t.test('a visit booked by the plan is kept with one press', async (t) => {
    const first = await book(1, 4);
    const plan = await makePlan(first, 3);
    const second = (await visitsOf(app.db, plan.id))[1]!;
    const path = await pathOf(second.booking_id!);
    const page = await app.inject(path);
    t.same(hydrationState(page.body).plan.visit, { canKeep: true, canSkip: true });
    t.match(page.body, /Keep this visit/);
    t.notMatch((await app.inject(`${path}?done=kept`)).body, html(PLAN_MESSAGES.kept), 'not said before it is true');

    const kept = await post(`${path}/keep`, {});
    t.equal(kept.statusCode, 303, kept.body.slice(0, 300));
    t.equal(kept.headers.location, `${path}?done=kept`);
    t.ok((await visitsOf(app.db, plan.id))[1]!.kept_at, 'recorded on the visit');
    const after = await app.inject(kept.headers.location as string);
    t.match(after.body, html(PLAN_MESSAGES.kept));
    t.notMatch(after.body, /Keep this visit/, 'no Keep once kept');
    t.match((await history(second.booking_id!)).map((h) => h.note), ['Booked by the regular plan (every 3 weeks) made from', 'Kept from the e-mail before the visit']);

    t.equal((await post(`${path}/keep`, {})).statusCode, 303, 'pressed twice: where the first went');
    t.equal((await history(second.booking_id!)).length, 2, 'and recorded once');
    const notVisit = await book(1, 120);
    const refused = await post(`${notVisit.path}/keep`, {});
    t.equal(refused.statusCode, 409, 'a booking that is no visit is not kept');
    t.match(refused.body, html(PLAN_MESSAGES.visitNotFound));
  });

  t.test('skip a visit from its manage page: a confirmation, then the POST', async (t) => {
    const first = await book(2, 4);
    const plan = await makePlan(first, 2);
    const [, second, third] = await visitsOf(app.db, plan.id);
    const path = await pathOf(second!.booking_id!);
    const before = await row(second!.booking_id!);

    const asked = await app.inject(`${path}/skip`);
    t.equal(asked.statusCode, 200);
    t.equal(hydrationState(asked.body).view, 'skip');
    t.match(asked.body, /Yes, skip this visit/);
    t.equal(hydrationState((await post(`${path}/skip`, { version: '1' })).body).view, 'skip', 'a post without confirm=yes only asks');
    t.same(await row(second!.booking_id!), before, 'nothing changes before the confirmation');

    const stale = await post(`${path}/skip`, { version: '9', confirm: 'yes' });
    t.equal(stale.statusCode, 409, 'the booking as it was not');
    t.match(stale.body, html(MANAGE_MESSAGES.changedMeanwhile));

    const done = await post(`${path}/skip`, { version: String(before.version), confirm: 'yes' });
    t.equal(done.statusCode, 303);
    t.equal(done.headers.location, `${path}?done=skipped`);
    t.equal((await row(second!.booking_id!)).status, 'cancelled');
    const visits = await visitsOf(app.db, plan.id);
    t.equal(visits[1]!.state, 'skipped');
    t.equal(visits[2]!.state, 'booked', 'the plan carries on');
    t.equal((await planOf(first.id))!.status, 'active');
    const page = await app.inject(done.headers.location as string);
    t.match(page.body, html(PLAN_MESSAGES.skipped));
    t.match(page.body, MANAGE_MESSAGES.locked.cancelled);
    t.match(page.body, /Part of your regular plan/, 'still linked to its plan');
    t.equal((await post(`${path}/skip`, { version: String(before.version), confirm: 'yes' })).statusCode, 303, 'twice: where the first went');

    const other = await book(2, 150);
    t.equal(hydrationState((await app.inject(`${other.path}/skip`)).body).view, 'overview', 'a booking that is no visit has nothing to skip');
    void third;
  });

  t.test('the plan page lists the visits; skip one, pause, resume, change how often, stop', async (t) => {
    const first = await book(4, 4);
    const plan = await makePlan(first, 2);
    const url = `${first.path}/plan`;
    const state = hydrationState((await app.inject(url)).body);
    t.ok(state.visits.length >= 6, `every fortnight for twelve weeks (${state.visits.length})`);
    t.match(state.visits[0], { dueDate: first.date, state: 'booked', canSkip: true, offered: [] });
    t.match(state.visits[0].when, /, 10:00 am$/);
    t.equal((await app.inject(`${url}?done=paused`)).body.includes(html(PLAN_MESSAGES.paused)), false, 'a notice only when true');

    const due = state.visits[1].dueDate;
    const skipped = await post(`${url}/skip`, { dueDate: due, version: String(plan.version) });
    t.equal(skipped.statusCode, 303);
    t.equal(skipped.headers.location, `${url}?done=skipped`);
    const afterSkip = await app.inject(skipped.headers.location as string);
    t.match(afterSkip.body, html(PLAN_MESSAGES.skipped));
    t.match(hydrationState(afterSkip.body).visits[1], { dueDate: due, state: 'skipped', canSkip: false });
    t.equal((await post(`${url}/skip`, { dueDate: due, version: String(plan.version) })).statusCode, 303, 'twice: where the first went');
    const unknown = await post(`${url}/skip`, { dueDate: addDaysToDay(due, 1), version: String(plan.version) });
    t.equal(unknown.statusCode, 409, 'a date that is no visit of the plan');
    t.match(unknown.body, html(PLAN_MESSAGES.visitNotFound));

    const paused = await post(`${url}/pause`, { version: String(plan.version) });
    t.equal(paused.headers.location, `${url}?done=paused`);
    const pausedPage = await app.inject(paused.headers.location as string);
    t.match(pausedPage.body, html(PLAN_MESSAGES.paused));
    t.match(pausedPage.body, /Resume the plan/);
    const v2 = hydrationState(pausedPage.body).plan.version;
    t.equal(v2, plan.version + 1);
    t.equal((await post(`${url}/pause`, { version: String(plan.version) })).statusCode, 303, 'pause pressed twice: paused is what was asked');

    const resumed = await post(`${url}/resume`, { version: String(v2) });
    t.equal(resumed.headers.location, `${url}?done=resumed`);
    t.match((await app.inject(resumed.headers.location as string)).body, html(PLAN_MESSAGES.resumed));
    const stale = await post(`${url}/pause`, { version: String(plan.version) });
    t.equal(stale.statusCode, 409, 'a change to the plan as it was before is refused');
    t.match(stale.body, html(STALE));
    t.equal((await planOf(first.id))!.status, 'active', 'and changes nothing');

    const v3 = (await planOf(first.id))!.version;
    const changed = await post(`${url}/interval`, { version: String(v3), intervalWeeks: '4' });
    t.equal(changed.headers.location, `${url}?done=interval`);
    t.equal((await planOf(first.id))!.interval_weeks, 4);
    t.match((await app.inject(changed.headers.location as string)).body, html(PLAN_MESSAGES.intervalChanged(4)));
    const v4 = (await planOf(first.id))!.version;
    const same = await post(`${url}/interval`, { version: String(v4), intervalWeeks: '4' });
    t.equal(same.statusCode, 400);
    t.match(same.body, html(PLAN_MESSAGES.sameInterval));

    const upcoming = (await visitsOf(app.db, plan.id)).filter((v) => v.state === 'booked' && v.booking?.status !== 'cancelled' && v.booking_id !== first.id);
    t.ok(upcoming.length > 0);
    const asked = await post(`${url}/stop`, { version: String(v4) });
    t.equal(asked.statusCode, 200, 'a stop is confirmed first');
    t.equal(hydrationState(asked.body).view, 'stop');
    t.match(asked.body, /Yes, stop my plan/);
    t.equal((await planOf(first.id))!.status, 'active');
    t.notMatch((await app.inject(`${url}?done=stopped`)).body, html(PLAN_MESSAGES.stoppedDone));
    const stopped = await post(`${url}/stop`, { version: String(v4), confirm: 'yes' });
    t.equal(stopped.headers.location, `${url}?done=stopped`);
    t.equal((await planOf(first.id))!.status, 'stopped');
    const rows = await app.db.selectFrom('bookings').select('status').where('id', 'in', upcoming.map((v) => v.booking_id!)).execute();
    t.ok(rows.every((r) => r.status === 'cancelled'), 'the upcoming visits are cancelled');
    t.equal((await row(first.id)).status, 'pending', 'the booking it was made from stays');
    const stoppedPage = await app.inject(stopped.headers.location as string);
    t.match(stoppedPage.body, html(PLAN_MESSAGES.stoppedDone));
    t.notMatch(stoppedPage.body, /Pause the plan|Stop the plan|Skip this visit/, 'a stopped plan offers no changes');
    t.equal((await post(`${url}/stop`, { version: String(v4), confirm: 'yes' })).statusCode, 303, 'stop pressed twice: where the first went');
    const late = await post(`${url}/resume`, { version: String((await planOf(first.id))!.version) });
    t.equal(late.statusCode, 409);
    t.match(late.body, html(PLAN_MESSAGES.stopped));

    // Any booking of the plan opens its page, past ones too; the booking's own page has closed by then.
    clock = new Date(new Date(slotStartsAt(first.date, '10:00')).getTime() + 3_600_000);
    t.equal((await app.inject(first.path)).statusCode, 404, 'the manage page closes when the appointment starts');
    const later = await app.inject(url);
    t.equal(later.statusCode, 200, 'the plan page stays open');
    t.equal(hydrationState(later.body).bookingOpen, false);
  });

  t.test('a visit that needs a time: each offered time a button; one taken meanwhile offers the nearest again', async (t) => {
    const first = await book(5, 16);
    const due = addDaysToDay(first.date, 14);
    const closures = [];
    for (let d = -2; d <= 2; d++) closures.push(await closeDay(addDaysToDay(due, d)));
    const plan = await makePlan(first, 2);
    const url = `${first.path}/plan`;
    const page = await app.inject(url);
    const visit = hydrationState(page.body).visits.find((v: { dueDate: string }) => v.dueDate === due);
    t.match(visit, { state: 'needs-time', reference: null, canSkip: true });
    t.equal(visit.offered.length, 3, 'three times offered');
    t.match(page.body, /Needs a time/);
    for (const start of visit.offered) t.match(page.body, `aria-label="Book the visit on ${start.label}"`);

    const [taken, next] = visit.offered as { date: string; time: string }[];
    const stale = await post(`${url}/choose`, { dueDate: due, date: taken!.date, time: taken!.time, version: String(plan.version - 1) });
    t.equal(stale.statusCode, 409, 'a stale version');
    t.match(stale.body, html(STALE));

    // Another customer books the first time offered.
    const other = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: taken!.date, time: taken!.time, email: `other-${backend}@example.co.nz` }) });
    t.equal(other.statusCode, 201, 'another customer books it');
    const gone = await post(`${url}/choose`, { dueDate: due, date: taken!.date, time: taken!.time, version: String(plan.version) });
    t.equal(gone.statusCode, 409, 'taken meanwhile');
    t.match(gone.body, html(PLAN_MESSAGES.timeGone));
    const offeredNow = hydrationState(gone.body).visits.find((v: { dueDate: string }) => v.dueDate === due).offered as { date: string; time: string }[];
    t.equal(offeredNow.length, 3, 'three times offered again');
    t.notOk(offeredNow.some((s) => s.date === taken!.date && s.time === taken!.time), 'without the one taken');
    const key = (s: { date: string; time: string }) => `${s.date} ${s.time}`;
    t.same((await visitsOf(app.db, plan.id)).find((v) => v.due_date === due)!.offered!.map(key).sort(), offeredNow.map(key), 'and stored (shown in the order of the day)');
    void next;

    const chosen = offeredNow[0]!;
    const booked = await post(`${url}/choose`, { dueDate: due, date: chosen.date, time: chosen.time, version: String(plan.version) });
    t.equal(booked.statusCode, 303, booked.body.slice(0, 300));
    t.equal(booked.headers.location, `${url}?done=chosen`);
    const stored = (await visitsOf(app.db, plan.id)).find((v) => v.due_date === due)!;
    t.match(stored, { state: 'booked', booking: { date: chosen.date, time: chosen.time, source: 'plan' } });
    const after = await app.inject(booked.headers.location as string);
    t.match(after.body, html(PLAN_MESSAGES.timeChosen));
    t.match(hydrationState(after.body).visits.find((v: { dueDate: string }) => v.dueDate === due), { state: 'moved', reference: stored.booking!.reference });
    t.equal((await post(`${url}/choose`, { dueDate: due, date: chosen.date, time: chosen.time, version: String(plan.version) })).statusCode, 303, 'twice: where the first went');
    for (const id of closures) await app.inject({ method: 'DELETE', url: `/v1/closures/${id}`, headers: { cookie: staff } });
  });

  t.test('GETs change nothing; unknown and malformed tokens are the 404 page', async (t) => {
    const first = await book(6, 4);
    const plan = await makePlan(first, 6);
    const visits = await visitsOf(app.db, plan.id);
    const visitPath = await pathOf(visits[1]!.booking_id!);
    const snapshot = async () => ({
      plan: await planOf(first.id),
      visits: await visitsOf(app.db, plan.id),
      history: await app.db.selectFrom('booking_status_changes').selectAll().where('booking_id', 'in', visits.map((v) => v.booking_id!)).execute(),
    });
    const before = await snapshot();
    for (const url of [
      `${first.path}/plan`,
      `${first.path}/plan?done=stopped`,
      `${first.path}/plan?done=started`,
      visitPath,
      `${visitPath}?done=kept`,
      `${visitPath}?done=skipped`,
      `${visitPath}/skip`,
      `${visitPath}/plan`,
    ]) {
      const res = await app.inject(url);
      t.equal(res.statusCode, 200, url);
      t.equal(res.headers['cache-control'], 'no-store', url);
      t.equal(res.headers['referrer-policy'], 'same-origin', url);
    }
    t.same(await snapshot(), before, 'the plan, its visits and their history are as they were');
    const unknown = `/booking/manage/${'A'.repeat(43)}`;
    for (const url of [`${unknown}/plan`, '/booking/manage/abc/plan', `${(await book(6, 200)).path}/plan`]) {
      const res = await app.inject(url);
      t.equal(res.statusCode, 404, url);
      t.match(res.body, /Error 404/);
    }
    t.equal((await post(`${unknown}/plan/pause`, { version: '1' })).statusCode, 404);
    const crossSite = await app.inject({ method: 'POST', url: `${first.path}/plan/pause`, payload: form({ version: String(plan.version) }), headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' } });
    t.equal(crossSite.statusCode, 403, 'refused cross-site');
    t.equal((await planOf(first.id))!.status, 'active');
  });
});
