/**
 * /booking/manage/{token}: a customer's own booking, opened by the link in their e-mails. They see
 * it, and until MANAGE_CUTOFF_HOURS before the appointment can cancel it or move it to another slot.
 *
 * A GET never changes anything (e-mail scanners follow links): the cancel and move pages are
 * confirmations, and only a POST that says `confirm=yes` makes the change. Posts are refused
 * cross-site by the same-origin hook, need the secret token in their address, and carry the
 * booking's version, so a change is made only to the booking as the customer saw it. Everything
 * works without JavaScript; each change redirects back to the page (POST/redirect/GET).
 *
 * A booking that is part of a maintenance plan (issue 43) says so and links to the plan's page
 * (./plan.ts, registered here so that the same headers apply); a visit of the plan can be kept
 * (the answer to the e-mail before it) or skipped (confirmed first, like a cancel), and an upcoming
 * booking not in a plan can be made one.
 *
 * The token is in the address, so every answer here is `no-store` and `Referrer-Policy:
 * same-origin`: no other site ever receives the address in a Referer. (`no-referrer` would make
 * browsers send `Origin: null` with the page's own form posts, which the same-origin hook refuses.)
 */
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { slotLabel, unavailableMessage } from '../../domain/availability.ts';
import { appointmentText, aucklandDate, aucklandTime, bookingWindow, dayText } from '../../domain/booking-dates.ts';
import { dateError, isCalendarDate } from '../../domain/booking-rules.ts';
import { VEHICLE_LABELS, isVehicleType, packageForPeople } from '../../domain/catalogue.ts';
import { MANAGE_MESSAGES, moveLimitExplanation, type ManageLock } from '../../domain/manage-rules.ts';
import { weatherMoveOpen } from '../../domain/weather-day.ts';
import type { Booking } from '../../db/database.ts';
import { AppError, formError, isConnectionError } from '../../errors.ts';
import { availabilityOn, bookedDuration, jobOfBooking, type SlotAvailability } from '../../services/scheduling.service.ts';
import {
  BookingChangedError,
  ManageLockedError,
  MoveLimitError,
  cancelByCustomer,
  confirmEmailByCustomer,
  findManagedBooking,
  lockOf,
  moveByCustomer,
  moveLimitReached,
  moveTargetErrors,
  type ManageOptions,
} from '../../services/manage-booking.service.ts';
import { manageKey } from '../../db/manage-link.repository.ts';
import { findPlanOfBooking, findVisitOfBooking } from '../../db/plans.repository.ts';
import { managePath, planPath } from '../../domain/manage-link.ts';
import { PLAN_MESSAGES, intervalText, isPlanStatus } from '../../domain/plans.ts';
import { keepVisit, skipVisit, startPlan } from '../../services/plans.service.ts';
import { confirmOffer, declineOffer } from '../../services/waitlist.service.ts';
import { WAITLIST_MESSAGES } from '../../domain/waitlist.ts';
import { MANAGE_PAGE_PATH } from '#client/routes.ts';
import type { ManagedBooking, ManageMove, ManagePlan, ManageState, ManageView } from '#client/page-state.ts';
import planPages, { planIntervalChoices } from './plan.ts';
import { toQuoteDto } from '../v1/schemas.ts';

const TokenParams = Type.Object({ token: Type.String({ maxLength: 100 }) });

const Version = Type.String({ pattern: '^[0-9]{1,9}$' });
const Confirm = Type.Optional(Type.Literal('yes'));
const DateText = Type.String({ maxLength: 20 });

const CancelForm = Type.Object({ version: Version, confirm: Confirm }, { additionalProperties: false });
const OfferForm = Type.Object({ version: Version, answer: Type.Union([Type.Literal('yes'), Type.Literal('no')]) }, { additionalProperties: false });
const PlanForm = Type.Object({ intervalWeeks: Type.String({ maxLength: 3 }) }, { additionalProperties: false });
const KeepForm = Type.Object({ version: Type.Optional(Version) }, { additionalProperties: false });
const MoveForm = Type.Object({ version: Version, date: Type.Optional(DateText), time: Type.Optional(Type.String({ maxLength: 10 })), confirm: Confirm }, { additionalProperties: false });

const DONE = {
  cancelled: MANAGE_MESSAGES.cancelled,
  moved: MANAGE_MESSAGES.moved,
  confirmed: MANAGE_MESSAGES.emailConfirmed,
  kept: PLAN_MESSAGES.kept,
  skipped: PLAN_MESSAGES.skipped,
  taken: WAITLIST_MESSAGES.confirmed,
  declined: WAITLIST_MESSAGES.declined,
} as const;

/** Pending or confirmed: a booking whose page opens (its appointment is to come) and that is still to happen. */
const isUpcoming = (booking: Booking) => booking.status === 'pending' || booking.status === 'confirmed';

function toManagedBooking(booking: Booking, business: { streetAddress: string; suburb: string; city: string; postcode: string }, now: Date): ManagedBooking {
  const dropoff = booking.service_type === 'dropoff';
  return {
    reference: booking.reference,
    service: packageForPeople(booking),
    vehicle: isVehicleType(booking.vehicle_type) ? VEHICLE_LABELS[booking.vehicle_type] : booking.vehicle_type,
    vehicles: booking.vehicles.length,
    date: booking.date,
    time: booking.time,
    when: appointmentText(booking.date, booking.time),
    where: dropoff
      ? { kind: 'dropoff', lines: [business.streetAddress, `${business.suburb}, ${business.city} ${business.postcode}`] }
      : {
          kind: 'onsite',
          lines: [`${booking.house_number} ${booking.street_address}`, `${booking.suburb}, ${booking.city} ${booking.postal_code}`, booking.region].filter((line) => line.trim() !== ''),
        },
    quote: toQuoteDto(booking),
    status: booking.status,
    version: booking.version,
    awaitingUntil: booking.awaiting_email_until ? appointmentText(aucklandDate(booking.awaiting_email_until), aucklandTime(booking.awaiting_email_until)) : null,
    weatherUntil:
      booking.weather_move_until && weatherMoveOpen(booking.weather_move_until, now)
        ? appointmentText(aucklandDate(booking.weather_move_until), aucklandTime(booking.weather_move_until))
        : null,
  };
}

const route: FastifyPluginAsyncTypebox = async (app) => {
  // The key is made at start, so that the first bookings never wait on each other to make it.
  app.database.addStartupTask('manage link key', async (db) => void (await manageKey(db)));

  // Encapsulated (this plugin is not wrapped in fp): the headers apply to these routes alone.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store').header('referrer-policy', 'same-origin');
    return payload;
  });

  const options = (): ManageOptions => ({
    now: app.now(),
    cutoffHours: app.config.manageCutoffHours,
    mail: app.mail,
    maxChanges: app.config.manageMaxChanges,
    phone: app.config.business.phone,
  });

  async function stateOf(token: string, booking: Booking, view: ManageView, extras: Partial<Pick<ManageState, 'notice' | 'error' | 'move'>> = {}): Promise<ManageState> {
    const lock: ManageLock | null = lockOf(booking, options());
    // Past MANAGE_MAX_CHANGES moves the booking can still be cancelled, but not moved online.
    const moveLimit = lock === null && (await moveLimitReached(app.db, booking, app.config.manageMaxChanges, app.now()));
    const moving = view === 'move' || view === 'confirm-move';
    const plan = await planOf(booking, lock);
    const closed = lock !== null || (moveLimit && moving) || (view === 'skip' && !plan?.visit?.canSkip);
    return {
      token,
      booking: toManagedBooking(booking, app.config.business, app.now()),
      // A booking that cannot be changed only has its overview.
      view: closed ? 'overview' : view,
      lock,
      cutoffHours: app.config.manageCutoffHours,
      moveLimit: moveLimit ? app.config.manageMaxChanges : null,
      notice: extras.notice ?? null,
      error: extras.error ?? null,
      move: closed || moveLimit ? null : (extras.move ?? null),
      plan,
      // Waiting for the customer's own confirmation (BOOKING_CONFIRMATION=email), it may yet lapse: a plan is offered once it is held.
      planIntervals: plan === null && isUpcoming(booking) && booking.awaiting_email_until === null ? planIntervalChoices() : null,
      offer:
        booking.status === 'offered' && booking.offer_expires_at && booking.offer_expires_at.getTime() > app.now().getTime()
          ? { text: WAITLIST_MESSAGES.offerHeld(booking.date, booking.time, appointmentText(aucklandDate(booking.offer_expires_at), aucklandTime(booking.offer_expires_at))) }
          : null,
    };
  }

  /** The plan the booking is part of, as its page shows it: whether it is a visit the customer can keep or skip now. */
  async function planOf(booking: Booking, lock: ManageLock | null): Promise<ManagePlan | null> {
    const plan = await findPlanOfBooking(app.db, booking.id);
    if (!plan) return null;
    const visit = await findVisitOfBooking(app.db, booking.id);
    const status = isPlanStatus(plan.status) ? plan.status : 'active';
    const open = visit?.state === 'booked' && isUpcoming(booking) && status !== 'stopped';
    return {
      interval: intervalText(plan.interval_weeks),
      status,
      // "Keep it" answers the e-mail before a visit the plan booked; the booking the plan was made from needs no answer.
      visit: open ? { canKeep: visit.kept_at === null && booking.id !== plan.booking_id, canSkip: lock === null } : null,
    };
  }

  const render = (reply: FastifyReply, status: number, state: ManageState) => reply.page({ path: MANAGE_PAGE_PATH, status, state, cacheKey: false });
  const notFoundPage = (reply: FastifyReply) => reply.page({ status: 404 });

  /**
   * A date's start times for this booking's job (its kind and duration, its own place not counted),
   * or null when the date is not valid (or the database is away: the change itself will say).
   */
  async function slotsOn(booking: Booking, date: string, errors: ManageMove['errors']): Promise<SlotAvailability[] | null> {
    if (!isCalendarDate(date) || errors.some((error) => error.field === 'date')) return null;
    try {
      return (await availabilityOn(app.db, date, jobOfBooking(booking), app.now())).slots;
    } catch (caught) {
      if (!isConnectionError(caught)) throw caught;
      return null;
    }
  }

  /** The move view for a date: its start times for the booking's job, with their ends, worded as the wizard words them. */
  function moveState(booking: Booking, date: string, time: string, slots: SlotAvailability[] | null, errors: ManageMove['errors'] = [], when: string | null = null): ManageMove {
    const window = bookingWindow(app.now());
    const shown = slots?.map((slot) => ({ time: slot.time, end: slot.end, available: slot.available, label: slotLabel(slot) })) ?? null;
    return { date, dateText: shown ? dayText(date) : null, minDate: window.min, maxDate: window.max, durationMinutes: bookedDuration(booking), slots: shown, time, when, errors };
  }

  app.get(
    '/booking/manage/:token',
    { schema: { hide: true, params: TokenParams, querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) }) } },
    async (request, reply) => {
      const { token } = request.params;
      const booking = await findManagedBooking(app.db, token, app.now());
      if (!booking) return notFoundPage(reply);
      const done = request.query.done;
      const visit = done === 'kept' || done === 'skipped' ? await findVisitOfBooking(app.db, booking.id) : undefined;
      // Only what is true of the booking: an address typed with ?done=cancelled does not say so.
      const notice =
        (done === 'cancelled' && booking.status === 'cancelled') ||
        (done === 'moved' && booking.status !== 'cancelled') ||
        (done === 'confirmed' && booking.status === 'pending' && booking.awaiting_email_until === null) ||
        (done === 'kept' && visit?.kept_at != null) ||
        (done === 'skipped' && visit?.state === 'skipped') ||
        (done === 'taken' && booking.status !== 'offered' && booking.status !== 'cancelled') ||
        (done === 'declined' && booking.status === 'cancelled')
          ? DONE[done]
          : null;
      return render(reply, 200, await stateOf(token, booking, 'overview', { notice }));
    },
  );

  app.get('/booking/manage/:token/cancel', { schema: { hide: true, params: TokenParams } }, async (request, reply) => {
    const { token } = request.params;
    const booking = await findManagedBooking(app.db, token, app.now());
    if (!booking) return notFoundPage(reply);
    return render(reply, 200, await stateOf(token, booking, 'cancel'));
  });

  // A plan's visit: skipping it is confirmed first, as a cancel is.
  app.get('/booking/manage/:token/skip', { schema: { hide: true, params: TokenParams } }, async (request, reply) => {
    const { token } = request.params;
    const booking = await findManagedBooking(app.db, token, app.now());
    if (!booking) return notFoundPage(reply);
    return render(reply, 200, await stateOf(token, booking, 'skip'));
  });

  app.get(
    '/booking/manage/:token/move',
    { schema: { hide: true, params: TokenParams, querystring: Type.Object({ date: Type.Optional(DateText) }) } },
    async (request, reply) => {
      const { token } = request.params;
      const booking = await findManagedBooking(app.db, token, app.now());
      if (!booking) return notFoundPage(reply);
      const date = request.query.date ?? '';
      const error = date ? dateError(date, bookingWindow(app.now())) : undefined;
      const errors = error ? [error] : [];
      return render(reply, errors.length > 0 ? 400 : 200, await stateOf(token, booking, 'move', { move: moveState(booking, date, '', await slotsOn(booking, date, errors), errors) }));
    },
  );

  /**
   * A refused change: the page again with the reason. A post repeated after it worked (a double
   * click, a reload) finds the change already made and is sent where the first one went.
   */
  async function refused(reply: FastifyReply, token: string, caught: unknown, view: ManageView, alreadyDone: (booking: Booking) => boolean, move?: () => Promise<ManageMove>) {
    const error = formError(caught);
    if (!error) throw caught;
    if (error.statusCode === 404) return notFoundPage(reply);
    const current = caught instanceof BookingChangedError || caught instanceof ManageLockedError || caught instanceof MoveLimitError ? caught.current : await findManagedBooking(app.db, token, app.now());
    if (!current) return notFoundPage(reply);
    if (error.statusCode === 409 && alreadyDone(current)) return reply.redirect(`${managePath(token)}?done=${view === 'cancel' ? 'cancelled' : 'moved'}`, 303);
    reply.headers(error.headers);
    // The booking changed under the customer: show it as it is now, to look at before trying again.
    const stale = caught instanceof BookingChangedError || caught instanceof ManageLockedError || caught instanceof MoveLimitError;
    return render(reply, error.statusCode, await stateOf(token, current, stale ? 'overview' : view, { error: error.message, move: stale || !move ? null : await move() }));
  }

  app.post(
    '/booking/manage/:token/cancel',
    { config: { limit: 'manage', public: true }, schema: { hide: true, params: TokenParams, body: CancelForm } },
    async (request, reply) => {
      const { token } = request.params;
      const version = Number(request.body.version);
      if (request.body.confirm !== 'yes') {
        const booking = await findManagedBooking(app.db, token, app.now());
        return booking ? render(reply, 200, await stateOf(token, booking, 'cancel')) : notFoundPage(reply);
      }
      try {
        const booking = await cancelByCustomer(app.db, token, version, options());
        request.log.info({ bookingId: booking.id }, 'booking cancelled by the customer');
        await app.offerFreedPlaces([booking.date]);
        return reply.redirect(`${managePath(token)}?done=cancelled`, 303);
      } catch (caught) {
        return refused(reply, token, caught, 'cancel', (current) => current.status === 'cancelled');
      }
    },
  );

  // BOOKING_CONFIRMATION=email: the customer confirms the booking that waits for them.
  app.post(
    '/booking/manage/:token/confirm-email',
    { config: { limit: 'manage', public: true }, schema: { hide: true, params: TokenParams, body: CancelForm } },
    async (request, reply) => {
      const { token } = request.params;
      try {
        const booking = await confirmEmailByCustomer(app.db, token, Number(request.body.version), options());
        request.log.info({ bookingId: booking.id }, 'booking confirmed from the e-mail link');
        return reply.redirect(`${managePath(token)}?done=confirmed`, 303);
      } catch (caught) {
        const error = formError(caught);
        if (!error) throw caught;
        const current = await findManagedBooking(app.db, token, app.now());
        if (!current || error.statusCode === 404) return notFoundPage(reply);
        // A second click (or a reload) after it worked: where the first one went.
        if (current.status === 'pending' && current.awaiting_email_until === null) return reply.redirect(`${managePath(token)}?done=confirmed`, 303);
        return render(reply, error.statusCode, await stateOf(token, current, 'overview', { error: error.message }));
      }
    },
  );

  app.post(
    '/booking/manage/:token/move',
    { config: { limit: 'manage', public: true }, schema: { hide: true, params: TokenParams, body: MoveForm } },
    async (request, reply) => {
      const { token } = request.params;
      const version = Number(request.body.version);
      const date = request.body.date ?? '';
      const time = request.body.time ?? '';
      const booking = await findManagedBooking(app.db, token, app.now());
      if (!booking) return notFoundPage(reply);
      if (request.body.confirm !== 'yes') {
        const limit = app.config.manageMaxChanges;
        if (lockOf(booking, options()) === null && (await moveLimitReached(app.db, booking, limit, app.now()))) {
          return render(reply, 409, await stateOf(token, booking, 'overview', { error: moveLimitExplanation(limit, app.config.business.phone) }));
        }
        // The choice is checked as far as it can be without taking the slot; the confirmation then
        // names the new time, and the change itself checks everything again.
        const errors = moveTargetErrors(date, time, app.now());
        if (errors.length === 0 && booking.date === date && booking.time === time) errors.push({ field: 'time', message: MANAGE_MESSAGES.sameSlot });
        const slots = await slotsOn(booking, date, errors);
        const reason = errors.length === 0 ? slots?.find((slot) => slot.time === time)?.reason : null;
        if (reason) {
          return render(reply, 409, await stateOf(token, booking, 'move', { move: moveState(booking, date, time, slots, [{ field: 'time', message: unavailableMessage(reason) }]) }));
        }
        const move = moveState(booking, date, time, slots, errors, errors.length === 0 ? appointmentText(date, time) : null);
        return render(reply, errors.length > 0 ? 400 : 200, await stateOf(token, booking, errors.length > 0 ? 'move' : 'confirm-move', { move }));
      }
      try {
        const moved = await moveByCustomer(app.db, token, version, { date, time }, options());
        request.log.info({ bookingId: moved.id, date: moved.date }, 'booking moved by the customer');
        // The place it left may be someone's on the waitlist.
        await app.offerFreedPlaces([booking.date]);
        return reply.redirect(`${managePath(token)}?done=moved`, 303);
      } catch (caught) {
        return refused(
          reply,
          token,
          caught,
          'move',
          (current) => current.date === date && current.time === time && current.version !== version,
          async () => moveState(booking, date, '', await slotsOn(booking, date, [])),
        );
      }
    },
  );

  // A place offered from the waitlist (issue 43): "Confirm" takes it, "No thanks" lets the next person have it.
  app.post(
    '/booking/manage/:token/offer',
    { config: { limit: 'manage', public: true }, schema: { hide: true, params: TokenParams, body: OfferForm } },
    async (request, reply) => {
      const { token } = request.params;
      const take = request.body.answer === 'yes';
      try {
        const booking = take
          ? await confirmOffer(app.db, token, Number(request.body.version), app.waitlistOptions())
          : await declineOffer(app.db, token, Number(request.body.version), app.waitlistOptions());
        request.log.info({ bookingId: booking.id }, take ? 'waitlist offer taken' : 'waitlist offer declined');
        if (!take) await app.offerFreedPlaces([booking.date]);
        return reply.redirect(`${managePath(token)}?done=${take ? 'taken' : 'declined'}`, 303);
      } catch (caught) {
        const error = formError(caught);
        if (!error) throw caught;
        const current = await findManagedBooking(app.db, token, app.now());
        if (!current || error.statusCode === 404) return notFoundPage(reply);
        // A second press (or a reload) after it worked: where the first one went.
        if (take && current.status === 'pending' && error.statusCode === 409) return reply.redirect(`${managePath(token)}?done=taken`, 303);
        if (!take && current.status === 'cancelled' && error.statusCode === 409) return reply.redirect(`${managePath(token)}?done=declined`, 303);
        return render(reply, error.statusCode, await stateOf(token, current, 'overview', { error: error.message }));
      }
    },
  );

  /** A plan change refused: the booking's page again with the reason (a missing visit or plan is a conflict there, not a missing page). */
  async function planRefused(reply: FastifyReply, token: string, caught: unknown) {
    const error = formError(caught);
    if (!error) throw caught;
    const current = await findManagedBooking(app.db, token, app.now());
    if (!current) return notFoundPage(reply);
    reply.headers(error.headers);
    return render(reply, error.statusCode === 404 ? 409 : error.statusCode, await stateOf(token, current, 'overview', { error: error.message }));
  }

  // "Make this a regular valet": the booking becomes the first visit of a plan (issue 43).
  app.post(
    '/booking/manage/:token/plan',
    { config: { limit: 'manage', public: true }, schema: { hide: true, params: TokenParams, body: PlanForm } },
    async (request, reply) => {
      const { token } = request.params;
      const booking = await findManagedBooking(app.db, token, app.now());
      if (!booking) return notFoundPage(reply);
      if (booking.awaiting_email_until !== null) return render(reply, 409, await stateOf(token, booking, 'overview', { error: PLAN_MESSAGES.confirmFirst }));
      try {
        const plan = await startPlan(app.db, booking.id, Number(request.body.intervalWeeks), { customer: true }, app.planOptions());
        request.log.info({ bookingId: booking.id, planId: plan.id }, 'plan made by the customer');
        return reply.redirect(`${planPath(token)}?done=started`, 303);
      } catch (caught) {
        return planRefused(reply, token, caught);
      }
    },
  );

  // "Keep it": the answer to the e-mail before a plan's visit, one press.
  app.post(
    '/booking/manage/:token/keep',
    { config: { limit: 'manage', public: true }, schema: { hide: true, params: TokenParams, body: KeepForm } },
    async (request, reply) => {
      const { token } = request.params;
      const booking = await findManagedBooking(app.db, token, app.now());
      if (!booking) return notFoundPage(reply);
      const visit = await findVisitOfBooking(app.db, booking.id);
      // Pressed twice (or reloaded): kept already, where the first press went.
      if (visit?.kept_at != null) return reply.redirect(`${managePath(token)}?done=kept`, 303);
      if (visit?.state !== 'booked' || !isUpcoming(booking)) {
        return render(reply, 409, await stateOf(token, booking, 'overview', { error: visit ? PLAN_MESSAGES.visitNotUpcoming : PLAN_MESSAGES.visitNotFound }));
      }
      try {
        if (!(await keepVisit(app.db, booking, app.planOptions()))) throw new AppError(409, 'CONFLICT', PLAN_MESSAGES.visitNotUpcoming);
        request.log.info({ bookingId: booking.id }, 'plan visit kept by the customer');
        return reply.redirect(`${managePath(token)}?done=kept`, 303);
      } catch (caught) {
        return planRefused(reply, token, caught);
      }
    },
  );

  // Skip a plan's visit: its booking is cancelled, the plan carries on. The form carries the booking's version, as a cancel does.
  app.post(
    '/booking/manage/:token/skip',
    { config: { limit: 'manage', public: true }, schema: { hide: true, params: TokenParams, body: CancelForm } },
    async (request, reply) => {
      const { token } = request.params;
      const booking = await findManagedBooking(app.db, token, app.now());
      if (!booking) return notFoundPage(reply);
      if (request.body.confirm !== 'yes') return render(reply, 200, await stateOf(token, booking, 'skip'));
      const [plan, visit] = await Promise.all([findPlanOfBooking(app.db, booking.id), findVisitOfBooking(app.db, booking.id)]);
      if (visit?.state === 'skipped') return reply.redirect(`${managePath(token)}?done=skipped`, 303);
      if (booking.version !== Number(request.body.version)) return render(reply, 409, await stateOf(token, booking, 'overview', { error: MANAGE_MESSAGES.changedMeanwhile }));
      const lock = lockOf(booking, options());
      if (lock) return render(reply, 409, await stateOf(token, booking, 'overview', { error: MANAGE_MESSAGES.locked[lock] }));
      if (!plan || !visit) return render(reply, 409, await stateOf(token, booking, 'overview', { error: PLAN_MESSAGES.visitNotFound }));
      try {
        await skipVisit(app.db, plan.id, visit.due_date, { customer: true }, app.planOptions(), undefined, booking.version);
        request.log.info({ bookingId: booking.id, planId: plan.id }, 'plan visit skipped by the customer');
        return reply.redirect(`${managePath(token)}?done=skipped`, 303);
      } catch (caught) {
        return planRefused(reply, token, caught);
      }
    },
  );

  // The plan's own page, under the same headers.
  await app.register(planPages);
};

export default route;

