/**
 * Maintenance plans (issue 43): a booking's job again every 2, 3, 4, 6, 8 or 12 weeks, same
 * weekday and start, same job and address. Each visit is an ordinary booking, taken through the
 * one engine (createBooking: the rules, the kind's day lock, the scheduling engine, the exclusion
 * constraint, the confirmation e-mail), so a plan can never double-book a van.
 *
 * The plan's row is locked (FOR UPDATE) by every writer of the plan before anything else it
 * locks: the extension booking a visit, the customer or staff skipping, pausing, changing or
 * stopping it. A visit is recorded by its due date (primary key), so two instances extending the
 * same plan at once book it once. A visit that does not fit at its own start is placed at the
 * nearest start that fits (src/domain/plans.ts, nearestStarts: the same day, then the day after,
 * the day before, two days after, two days before); when none does, it waits as "needs a time"
 * and the customer is e-mailed the nearest free times to choose from.
 *
 * Each visit copies the job, address and details of the booking the plan was made from, priced
 * and timed by the catalogue, hours and zones as they are when the visit is booked: a change of
 * those never touches a visit already booked.
 */
import type { Kysely } from 'kysely';
import type { Booking, Database, Plan } from '../db/database.ts';
import type { PlanConfig } from '../config.ts';
import type { BookingInput } from '../domain/booking-rules.ts';
import { jobOf } from '../domain/booking-rules.ts';
import { addDaysToDay, todayInAuckland } from '../domain/booking-dates.ts';
import { jobLines, linesMinutes } from '../domain/job.ts';
import { manageLock } from '../domain/manage-rules.ts';
import {
  NEAR_DAY_OFFSETS,
  OFFERED_TIMES,
  OFFER_SEARCH_DAYS,
  PLAN_MESSAGES,
  closestStarts,
  intervalText,
  isPlanInterval,
  nearestStarts,
  planVisitDates,
  type Start,
} from '../domain/plans.ts';
import { bookingInputOf } from '../db/booking-input.ts';
import { findBooking, insertStatusChange, updateStatusIfVersion } from '../db/bookings.repository.ts';
import { skipQueuedReminders } from '../db/outbox.repository.ts';
import {
  deleteVisitsAfter,
  findPlan,
  findPlanOfBooking,
  findVisit,
  insertPlan,
  insertVisit,
  lockPlanRow,
  markVisitKept,
  plansToExtend,
  setVisit,
  updatePlan,
  visitsOf,
  type VisitWithBooking,
} from '../db/plans.repository.ts';
import { AppError, conflict, isOverlapViolation, notFound, validationFailed } from '../errors.ts';
import type { MailContext } from '../mail/mail-context.ts';
import { queueBookingMail } from '../mail/booking-mail.ts';
import { queueBookingWebhook } from '../webhooks/queue.ts';
import { queuePlanMail } from '../mail/plan-mail.ts';
import { createBooking } from './booking.service.ts';
import { PlacementRefusedError, availabilitySummary, availabilityOn, kindOf, type JobQuery } from './scheduling.service.ts';

/** Who the history names for what the plan itself does. */
export const PLAN_ACTOR = 'Regular plan';

export interface PlanOptions {
  now: Date;
  mail: MailContext;
  plans: PlanConfig;
  /** MANAGE_CUTOFF_HOURS: a customer skips a visit until this many hours before it (staff any time). */
  cutoffHours: number;
}

/** Who acts on a plan: the customer from their link (held to the notice period), or a member of staff. */
export type PlanActor = { customer: true } | { customer: false; by: string };

const actorName = (actor: PlanActor) => (actor.customer ? 'Customer' : actor.by);

/** 409: the plan changed since the page showed it (another tab, staff, the extension). */
export class PlanChangedError extends AppError {
  constructor() {
    super(409, 'STALE_PLAN', 'Your plan was changed a moment ago, so we did not change it. Please check it below and try again.');
  }
}

const stoppedError = () => new AppError(409, 'PLAN_STOPPED', PLAN_MESSAGES.stopped);

/** The input a visit is booked with: the plan's booking's details and job, at another start. */
export function visitInput(template: Booking, start: Start): BookingInput {
  return {
    ...bookingInputOf(template),
    service: '',
    coatingType: '',
    vehicleType: '',
    selectedVehicleType: '',
    vehicles: template.vehicles.map((v) => ({ ...v, addOns: [...v.addOns] })),
    date: start.date,
    time: start.time,
  };
}

/** The job a visit asks the engine about, by today's catalogue; undefined when it no longer has the package. */
function visitJob(template: Booking, business: MailContext['business']): JobQuery | undefined {
  const lines = jobLines(jobOf(visitInput(template, { date: template.date, time: template.time })).vehicles);
  if (!lines) return undefined;
  const kind = kindOf(template.service_type);
  return { durationMinutes: linesMinutes(lines), kinds: [kind], ...(kind === 'onsite' ? { where: { postalCode: template.postal_code, business } } : {}) };
}

/** The starts free for the job on these dates (outside the booking window: none). */
async function freeStarts(db: Kysely<Database>, dates: readonly string[], job: JobQuery, now: Date): Promise<Start[]> {
  const starts: Start[] = [];
  for (const date of dates) {
    const day = await availabilityOn(db, date, job, now);
    for (const slot of day.slots) if (slot.available) starts.push({ date, time: slot.time });
  }
  return starts;
}

/** The nearest free starts to a due visit within OFFER_SEARCH_DAYS either side: what a visit that needs a time is offered. */
async function offersFor(db: Kysely<Database>, due: string, time: string, job: JobQuery, now: Date): Promise<Start[]> {
  const summary = await availabilitySummary(db, addDaysToDay(due, -OFFER_SEARCH_DAYS), addDaysToDay(due, OFFER_SEARCH_DAYS), job, now);
  const open = summary.filter((d) => d.availableStarts > 0).map((d) => d.date);
  return closestStarts(due, time, await freeStarts(db, open, job, now), OFFERED_TIMES);
}

/** The status a visit is booked in: confirmed when the business confirmed the plan's booking, pending (for staff to confirm) otherwise. */
const visitStatus = (template: Booking): 'pending' | 'confirmed' => (template.status === 'confirmed' || template.status === 'completed' ? 'confirmed' : 'pending');

/** A refusal of the engine or the constraint: the start is taken, try the next. */
const isTaken = (error: unknown) => error instanceof PlacementRefusedError || isOverlapViolation(error);

/**
 * Books one start for a due visit, in a transaction of its own under the plan's row lock: the
 * booking (through createBooking), its visit row and its history entry naming the plan. Null when
 * the plan stopped or paused, or the visit was recorded meanwhile.
 */
async function bookVisitAt(
  db: Kysely<Database>,
  planId: string,
  due: string,
  start: Start,
  options: PlanOptions,
  expect: 'absent' | 'needs-time',
  version?: number,
): Promise<Booking | null> {
  return db.transaction().execute(async (trx) => {
    const plan = await lockPlanRow(trx, planId);
    if (!plan || (expect === 'absent' && plan.status !== 'active') || plan.status === 'stopped') return null;
    if (version !== undefined && plan.version !== version) throw new PlanChangedError();
    const visit = await findVisit(trx, planId, due);
    if (expect === 'absent' ? visit !== undefined : visit?.state !== 'needs-time') return null;
    const template = await findBooking(trx, plan.booking_id);
    if (!template) return null;
    const booking = await createBooking(trx, visitInput(template, start), {
      now: options.now,
      maxActivePerEmail: 0,
      mail: options.mail,
      plan: { status: visitStatus(template), discountPercent: options.plans.discountPercent },
    });
    if (visit) await setVisit(trx, planId, due, { state: 'booked', booking_id: booking.id, offered: null });
    else await insertVisit(trx, { plan_id: planId, due_date: due, state: 'booked', booking_id: booking.id });
    await insertStatusChange(trx, {
      booking_id: booking.id,
      from_status: booking.status,
      to_status: booking.status,
      changed_by: PLAN_ACTOR,
      note: `Booked by the regular plan (${intervalText(plan.interval_weeks)}) made from ${template.reference}`,
    });
    return booking;
  });
}

/** What became of a due visit. */
export type VisitOutcome = 'booked' | 'needs-time' | 'already' | 'inactive';

/**
 * Books the visit due on `due`: at the nearest start that fits, or, when none does, records it as
 * needing a time and e-mails the customer the nearest free times.
 */
export async function placeVisit(db: Kysely<Database>, planId: string, due: string, options: PlanOptions): Promise<VisitOutcome> {
  const plan = await findPlan(db, planId);
  if (!plan || plan.status !== 'active') return 'inactive';
  const template = await findBooking(db, plan.booking_id);
  if (!template) return 'inactive';
  const job = visitJob(template, options.mail.business);
  const near = job ? nearestStarts(due, plan.start_time, await freeStarts(db, NEAR_DAY_OFFSETS.map((d) => addDaysToDay(due, d)), job, options.now)) : [];
  for (const start of near) {
    try {
      return (await bookVisitAt(db, planId, due, start, options, 'absent')) ? 'booked' : 'already';
    } catch (caught) {
      // Taken between the engine's answer and the booking: the next nearest.
      if (!isTaken(caught)) throw caught;
    }
  }
  const offered = job ? await offersFor(db, due, plan.start_time, job, options.now) : [];
  const recorded = await db.transaction().execute(async (trx) => {
    const locked = await lockPlanRow(trx, planId);
    if (!locked || locked.status !== 'active') return false;
    if (!(await insertVisit(trx, { plan_id: planId, due_date: due, state: 'needs-time', offered }))) return false;
    const current = await findBooking(trx, locked.booking_id);
    if (current) await queuePlanMail(trx, 'plan-needs-time', current, { intervalWeeks: locked.interval_weeks, due: { date: due, time: locked.start_time }, offered }, options.mail);
    return true;
  });
  return recorded ? 'needs-time' : 'already';
}

/** The last date a plan books visits up to today: PLAN_HORIZON_WEEKS ahead. */
export const horizonOf = (now: Date, plans: PlanConfig) => addDaysToDay(todayInAuckland(now), plans.horizonWeeks * 7);

/**
 * Books the plan's visits due up to the horizon that are not recorded yet (never a date before
 * tomorrow: a visit the extension comes to late is not booked in the past), then records how far
 * it got. A failure part way leaves booked_through where it was, so the next run carries on.
 */
export async function extendPlan(db: Kysely<Database>, planId: string, options: PlanOptions): Promise<VisitOutcome[]> {
  const plan = await findPlan(db, planId);
  if (!plan || plan.status !== 'active') return [];
  const through = horizonOf(options.now, options.plans);
  const today = todayInAuckland(options.now);
  const after = plan.booked_through > today ? plan.booked_through : today;
  const outcomes: VisitOutcome[] = [];
  for (const due of planVisitDates(plan.anchor_date, plan.interval_weeks, after, through)) outcomes.push(await placeVisit(db, planId, due, options));
  if (through > plan.booked_through) {
    await db.transaction().execute(async (trx) => {
      const locked = await lockPlanRow(trx, planId);
      // Paused, stopped or re-anchored meanwhile: its writer set where it stands.
      if (locked && locked.status === 'active' && locked.version === plan.version && locked.booked_through < through) await updatePlan(trx, planId, { booked_through: through });
    });
  }
  return outcomes;
}

/** The extension's pass: every active plan whose visits are not booked up to the horizon. The number of plans extended. */
export async function extendDuePlans(db: Kysely<Database>, options: PlanOptions, batch = 200): Promise<number> {
  const ids = await plansToExtend(db, horizonOf(options.now, options.plans), batch);
  for (const id of ids) await extendPlan(db, id, options);
  return ids.length;
}

/** A plan with its visits as they are now. */
export interface PlanWithVisits {
  plan: Plan;
  template: Booking;
  visits: VisitWithBooking[];
}

export async function planWithVisits(db: Kysely<Database>, planId: string): Promise<PlanWithVisits | undefined> {
  const plan = await findPlan(db, planId);
  if (!plan) return undefined;
  const template = await findBooking(db, plan.booking_id);
  if (!template) return undefined;
  return { plan, template, visits: await visitsOf(db, planId) };
}

/**
 * Makes a booking the first visit of a plan every `intervalWeeks` weeks, on its weekday at its
 * start, and books the visits up to the horizon. The booking must be upcoming and not cancelled,
 * and not part of a plan already.
 */
export async function startPlan(db: Kysely<Database>, bookingId: string, intervalWeeks: unknown, actor: PlanActor, options: PlanOptions): Promise<Plan> {
  if (!isPlanInterval(intervalWeeks)) throw validationFailed([{ field: 'intervalWeeks', message: PLAN_MESSAGES.intervalRequired }]);
  const plan = await db.transaction().execute(async (trx) => {
    // The booking's row first: two requests to make a plan of it take turns.
    const booking = await trx.selectFrom('bookings').selectAll().where('id', '=', bookingId).forUpdate().executeTakeFirst();
    if (!booking) throw notFound('Booking not found');
    const upcoming = manageLock(booking.status, booking.starts_at.getTime() - options.now.getTime(), 0) === null;
    if (!upcoming) throw conflict(PLAN_MESSAGES.notPlannable);
    if (await findPlanOfBooking(trx, booking.id)) throw conflict(PLAN_MESSAGES.alreadyPlanned);
    const created = await insertPlan(trx, { booking_id: booking.id, interval_weeks: intervalWeeks, anchor_date: booking.date, start_time: booking.time, created_by: actorName(actor) });
    await insertVisit(trx, { plan_id: created.id, due_date: booking.date, state: 'booked', booking_id: booking.id });
    await insertStatusChange(trx, {
      booking_id: booking.id,
      from_status: booking.status,
      to_status: booking.status,
      changed_by: actorName(actor),
      note: `Made a regular plan: ${intervalText(intervalWeeks)}`,
    });
    return created;
  });
  await extendPlan(db, plan.id, options);
  return (await findPlan(db, plan.id)) ?? plan;
}

/** The plan locked, at the version the caller saw (when given) and not stopped. */
async function lockedPlan(trx: Kysely<Database>, planId: string, version: number | undefined): Promise<Plan> {
  const plan = await lockPlanRow(trx, planId);
  if (!plan) throw notFound(PLAN_MESSAGES.notFound);
  if (version !== undefined && plan.version !== version) throw new PlanChangedError();
  if (plan.status === 'stopped') throw stoppedError();
  return plan;
}

/** Whether the actor may still change this visit's booking: staff any time before it; the customer until the notice period. */
function changeableBy(actor: PlanActor, booking: Booking, options: PlanOptions): boolean {
  return manageLock(booking.status, booking.starts_at.getTime() - options.now.getTime(), actor.customer ? options.cutoffHours : 0) === null;
}

/**
 * Cancels a visit's booking as part of a plan change, without its own e-mail (the plan's one lists
 * it): its reminders are dropped, and booking.cancelled goes to the webhooks (issue 44) as for any
 * cancellation.
 */
async function cancelVisitBooking(trx: Kysely<Database>, booking: Booking, by: string, note: string, mail: MailContext): Promise<Booking | undefined> {
  const updated = await updateStatusIfVersion(trx, booking.id, booking.version, 'cancelled');
  if (!updated) throw new PlanChangedError();
  await insertStatusChange(trx, { booking_id: booking.id, from_status: booking.status, to_status: 'cancelled', changed_by: by, note });
  await skipQueuedReminders(trx, booking.id, note);
  await queueBookingWebhook(trx, 'booking.cancelled', updated, mail);
  return updated;
}

/**
 * Skips one visit: its booking is cancelled (with the usual cancellation e-mail and the calendar's
 * cancellation), or, when it waits for a time, it stops waiting. The plan carries on.
 */
export async function skipVisit(
  db: Kysely<Database>,
  planId: string,
  dueDate: string,
  actor: PlanActor,
  options: PlanOptions,
  version?: number,
  /** The visit's booking at the version the customer saw (its manage page): checked under the plan's lock. */
  bookingVersion?: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockedPlan(trx, planId, version);
    const visit = await findVisit(trx, planId, dueDate);
    if (!visit || visit.state === 'skipped') throw notFound(PLAN_MESSAGES.visitNotFound);
    if (visit.state === 'booked') {
      const booking = await findBooking(trx, visit.booking_id!);
      if (!booking || !changeableBy(actor, booking, options)) throw conflict(PLAN_MESSAGES.visitNotUpcoming);
      if (bookingVersion !== undefined && booking.version !== bookingVersion) throw new PlanChangedError();
      const updated = await updateStatusIfVersion(trx, booking.id, booking.version, 'cancelled');
      if (!updated) throw new PlanChangedError();
      await insertStatusChange(trx, { booking_id: booking.id, from_status: booking.status, to_status: 'cancelled', changed_by: actorName(actor), note: 'Visit skipped (regular plan)' });
      await queueBookingMail(trx, { type: 'cancelled', bookingId: booking.id, booking: updated, by: actor.customer ? 'customer' : 'staff' }, options.mail);
    }
    await setVisit(trx, planId, dueDate, { state: 'skipped', offered: null });
  });
}

/** The upcoming booked visits of the plan (not cancelled, not started), as of `now`. */
function upcomingVisits(visits: readonly VisitWithBooking[], now: Date): (VisitWithBooking & { booking: Booking })[] {
  return visits.filter((v): v is VisitWithBooking & { booking: Booking } => v.state === 'booked' && v.booking !== null && manageLock(v.booking.status, v.booking.starts_at.getTime() - now.getTime(), 0) === null);
}

/** Pauses the plan: no visits are booked until it is resumed; those booked already stay. */
export async function pausePlan(db: Kysely<Database>, planId: string, options: Pick<PlanOptions, 'now'>, version?: number): Promise<Plan> {
  return db.transaction().execute(async (trx) => {
    const plan = await lockedPlan(trx, planId, version);
    if (plan.status === 'paused') return plan;
    return updatePlan(trx, planId, { status: 'paused' });
  });
}

/** Resumes a paused plan: visits are booked again from tomorrow up to the horizon (those that fell due while it was paused are not). */
export async function resumePlan(db: Kysely<Database>, planId: string, options: PlanOptions, version?: number): Promise<Plan> {
  await db.transaction().execute(async (trx) => {
    const plan = await lockedPlan(trx, planId, version);
    if (plan.status === 'active') return;
    const today = todayInAuckland(options.now);
    await updatePlan(trx, planId, { status: 'active', booked_through: plan.booked_through > today ? plan.booked_through : today });
  });
  await extendPlan(db, planId, options);
  return (await findPlan(db, planId))!;
}

/**
 * Changes the interval: the next visit stays as it is and becomes the plan's anchor; the visits
 * booked after it at the old interval are cancelled (one e-mail lists them), and the new ones are
 * booked, each with its own confirmation.
 */
export async function changeInterval(db: Kysely<Database>, planId: string, intervalWeeks: unknown, actor: PlanActor, options: PlanOptions, version?: number): Promise<Plan> {
  if (!isPlanInterval(intervalWeeks)) throw validationFailed([{ field: 'intervalWeeks', message: PLAN_MESSAGES.intervalRequired }]);
  await db.transaction().execute(async (trx) => {
    const plan = await lockedPlan(trx, planId, version);
    if (plan.interval_weeks === intervalWeeks) throw validationFailed([{ field: 'intervalWeeks', message: PLAN_MESSAGES.sameInterval }]);
    const today = todayInAuckland(options.now);
    const visits = await visitsOf(trx, planId);
    // The next visit still to come (booked or waiting for a time), else the next date the old interval would have had.
    const next = visits.find((v) => v.due_date > today && v.state !== 'skipped');
    const anchor = next?.due_date ?? planVisitDates(plan.anchor_date, plan.interval_weeks, today, addDaysToDay(today, plan.interval_weeks * 7))[0]!;
    const cancelled = [];
    for (const visit of upcomingVisits(visits, options.now)) {
      if (visit.due_date <= anchor) continue;
      await cancelVisitBooking(trx, visit.booking, actorName(actor), `Cancelled: the regular plan now repeats ${intervalText(intervalWeeks)}`, options.mail);
      cancelled.push({ date: visit.booking.date, time: visit.booking.time, reference: visit.booking.reference });
    }
    await deleteVisitsAfter(trx, planId, anchor);
    await updatePlan(trx, planId, { interval_weeks: intervalWeeks, anchor_date: anchor, booked_through: anchor });
    const template = await findBooking(trx, plan.booking_id);
    if (template) await queuePlanMail(trx, 'plan-changed', template, { intervalWeeks, cancelled }, options.mail);
  });
  await extendPlan(db, planId, options);
  return (await findPlan(db, planId))!;
}

/** Stops the plan: its upcoming visits are cancelled, with one e-mail that lists them; visits waiting for a time stop waiting. */
export async function stopPlan(db: Kysely<Database>, planId: string, actor: PlanActor, options: PlanOptions, version?: number): Promise<Plan> {
  return db.transaction().execute(async (trx) => {
    const plan = await lockedPlan(trx, planId, version);
    const visits = await visitsOf(trx, planId);
    const cancelled = [];
    for (const visit of upcomingVisits(visits, options.now)) {
      // The visit the plan was made from is the customer's own booking: stopping the plan leaves it.
      if (visit.booking.id === plan.booking_id) continue;
      await cancelVisitBooking(trx, visit.booking, actorName(actor), 'Cancelled: the regular plan was stopped', options.mail);
      cancelled.push({ date: visit.booking.date, time: visit.booking.time, reference: visit.booking.reference });
    }
    for (const visit of visits) if (visit.state === 'needs-time') await setVisit(trx, planId, visit.due_date, { state: 'skipped', offered: null });
    const stopped = await updatePlan(trx, planId, { status: 'stopped', stopped_at: options.now });
    const template = await findBooking(trx, plan.booking_id);
    if (template) await queuePlanMail(trx, 'plan-stopped', template, { intervalWeeks: plan.interval_weeks, cancelled }, options.mail);
    return stopped;
  });
}

/** "Keep it": the customer answers the e-mail before a visit; recorded on the visit and in its history. False when the booking is not a plan's visit. */
export async function keepVisit(db: Kysely<Database>, booking: Booking, options: Pick<PlanOptions, 'now'>): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await markVisitKept(trx, booking.id, options.now))) return false;
    await insertStatusChange(trx, { booking_id: booking.id, from_status: booking.status, to_status: booking.status, changed_by: 'Customer', note: 'Kept from the e-mail before the visit' });
    return true;
  });
}

/** The customer (or staff) chooses a start for a visit that needs a time: booked there, or a 409 when it was taken meanwhile. */
export async function chooseVisitTime(db: Kysely<Database>, planId: string, dueDate: string, start: Start, options: PlanOptions, version?: number): Promise<Booking> {
  const visit = await findVisit(db, planId, dueDate);
  if (!visit || visit.state !== 'needs-time') throw notFound(PLAN_MESSAGES.visitNotFound);
  try {
    const booked = await bookVisitAt(db, planId, dueDate, start, options, 'needs-time', version);
    if (!booked) throw new PlanChangedError();
    return booked;
  } catch (caught) {
    if (!isTaken(caught)) throw caught;
    throw new AppError(409, 'PLACEMENT_REFUSED', PLAN_MESSAGES.timeGone, [{ field: 'time', message: PLAN_MESSAGES.timeGone }]);
  }
}

/** Offers the visit's nearest free times again (after the ones offered were taken), stored on the visit. */
export async function refreshOffers(db: Kysely<Database>, planId: string, dueDate: string, options: PlanOptions): Promise<Start[]> {
  const found = await planWithVisits(db, planId);
  const job = found && visitJob(found.template, options.mail.business);
  if (!found || !job) return [];
  const offered = await offersFor(db, dueDate, found.plan.start_time, job, options.now);
  await db.transaction().execute(async (trx) => {
    const visit = await findVisit(trx, planId, dueDate);
    if (visit?.state === 'needs-time') await setVisit(trx, planId, dueDate, { state: 'needs-time', offered });
  });
  return offered;
}
