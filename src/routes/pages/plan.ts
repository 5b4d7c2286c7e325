/**
 * /booking/manage/{token}/plan: a maintenance plan's page (issue 43), opened with the manage link
 * of any booking of the plan, past ones too (the plan outlives each visit; unlike the manage page,
 * the link keeps opening this page after its own appointment). It shows how often and when the
 * plan repeats, whether it runs, and its visits: booked, moved to another day, skipped, or
 * needing a time (each start offered as its own button).
 *
 * As on the manage page a GET never changes anything: every change is a POST form, refused
 * cross-site, that works without JavaScript and redirects back (POST/redirect/GET, `?done=`).
 * Each carries the plan's `version`, so a change is made only to the plan as the customer saw it
 * (PlanChangedError, 409 otherwise); a stop is confirmed first. Registered inside the manage
 * routes' plugin (./manage.ts), whose onSend hook makes every answer `no-store` with
 * `Referrer-Policy: same-origin`.
 */
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { format, parseISO } from 'date-fns';
import { aucklandInstant, appointmentText, dayText, todayInAuckland } from '../../domain/booking-dates.ts';
import { packageForPeople } from '../../domain/catalogue.ts';
import { isManageTokenShape, planPath } from '../../domain/manage-link.ts';
import { PLAN_INTERVALS, PLAN_MESSAGES, intervalText, isPlanStatus, type Start } from '../../domain/plans.ts';
import type { Booking } from '../../db/database.ts';
import { findBookingByManageHash } from '../../db/bookings.repository.ts';
import { hashManageToken } from '../../db/manage-link.repository.ts';
import { findPlanOfBooking, type VisitWithBooking } from '../../db/plans.repository.ts';
import { AppError, formError, notFound } from '../../errors.ts';
import { appointmentStart, lockOf } from '../../services/manage-booking.service.ts';
import {
  PlanChangedError,
  changeInterval,
  chooseVisitTime,
  pausePlan,
  planWithVisits,
  refreshOffers,
  resumePlan,
  skipVisit,
  stopPlan,
  type PlanWithVisits,
} from '../../services/plans.service.ts';
import { PLAN_PAGE_PATH } from '#client/routes.ts';
import type { PlanIntervalChoice, PlanPageState, PlanPageVisit } from '#client/page-state.ts';

const TokenParams = Type.Object({ token: Type.String({ maxLength: 100 }) });
const Version = Type.String({ pattern: '^[0-9]{1,9}$' });
const DueDate = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' });

const VersionForm = Type.Object({ version: Version }, { additionalProperties: false });
const SkipForm = Type.Object({ version: Version, dueDate: DueDate }, { additionalProperties: false });
const ChooseForm = Type.Object({ version: Version, dueDate: DueDate, date: DueDate, time: Type.String({ pattern: '^[0-9]{2}:[0-9]{2}$' }) }, { additionalProperties: false });
const IntervalForm = Type.Object({ version: Version, intervalWeeks: Type.String({ maxLength: 3 }) }, { additionalProperties: false });
const StopForm = Type.Object({ version: Version, confirm: Type.Optional(Type.Literal('yes')) }, { additionalProperties: false });

/** The intervals a plan may have, in words, for its select (here and on the manage page). */
export const planIntervalChoices = (): PlanIntervalChoice[] => PLAN_INTERVALS.map((weeks) => ({ weeks, label: intervalText(weeks) }));

/** How many past visits the page still lists, the latest ones (the upcoming ones are all listed). */
const PAST_VISITS_SHOWN = 4;

type Done = 'started' | 'skipped' | 'paused' | 'resumed' | 'interval' | 'stopped' | 'chosen';

/** The plan with the booking of the link it was opened with. */
type Found = PlanWithVisits & { booking: Booking };

const route: FastifyPluginAsyncTypebox = async (app) => {
  /** The plan of the booking a token opens, whenever its appointment is (no appointment-in-the-future check). */
  async function planOfToken(token: string): Promise<Found | undefined> {
    if (!isManageTokenShape(token)) return undefined;
    const booking = await findBookingByManageHash(app.db, hashManageToken(token));
    const plan = booking && (await findPlanOfBooking(app.db, booking.id));
    const found = plan && (await planWithVisits(app.db, plan.id));
    return found && { ...found, booking };
  }

  /** Only what is true of the plan: an address typed with ?done=stopped does not say so. */
  function noticeOf(done: string | undefined, { plan, visits }: Found): string | null {
    const running = plan.status !== 'stopped';
    switch (done as Done | undefined) {
      case 'started':
        return running ? PLAN_MESSAGES.started(plan.interval_weeks) : null;
      case 'skipped':
        return visits.some((v) => v.state === 'skipped') ? PLAN_MESSAGES.skipped : null;
      case 'paused':
        return plan.status === 'paused' ? PLAN_MESSAGES.paused : null;
      case 'resumed':
        return plan.status === 'active' ? PLAN_MESSAGES.resumed : null;
      case 'interval':
        return running ? PLAN_MESSAGES.intervalChanged(plan.interval_weeks) : null;
      case 'stopped':
        return running ? null : PLAN_MESSAGES.stoppedDone;
      case 'chosen':
        return visits.some((v) => v.state === 'booked' && v.booking?.source === 'plan') ? PLAN_MESSAGES.timeChosen : null;
      default:
        return null;
    }
  }

  function visitOf(visit: VisitWithBooking, found: Found, now: Date): PlanPageVisit {
    const { booking } = visit;
    const running = found.plan.status !== 'stopped';
    const state: PlanPageVisit['state'] =
      visit.state === 'needs-time'
        ? 'needs-time'
        : visit.state === 'skipped' || !booking || booking.status === 'cancelled'
          ? 'skipped'
          : booking.status === 'completed'
            ? 'done'
            : booking.date !== visit.due_date
              ? 'moved'
              : 'booked';
    const booked = state === 'booked' || state === 'moved';
    const offered = state === 'needs-time' && running ? (visit.offered ?? []).filter((s) => aucklandInstant(s.date, s.time) > now.getTime()) : [];
    return {
      dueDate: visit.due_date,
      dueText: dayText(visit.due_date),
      state,
      when: booking ? appointmentText(booking.date, booking.time) : null,
      reference: booking?.reference ?? null,
      // The customer's notice period holds for a visit as for any booking; one that waits for a time can be let go until its date.
      canSkip: running && ((booked && lockOf(booking!, { now, cutoffHours: app.config.manageCutoffHours }) === null) || (state === 'needs-time' && visit.due_date > todayInAuckland(now))),
      // In the order of the day (the engine offers the nearest first).
      offered: [...offered].sort((a, b) => `${a.date} ${a.time}`.localeCompare(`${b.date} ${b.time}`)).map((s) => ({ date: s.date, time: s.time, label: appointmentText(s.date, s.time) })),
    };
  }

  function stateOf(token: string, found: Found, view: PlanPageState['view'], extras: { notice?: string | null; error?: string | null } = {}): PlanPageState {
    const { plan, template, booking } = found;
    const now = app.now();
    const today = todayInAuckland(now);
    const status = isPlanStatus(plan.status) ? plan.status : 'active';
    // Still to come: a visit whose appointment has not started, or that waits for a time from today on.
    const upcoming = (v: VisitWithBooking) => (v.booking ? appointmentStart(v.booking).getTime() > now.getTime() : v.due_date >= today);
    const past = found.visits.filter((v) => !upcoming(v)).slice(-PAST_VISITS_SHOWN);
    const shown = [...past, ...found.visits.filter(upcoming)];
    return {
      token,
      reference: booking.reference,
      bookingOpen: appointmentStart(booking).getTime() > now.getTime(),
      plan: {
        version: plan.version,
        status,
        intervalWeeks: plan.interval_weeks,
        interval: intervalText(plan.interval_weeks),
        when: `${format(parseISO(plan.anchor_date), 'EEEE')}s at ${format(parseISO(`${plan.anchor_date}T${plan.start_time}`), 'h:mm aaa')}`,
        service: packageForPeople(template),
      },
      visits: shown.map((v) => visitOf(v, found, now)),
      intervals: planIntervalChoices(),
      // A stopped plan has nothing left to stop.
      view: status === 'stopped' ? 'plan' : view,
      notice: extras.notice ?? null,
      error: extras.error ?? null,
    };
  }

  const render = (reply: FastifyReply, status: number, state: PlanPageState) => reply.page({ path: PLAN_PAGE_PATH, status, state, cacheKey: false });
  const notFoundPage = (reply: FastifyReply) => reply.page({ status: 404 });
  const redirect = (reply: FastifyReply, token: string, done: Done) => reply.redirect(`${planPath(token)}?done=${done}`, 303);

  /**
   * A refused change: the page again with the reason (a visit no longer there is a conflict on
   * this page, not a missing page). A post repeated after it worked (a double click, a reload)
   * finds the change already made and is sent where the first one went.
   */
  async function refused(reply: FastifyReply, token: string, caught: unknown, done: Done, alreadyDone: (found: Found) => boolean) {
    const error = formError(caught);
    if (!error) throw caught;
    const current = await planOfToken(token);
    if (!current) return notFoundPage(reply);
    if ((error.statusCode === 409 || error.statusCode === 404) && alreadyDone(current)) return redirect(reply, token, done);
    reply.headers(error.headers);
    return render(reply, error.statusCode === 404 ? 409 : error.statusCode, stateOf(token, current, 'plan', { error: error.message }));
  }

  /** One change to the plan: found by the token, made, then back to the page with its notice. */
  async function change(reply: FastifyReply, token: string, done: Done, make: (found: Found) => Promise<unknown>, alreadyDone: (found: Found) => boolean) {
    const found = await planOfToken(token);
    if (!found) return notFoundPage(reply);
    try {
      await make(found);
      return redirect(reply, token, done);
    } catch (caught) {
      return refused(reply, token, caught, done, alreadyDone);
    }
  }

  const visitIn = (found: Found, dueDate: string) => found.visits.find((v) => v.due_date === dueDate);

  app.get(
    '/booking/manage/:token/plan',
    { schema: { hide: true, params: TokenParams, querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) }) } },
    async (request, reply) => {
      const { token } = request.params;
      const found = await planOfToken(token);
      if (!found) return notFoundPage(reply);
      return render(reply, 200, stateOf(token, found, 'plan', { notice: noticeOf(request.query.done, found) }));
    },
  );

  const post = { config: { limit: 'manage' as const, public: true } };

  app.post('/booking/manage/:token/plan/skip', { ...post, schema: { hide: true, params: TokenParams, body: SkipForm } }, async (request, reply) => {
    const { version, dueDate } = request.body;
    return change(
      reply,
      request.params.token,
      'skipped',
      (found) => skipVisit(app.db, found.plan.id, dueDate, { customer: true }, app.planOptions(), Number(version)),
      (found) => visitIn(found, dueDate)?.state === 'skipped',
    );
  });

  app.post('/booking/manage/:token/plan/choose', { ...post, schema: { hide: true, params: TokenParams, body: ChooseForm } }, async (request, reply) => {
    const { token } = request.params;
    const { version, dueDate, date, time } = request.body;
    const found = await planOfToken(token);
    if (!found) return notFoundPage(reply);
    const start: Start = { date, time };
    try {
      if (found.plan.version !== Number(version)) throw new PlanChangedError();
      const visit = visitIn(found, dueDate);
      if (!visit || visit.state !== 'needs-time') throw notFound(PLAN_MESSAGES.visitNotFound);
      // Only a time the visit was offered: one no longer offered (taken, or offered afresh since) is gone.
      if (!(visit.offered ?? []).some((s) => s.date === date && s.time === time)) throw new AppError(409, 'PLACEMENT_REFUSED', PLAN_MESSAGES.timeGone);
      const booked = await chooseVisitTime(app.db, found.plan.id, dueDate, start, app.planOptions(), Number(version));
      request.log.info({ bookingId: booked.id, planId: found.plan.id }, 'plan visit time chosen by the customer');
      return redirect(reply, token, 'chosen');
    } catch (caught) {
      // Taken meanwhile: the nearest free times now, offered in its place.
      if (caught instanceof AppError && caught.code === 'PLACEMENT_REFUSED') {
        await refreshOffers(app.db, found.plan.id, dueDate, app.planOptions());
        const current = await planOfToken(token);
        if (!current) return notFoundPage(reply);
        return render(reply, 409, stateOf(token, current, 'plan', { error: PLAN_MESSAGES.timeGone }));
      }
      return refused(reply, token, caught, 'chosen', (current) => visitIn(current, dueDate)?.state === 'booked');
    }
  });

  app.post('/booking/manage/:token/plan/pause', { ...post, schema: { hide: true, params: TokenParams, body: VersionForm } }, async (request, reply) =>
    change(
      reply,
      request.params.token,
      'paused',
      (found) => pausePlan(app.db, found.plan.id, app.planOptions(), Number(request.body.version)),
      (found) => found.plan.status === 'paused',
    ),
  );

  app.post('/booking/manage/:token/plan/resume', { ...post, schema: { hide: true, params: TokenParams, body: VersionForm } }, async (request, reply) =>
    change(
      reply,
      request.params.token,
      'resumed',
      (found) => resumePlan(app.db, found.plan.id, app.planOptions(), Number(request.body.version)),
      (found) => found.plan.status === 'active',
    ),
  );

  app.post('/booking/manage/:token/plan/interval', { ...post, schema: { hide: true, params: TokenParams, body: IntervalForm } }, async (request, reply) => {
    const weeks = Number(request.body.intervalWeeks);
    return change(
      reply,
      request.params.token,
      'interval',
      (found) => changeInterval(app.db, found.plan.id, weeks, { customer: true }, app.planOptions(), Number(request.body.version)),
      (found) => found.plan.status !== 'stopped' && found.plan.interval_weeks === weeks && found.plan.version !== Number(request.body.version),
    );
  });

  app.post('/booking/manage/:token/plan/stop', { ...post, schema: { hide: true, params: TokenParams, body: StopForm } }, async (request, reply) => {
    const { token } = request.params;
    if (request.body.confirm !== 'yes') {
      const found = await planOfToken(token);
      return found ? render(reply, 200, stateOf(token, found, 'stop')) : notFoundPage(reply);
    }
    return change(
      reply,
      token,
      'stopped',
      async (found) => {
        const stopped = await stopPlan(app.db, found.plan.id, { customer: true }, app.planOptions(), Number(request.body.version));
        request.log.info({ planId: stopped.id }, 'plan stopped by the customer');
      },
      (found) => found.plan.status === 'stopped',
    );
  });
};

export default route;
