/**
 * Issue 43's model test for maintenance plans. First the pure rules against brute force: the due
 * dates of a plan, and the order starts near a due visit are tried in. Then random sequences of
 * what customers, staff and the passing days do (plans made from new bookings at random starts
 * and intervals, other customers' bookings, whole days closed, visits skipped, plans paused,
 * resumed, given a new interval or stopped, and days passing with the hourly extension) against
 * the real application on both backends, with a small model of each plan's status and interval.
 * After every step:
 *
 * (a) in SQL, no two place-holding bookings of one van overlap;
 * (b) every plan has the status and interval the model says, and an action the model refuses
 *     (a stopped plan changed, the same interval again) is refused;
 * (c) every visit of an active plan due after today and within the horizon is booked, needs a
 *     time, or was skipped; a booked one's booking is the plan's job (source 'plan', the plan's
 *     e-mail) within two days of its due date, and no booking is two visits;
 * (d) a skipped visit's booking is cancelled, and a stopped plan holds no upcoming place but the
 *     booking it was made from.
 *
 * The waitlist's steps are mixed in: customers joining a date's list (any time, morning or
 * afternoon), staff cancelling bookings (which offers the place at once), customers confirming or
 * declining the offers, and the days passing (which lapses the offers unanswered). After each step
 * also:
 *
 * (e) every offered booking is its entry's offer and every entry offered holds one, an entry is
 *     offered one place at most, and the place offered fits the entry's job: its date, its part
 *     of the day, its kind and its minutes;
 * (f) a confirmed offer is a pending booking of the entry's customer, its entry booked.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sql } from 'kysely';
import t from 'tap';
import { addDaysToDay, todayInAuckland } from '../src/domain/booking-dates.ts';
import { NEAR_DAY_OFFSETS, PLAN_INTERVALS, closestStarts, nearestStarts, planVisitDates, type Start } from '../src/domain/plans.ts';
import { changeInterval, horizonOf, pausePlan, resumePlan, skipVisit, startPlan, stopPlan } from '../src/services/plans.service.ts';
import { visitsOf } from '../src/db/plans.repository.ts';
import { manageLinkFor } from '../src/db/manage-link.repository.ts';
import { emptyBooking, jobOf, type BookingInput } from '../src/domain/booking-rules.ts';
import { jobLines, linesMinutes } from '../src/domain/job.ts';
import { startInPart, WAITLIST_PARTS } from '../src/domain/waitlist.ts';
import { confirmOffer, declineOffer } from '../src/services/waitlist.service.ts';
import { buildTestApp, forEachBackend, login } from './helper.ts';
import { originalClientPayload, testNow } from './support/payloads.ts';

const NUM_RUNS = Number(process.env.PLANS_MODEL_RUNS ?? 15);
const MAX_STEPS = Number(process.env.PLANS_MODEL_STEPS ?? 18);
const DAY = 86_400_000;
const hh = (hour: number) => `${String(hour).padStart(2, '0')}:00`;
const dayNumber = (d: string) => Date.UTC(Number(d.slice(0, 4)), Number(d.slice(5, 7)) - 1, Number(d.slice(8, 10))) / DAY;
const aDate = fc.integer({ min: 0, max: 800 }).map((n) => addDaysToDay('2026-01-01', n));

t.test('the due dates: every step from the anchor after `after`, up to `through`, and none missed', async () => {
  fc.assert(
    fc.property(aDate, fc.constantFrom(...PLAN_INTERVALS), fc.integer({ min: -100, max: 200 }), fc.integer({ min: 0, max: 200 }), (anchor, weeks, afterOffset, span) => {
      const after = addDaysToDay(anchor, afterOffset);
      const through = addDaysToDay(after, span);
      const dates = planVisitDates(anchor, weeks, after, through);
      // Brute force: every day of the range that is a whole number of steps from the anchor, not before it.
      const expected: string[] = [];
      for (let d = addDaysToDay(after, 1); d <= through; d = addDaysToDay(d, 1)) {
        const since = dayNumber(d) - dayNumber(anchor);
        if (since >= 0 && since % (weeks * 7) === 0) expected.push(d);
      }
      assert.deepEqual(dates, expected);
    }),
    { numRuns: 300 },
  );
});

const aStart = (due: string) => fc.record({ date: fc.integer({ min: -4, max: 4 }).map((n) => addDaysToDay(due, n)), time: fc.integer({ min: 7, max: 20 }).map(hh) });

t.test('the nearest starts: by day (same, after, before, two after, two before), then by distance from the time, the earlier first', async () => {
  fc.assert(
    fc.property(aDate, fc.integer({ min: 7, max: 20 }).map(hh), fc.integer({ min: 0, max: 30 }), (due, time, n) => {
      const starts = fc.sample(fc.uniqueArray(aStart(due), { selector: (s) => `${s.date} ${s.time}`, maxLength: n }), { numRuns: 1, seed: n })[0]!;
      const order = nearestStarts(due, time, starts);
      const days = NEAR_DAY_OFFSETS.map((o) => addDaysToDay(due, o));
      // Brute force: the key of each start, compared lexicographically.
      const key = (s: Start) => [days.indexOf(s.date), Math.abs(Number(s.time.slice(0, 2)) - Number(time.slice(0, 2))), Number(s.time.slice(0, 2))];
      const expected = starts
        .filter((s) => days.includes(s.date))
        .sort((a, b) => {
          const [ka, kb] = [key(a), key(b)];
          return ka[0]! - kb[0]! || ka[1]! - kb[1]! || ka[2]! - kb[2]!;
        });
      assert.deepEqual(order, expected);
      const offered = closestStarts(due, time, starts, 3);
      assert.ok(offered.length === Math.min(3, starts.length));
      const distance = (s: Start) => Math.abs((dayNumber(s.date) - dayNumber(due)) * 24 + Number(s.time.slice(0, 2)) - Number(time.slice(0, 2)));
      const worstOffered = Math.max(...offered.map(distance), -1);
      assert.ok(starts.filter((s) => !offered.includes(s)).every((s) => distance(s) >= worstOffered), 'no start left out is nearer than one offered');
    }),
    { numRuns: 300 },
  );
});

type Status = 'active' | 'paused' | 'stopped';
interface ModelPlan {
  id: string;
  bookingId: string;
  email: string;
  status: Status;
  weeks: number;
}

type Step =
  | { type: 'plan'; day: number; hour: number; weeks: number; quick: boolean }
  | { type: 'book'; day: number; hour: number }
  | { type: 'close'; day: number }
  /** Whole days closed around the next visit a plan will book: it needs a time, or goes two days off. */
  | { type: 'crowd'; plan: number; days: number }
  | { type: 'skip'; plan: number; visit: number }
  | { type: 'pause' | 'resume' | 'stop'; plan: number }
  | { type: 'interval'; plan: number; weeks: number }
  | { type: 'days'; days: number }
  /** Issue 43's waitlist: a new customer waits for a date; staff cancel a booking; a customer answers an offer. */
  | { type: 'wait'; day: number; part: (typeof WAITLIST_PARTS)[number]; quick: boolean }
  | { type: 'cancel'; pick: number }
  | { type: 'answer'; pick: number; yes: boolean };

const planStep = fc.record({ type: fc.constant('plan' as const), day: fc.integer({ min: 1, max: 20 }), hour: fc.integer({ min: 7, max: 16 }), weeks: fc.constantFrom(...PLAN_INTERVALS), quick: fc.boolean() });
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: planStep },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('crowd' as const), plan: fc.nat(), days: fc.integer({ min: 3, max: 5 }) }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('book' as const), day: fc.integer({ min: 1, max: 60 }), hour: fc.integer({ min: 7, max: 16 }) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('close' as const), day: fc.integer({ min: 2, max: 60 }) }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('skip' as const), plan: fc.nat(), visit: fc.nat({ max: 4 }) }) },
  { weight: 3, arbitrary: fc.record({ type: fc.constantFrom('pause' as const, 'resume' as const, 'stop' as const), plan: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('interval' as const), plan: fc.nat(), weeks: fc.constantFrom(...PLAN_INTERVALS) }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('days' as const), days: fc.integer({ min: 1, max: 15 }) }) },
  { weight: 4, arbitrary: fc.record({ type: fc.constant('wait' as const), day: fc.integer({ min: 1, max: 20 }), part: fc.constantFrom(...WAITLIST_PARTS), quick: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('cancel' as const), pick: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('answer' as const), pick: fc.nat(), yes: fc.boolean() }) },
);

/** The status code of a refusal, or 0 when it was done. */
const refusal = (work: Promise<unknown>): Promise<number> => work.then(
  () => 0,
  (e: { statusCode?: number }) => {
    if (!e.statusCode) throw e;
    return e.statusCode;
  },
);

forEachBackend(t, async (t, backend) => {
  let clock = testNow;
  const app = await buildTestApp(t, { backend, now: () => clock, env: { RATE_LIMIT_FORMS_MAX: '1000000', PLAN_HORIZON_WEEKS: '6' } });
  const cookie = await login(app);
  let emails = 0;
  let runs = 0;
  const tally = new Map<string, number>();
  const count = (what: string) => tally.set(what, (tally.get(what) ?? 0) + 1);

  async function book(day: number, hour: number, service = 'Quick Clean'): Promise<{ id: string; email: string } | undefined> {
    const email = `model${++emails}-${backend}@example.co.nz`;
    const today = todayInAuckland(clock);
    const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ service, date: addDaysToDay(today, day), time: hh(hour), email }) });
    if (res.statusCode === 201) return { id: res.json().id as string, email };
    assert.equal(res.statusCode, 409, res.body);
    return undefined;
  }

  /** A whole day closed for the vans (a date closed already stays so). */
  async function closeDay(date: string): Promise<void> {
    const res = await app.inject({ method: 'POST', url: '/v1/closures', headers: { cookie }, payload: { date, kind: 'onsite', reason: 'model' } });
    assert.ok(res.statusCode === 201 || res.json().errors?.[0]?.message === 'This date is already closed', res.body);
  }

  /** (e) and (f): each offer is its entry's, fits its job, and a confirmed one is the customer's pending booking. */
  async function checkWaitlist(): Promise<void> {
    const entries = await app.db.selectFrom('waitlist_entries').selectAll().execute();
    const offered = await app.db.selectFrom('bookings').selectAll().where('status', '=', 'offered').execute();
    for (const booking of offered) {
      const entry = entries.find((e) => e.booking_id === booking.id);
      assert.ok(entry, 'an offered booking is an entry\'s offer');
      assert.equal(entry.status, 'offered', 'its entry is offered');
    }
    for (const entry of entries) {
      if (!entry.booking_id) continue;
      const booking = await app.db.selectFrom('bookings').selectAll().where('id', '=', entry.booking_id).executeTakeFirstOrThrow();
      if (entry.status === 'offered') assert.equal(booking.status, 'offered', 'an entry offered holds its place');
      if (entry.status === 'booked') assert.ok(booking.status !== 'offered', 'a confirmed offer is a booking');
      // The place fits the job asked for: the date, the part of the day, the kind and the minutes.
      const request = { ...emptyBooking(), ...(entry.request as Partial<BookingInput>) };
      assert.equal(booking.date, entry.date, 'on the date asked');
      assert.ok(startInPart(entry.part as (typeof WAITLIST_PARTS)[number], booking.time), `${booking.time} is in the ${entry.part}`);
      assert.equal(booking.service_type, request.serviceType, 'of the kind asked');
      assert.equal((booking.ends_at.getTime() - booking.starts_at.getTime()) / 60_000, linesMinutes(jobLines(jobOf(request).vehicles)!), 'for the job asked');
      assert.equal(booking.email, request.email, "the entry's customer");
      count(`waitlist ${entry.status}`);
    }
  }

  /** The manage token of a booking: the last part of its link. */
  const tokenOf = async (id: string) => new URL((await manageLinkFor(app.db, id, 'https://valet.example.nz'))!).pathname.split('/').at(-1)!;

  async function check(plans: readonly ModelPlan[]): Promise<void> {
    // (a) No two place-holding bookings of one van overlap (a waitlist offer holds its place too).
    const { rows } = await sql<{ n: number }>`select count(*)::integer as n from bookings a join bookings b on a.resource_id = b.resource_id and a.id < b.id and a.held && b.held
      where a.status in ('offered', 'pending', 'confirmed', 'completed', 'no-show') and b.status in ('offered', 'pending', 'confirmed', 'completed', 'no-show')`.execute(app.db);
    assert.equal(rows[0]!.n, 0, 'no two held places overlap');
    await checkWaitlist();
    const today = todayInAuckland(clock);
    const horizon = horizonOf(clock, app.config.plans);
    const seen = new Set<string>();
    for (const m of plans) {
      const plan = await app.db.selectFrom('plans').selectAll().where('id', '=', m.id).executeTakeFirstOrThrow();
      // (b) Status and interval as the model says.
      assert.equal(plan.status, m.status, 'status');
      assert.equal(plan.interval_weeks, m.weeks, 'interval');
      const visits = await visitsOf(app.db, m.id);
      for (const v of visits) {
        if (v.booking_id) {
          assert.ok(!seen.has(v.booking_id), 'no booking is two visits');
          seen.add(v.booking_id);
        }
        if (v.state === 'booked' && v.booking!.id !== m.bookingId) {
          // (c) A booked visit is the plan's job near its date.
          assert.equal(v.booking!.source, 'plan');
          assert.equal(v.booking!.email, m.email);
          assert.ok(Math.abs(dayNumber(v.booking!.date) - dayNumber(v.due_date)) <= 2, `within two days of ${v.due_date}: ${v.booking!.date}`);
        }
        // (d) A skipped visit holds no place.
        if (v.state === 'skipped' && v.booking) assert.equal(v.booking.status, 'cancelled', 'a skipped visit is cancelled');
        if (v.state === 'needs-time') count('needs a time');
      }
      if (m.status === 'active') {
        // (c) Every visit due within the horizon is recorded.
        const due = planVisitDates(plan.anchor_date, plan.interval_weeks, today, horizon);
        for (const d of due) assert.ok(visits.some((v) => v.due_date === d), `the visit due ${d} is recorded`);
      }
      if (m.status === 'stopped') {
        // (d) A stopped plan holds no upcoming place but its own booking's.
        const holding = visits.filter((v) => v.booking && v.booking.id !== m.bookingId && ['pending', 'confirmed'].includes(v.booking.status) && v.booking.starts_at.getTime() > clock.getTime());
        assert.equal(holding.length, 0, 'a stopped plan holds no upcoming place');
      }
    }
  }

  async function run(steps: readonly Step[]): Promise<void> {
    const plans: ModelPlan[] = [];
    const options = () => app.planOptions();
    for (const s of steps) {
      const m = 'plan' in s ? plans[s.plan % Math.max(plans.length, 1)] : undefined;
      switch (s.type) {
        case 'plan': {
          const booked = await book(s.day, s.hour, s.quick ? 'Quick Clean' : 'Deluxe Clean');
          if (!booked) break;
          const plan = await startPlan(app.db, booked.id, s.weeks, { customer: true }, options());
          plans.push({ id: plan.id, bookingId: booked.id, email: booked.email, status: 'active', weeks: s.weeks });
          count('plan');
          break;
        }
        case 'book':
          await book(s.day, s.hour, 'Deluxe Clean');
          break;
        case 'close': {
          await closeDay(addDaysToDay(todayInAuckland(clock), s.day));
          break;
        }
        case 'crowd': {
          if (!m) break;
          const plan = await app.db.selectFrom('plans').selectAll().where('id', '=', m.id).executeTakeFirstOrThrow();
          const next = planVisitDates(plan.anchor_date, plan.interval_weeks, plan.booked_through, addDaysToDay(plan.booked_through, 84))[0]!;
          // Three days closed: the due date and the days after and before; five: two either side too.
          const around = s.days === 3 ? [0, 1, -1] : s.days === 4 ? [0, 1, -1, 2] : [0, 1, -1, 2, -2];
          for (const offset of around) {
            const date = addDaysToDay(next, offset);
            if (date <= todayInAuckland(clock)) continue;
            await closeDay(date);
          }
          break;
        }
        case 'skip': {
          if (!m) break;
          const visits = (await visitsOf(app.db, m.id)).filter((v) => v.due_date > todayInAuckland(clock) && v.state !== 'skipped');
          const visit = visits[s.visit % Math.max(visits.length, 1)];
          if (!visit) break;
          const code = await refusal(skipVisit(app.db, m.id, visit.due_date, { customer: false, by: 'Model' }, options()));
          if (m.status === 'stopped') assert.equal(code, 409, 'a stopped plan skips nothing');
          else if (visit.state === 'booked' && visit.booking!.status === 'cancelled') assert.ok(code === 0 || code === 409);
          else {
            assert.equal(code, 0, 'skipped');
            const after = (await visitsOf(app.db, m.id)).find((v) => v.due_date === visit.due_date)!;
            assert.equal(after.state, 'skipped');
            count('skip');
          }
          break;
        }
        case 'pause':
        case 'resume':
        case 'stop': {
          if (!m) break;
          const work = s.type === 'pause' ? pausePlan(app.db, m.id, options()) : s.type === 'resume' ? resumePlan(app.db, m.id, options()) : stopPlan(app.db, m.id, { customer: true }, options());
          const code = await refusal(work);
          if (m.status === 'stopped') assert.equal(code, 409, `a stopped plan is not ${s.type}d`);
          else {
            assert.equal(code, 0);
            m.status = s.type === 'pause' ? 'paused' : s.type === 'resume' ? 'active' : 'stopped';
            count(s.type);
          }
          break;
        }
        case 'interval': {
          if (!m) break;
          const code = await refusal(changeInterval(app.db, m.id, s.weeks, { customer: true }, options()));
          if (m.status === 'stopped') assert.equal(code, 409);
          else if (m.weeks === s.weeks) assert.equal(code, 400, 'the same interval again is a 400');
          else {
            assert.equal(code, 0);
            m.weeks = s.weeks;
            count('interval');
          }
          break;
        }
        case 'days':
          clock = new Date(clock.getTime() + s.days * DAY);
          await app.extendPlans();
          // The minute's sweep: offers unanswered since lapse, and their places go to the next entries.
          await app.offerFreedPlaces();
          count('days');
          break;
        case 'wait': {
          const { time: _time, ...body } = originalClientPayload({
            service: s.quick ? 'Quick Clean' : 'Deluxe Clean',
            date: addDaysToDay(todayInAuckland(clock), s.day),
            email: `model${++emails}-${backend}@example.co.nz`,
          });
          const res = await app.inject({ method: 'POST', url: '/v1/waitlist', payload: { ...body, part: s.part } });
          assert.equal(res.statusCode, 201, res.body);
          // The minute's sweep, a minute later: a date with a free start in its part offers it.
          await app.offerFreedPlaces();
          count('wait');
          break;
        }
        case 'cancel': {
          const upcoming = await app.db
            .selectFrom('bookings')
            .select(['id', 'version'])
            .where('status', 'in', ['pending', 'confirmed'])
            .where('starts_at', '>', clock)
            .orderBy('starts_at')
            .orderBy('id')
            .execute();
          const booking = upcoming[s.pick % Math.max(upcoming.length, 1)];
          if (!booking) break;
          const res = await app.inject({ method: 'POST', url: `/v1/bookings/${booking.id}/status`, headers: { cookie }, payload: { status: 'cancelled', version: booking.version } });
          assert.equal(res.statusCode, 200, res.body);
          count('cancel');
          break;
        }
        case 'answer': {
          const offers = await app.db.selectFrom('bookings').select(['id', 'version', 'date']).where('status', '=', 'offered').orderBy('id').execute();
          const offer = offers[s.pick % Math.max(offers.length, 1)];
          if (!offer) break;
          const token = await tokenOf(offer.id);
          if (s.yes) {
            const taken = await confirmOffer(app.db, token, offer.version, app.waitlistOptions());
            assert.equal(taken.status, 'pending', 'a confirmed offer is pending');
          } else {
            await declineOffer(app.db, token, offer.version, app.waitlistOptions());
            // As the manage page does once the "no thanks" is committed.
            await app.offerFreedPlaces([offer.date]);
          }
          count(s.yes ? 'confirm' : 'decline');
          break;
        }
      }
      await check(plans);
    }
  }

  const started = performance.now();
  await fc.assert(
    fc.asyncProperty(planStep, fc.array(step, { minLength: 1, maxLength: MAX_STEPS }), async (first, rest) => {
      const steps = [first, ...rest];
      clock = testNow;
      await sql`truncate bookings, closures cascade`.execute(app.db);
      runs += 1;
      await run(steps);
    }),
    { numRuns: NUM_RUNS, interruptAfterTimeLimit: 100_000, markInterruptAsFailure: true },
  );
  clock = testNow;
  t.pass(`${runs} runs of up to ${MAX_STEPS} steps keep the plans' rules, in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  t.comment([...tally].sort(([a], [b]) => a.localeCompare(b)).map(([what, n]) => `${what}: ${n}`).join(', '));
});
