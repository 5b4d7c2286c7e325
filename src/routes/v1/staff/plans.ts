/**
 * The staff side of maintenance plans (issue 43): the dashboard's Plans view lists them (by status,
 * by customer, or the plan of one booking) and opens one with its visits; staff make a plan of an
 * upcoming booking, pause, resume, stop it or change its interval, skip a visit, and book a visit
 * that waits for a time at any start that fits. Every change goes through the plans service
 * (src/services/plans.service.ts), under the plan's row lock; a change may name the plan's
 * `version` the staff member saw, and is refused (409) when someone changed the plan since.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorSchema } from '#api/schemas.ts';
import { PlanDetailsSchema, PlanIntervalSchema, PlanListSchema, type PlanDetailsDto, type PlanDto, type PlanVisitDto } from '#api/plan-schemas.ts';
import { todayInAuckland } from '../../../domain/booking-dates.ts';
import { weekdayOf } from '../../../domain/availability.ts';
import { PLAN_STATUSES, PLAN_MESSAGES, type PlanStatus } from '../../../domain/plans.ts';
import { findPlanOfBooking, listPlans, type PlanListRow, type VisitWithBooking } from '../../../db/plans.repository.ts';
import type { Plan } from '../../../db/database.ts';
import { notFound } from '../../../errors.ts';
import {
  changeInterval,
  chooseVisitTime,
  pausePlan,
  planWithVisits,
  resumePlan,
  skipVisit,
  startPlan,
  stopPlan,
  type PlanActor,
  type PlanWithVisits,
} from '../../../services/plans.service.ts';
import { IdParams, staffErrorResponses } from '../schemas.ts';

const Version = Type.Optional(Type.Integer({ minimum: 1, description: "The plan's version the change is based on; absent: whatever it is now" }));
const VersionBody = Type.Object({ version: Version }, { additionalProperties: false, description: 'May be left out: the change then applies to the plan as it is' });

/** A change whose body is only the optional version may be sent without one. */
const noBodyIsEmpty = (request: { body: unknown }, _reply: unknown, done: () => void) => {
  request.body ??= {};
  done();
};
const VisitParams = Type.Object({ id: Type.String({ format: 'uuid' }), dueDate: Type.String({ format: 'date', description: "The visit's due date, YYYY-MM-DD" }) });

/** The answers of a change to a plan: the plan as it is now, or why not. */
const changeResponses = { 200: PlanDetailsSchema, 404: ErrorSchema, 409: ErrorSchema, ...staffErrorResponses } as const;
const REFUSALS = '404: no such plan. 409: the plan was changed since `version` (STALE_PLAN), or it is stopped.';

const serviceType = (value: string): PlanDto['serviceType'] => (value === 'dropoff' ? 'dropoff' : 'onsite');
const status = (value: string): PlanStatus => ((PLAN_STATUSES as readonly string[]).includes(value) ? (value as PlanStatus) : 'stopped');

function toPlanListDto(row: PlanListRow): PlanDto {
  return {
    id: row.id,
    status: status(row.status),
    intervalWeeks: row.interval_weeks,
    weekday: weekdayOf(row.anchor_date),
    time: row.start_time,
    bookingId: row.booking_id,
    customer: { name: row.name, email: row.email, phone: row.phone },
    serviceType: serviceType(row.service_type),
    nextVisit: row.next_date && row.next_time ? { date: row.next_date, time: row.next_time } : null,
    needsTime: row.needs_time,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
  };
}

function toVisitDto(visit: VisitWithBooking): PlanVisitDto {
  const { booking } = visit;
  return {
    dueDate: visit.due_date,
    state: visit.state === 'needs-time' || visit.state === 'skipped' ? visit.state : 'booked',
    booking: booking && { id: booking.id, reference: booking.reference, date: booking.date, time: booking.time, status: booking.status },
    offered: visit.offered ?? [],
    keptAt: visit.kept_at?.toISOString() ?? null,
  };
}

/** A plan with its visits, its next visit and its visits waiting for a time counted as the list counts them (listPlans). */
function toPlanDetailsDto({ plan, template, visits }: PlanWithVisits, today: string): PlanDetailsDto {
  const next = visits
    .filter((v) => v.state === 'booked' && v.booking && (v.booking.status === 'pending' || v.booking.status === 'confirmed') && v.booking.date >= today)
    .map((v) => v.booking!)
    .sort((a, b) => a.date.localeCompare(b.date) || a.time.localeCompare(b.time))[0];
  return {
    ...toPlanListDto({
      id: plan.id,
      status: plan.status,
      interval_weeks: plan.interval_weeks,
      start_time: plan.start_time,
      anchor_date: plan.anchor_date,
      created_by: plan.created_by,
      created_at: plan.created_at,
      booking_id: plan.booking_id,
      name: template.name,
      email: template.email,
      phone: template.phone,
      service_type: template.service_type,
      next_date: next?.date ?? null,
      next_time: next?.time ?? null,
      needs_time: visits.filter((v) => v.state === 'needs-time' && v.due_date >= today).length,
    }),
    version: plan.version,
    bookingReference: template.reference,
    stoppedAt: plan.stopped_at?.toISOString() ?? null,
    visits: visits.map(toVisitDto),
  };
}

const route: FastifyPluginAsyncTypebox = async (app) => {
  const actor = (request: { staff: { name: string } | null }): PlanActor => ({ customer: false, by: request.staff?.name ?? 'Staff' });
  const today = () => todayInAuckland(app.now());

  /** The plan as it is now, for the answer of a read or a change. */
  async function details(planId: string): Promise<PlanDetailsDto> {
    const found = await planWithVisits(app.db, planId);
    if (!found) throw notFound(PLAN_MESSAGES.notFound);
    return toPlanDetailsDto(found, today());
  }

  app.get(
    '/plans',
    {
      schema: {
        operationId: 'listPlans',
        summary: 'Maintenance plans, the newest first, with each one’s next visit and the visits waiting for a time',
        description: 'Filtered by status, by customer (the id of GET /v1/customers), or to the plan a booking belongs to (made from it, or booked as one of its visits).',
        tags: ['staff'],
        querystring: Type.Object(
          {
            status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('paused'), Type.Literal('stopped')], { description: 'Only the plans in this status' })),
            customerId: Type.Optional(Type.String({ format: 'uuid', description: 'Only this customer’s plans' })),
            bookingId: Type.Optional(Type.String({ format: 'uuid', description: 'Only the plan this booking belongs to (none or one)' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: PlanListSchema, ...staffErrorResponses },
      },
    },
    async (request) => {
      const { status: wanted, customerId, bookingId } = request.query;
      let rows: PlanListRow[];
      if (bookingId) {
        const plan = await findPlanOfBooking(app.db, bookingId);
        const found = plan && (await planWithVisits(app.db, plan.id));
        const one = found ? [toPlanDetailsDto(found, today())] : [];
        const data = one.filter((p) => !wanted || p.status === wanted).map(({ version: _v, bookingReference: _r, stoppedAt: _s, visits: _visits, ...plan }) => plan);
        return { data, needsTime: data.reduce((sum, p) => sum + p.needsTime, 0) };
      }
      if (customerId) {
        const customer = await app.db.selectFrom('customers').select('key').where('id', '=', customerId).executeTakeFirst();
        rows = customer ? await listPlans(app.db, today(), { status: wanted, customerKey: customer.key }) : [];
      } else {
        rows = await listPlans(app.db, today(), { status: wanted });
      }
      const data = rows.map(toPlanListDto);
      return { data, needsTime: data.reduce((sum, p) => sum + p.needsTime, 0) };
    },
  );

  app.get(
    '/plans/:id',
    {
      schema: {
        operationId: 'getPlan',
        summary: 'A maintenance plan with its visits',
        tags: ['staff'],
        params: IdParams,
        response: { 200: PlanDetailsSchema, 404: ErrorSchema, ...staffErrorResponses },
      },
    },
    async (request) => details(request.params.id),
  );

  app.post(
    '/bookings/:id/plan',
    {
      schema: {
        operationId: 'startPlan',
        summary: 'Make an upcoming booking the first visit of a maintenance plan',
        description:
          'Its job again every `intervalWeeks` weeks, on its weekday at its start, at its address or drop-off; the visits up to PLAN_HORIZON_WEEKS ahead are booked at once, each an ordinary booking with its own confirmation. 400: an interval not offered. 404: no such booking. 409: the booking is not upcoming or is cancelled, or it is part of a plan already.',
        tags: ['staff'],
        params: IdParams,
        body: Type.Object({ intervalWeeks: PlanIntervalSchema }, { additionalProperties: false }),
        response: { 201: PlanDetailsSchema, 404: ErrorSchema, 409: ErrorSchema, ...staffErrorResponses },
      },
    },
    async (request, reply) => {
      const plan = await startPlan(app.db, request.params.id, request.body.intervalWeeks, actor(request), app.planOptions());
      request.log.info({ planId: plan.id, bookingId: request.params.id, intervalWeeks: plan.interval_weeks }, 'plan made by staff');
      return reply.code(201).send(await details(plan.id));
    },
  );

  /** A change of the plan as a whole: the service's, then the plan as it is now. */
  const planChange = (name: string, summary: string, description: string, change: (planId: string, version: number | undefined, by: PlanActor) => Promise<Plan>) =>
    app.post(
      `/plans/:id/${name}`,
      {
        schema: { operationId: `${name}Plan`, summary, description: `${description} ${REFUSALS}`, tags: ['staff'], params: IdParams, body: VersionBody, response: changeResponses },
        preValidation: noBodyIsEmpty,
      },
      async (request) => {
        const plan = await change(request.params.id, request.body.version, actor(request));
        request.log.info({ planId: plan.id, status: plan.status }, `plan ${name} by staff`);
        return details(plan.id);
      },
    );

  planChange('pause', 'Pause a plan: no visits are booked until it is resumed', 'The visits booked already stay. Pausing a paused plan changes nothing.', (id, version) =>
    pausePlan(app.db, id, app.planOptions(), version),
  );
  planChange('resume', 'Resume a paused plan', 'Its visits are booked again from tomorrow up to the horizon; those that fell due while it was paused are not. Resuming an active plan changes nothing.', (id, version) =>
    resumePlan(app.db, id, app.planOptions(), version),
  );
  planChange(
    'stop',
    'Stop a plan for good',
    'Its upcoming visits are cancelled (the booking it was made from stays), with one e-mail to the customer that lists them; visits waiting for a time stop waiting.',
    (id, version, by) => stopPlan(app.db, id, by, app.planOptions(), version),
  );

  app.patch(
    '/plans/:id',
    {
      schema: {
        operationId: 'changePlanInterval',
        summary: 'Change how often a plan repeats',
        description: `The next visit stays as it is; the visits booked after it at the old interval are cancelled (one e-mail lists them) and the new ones booked. 400: an interval not offered, or the one it has. ${REFUSALS}`,
        tags: ['staff'],
        params: IdParams,
        body: Type.Object({ intervalWeeks: PlanIntervalSchema, version: Version }, { additionalProperties: false }),
        response: changeResponses,
      },
    },
    async (request) => {
      const plan = await changeInterval(app.db, request.params.id, request.body.intervalWeeks, actor(request), app.planOptions(), request.body.version);
      request.log.info({ planId: plan.id, intervalWeeks: plan.interval_weeks }, 'plan interval changed by staff');
      return details(plan.id);
    },
  );

  app.post(
    '/plans/:id/visits/:dueDate/skip',
    {
      schema: {
        operationId: 'skipPlanVisit',
        summary: 'Skip one visit of a plan',
        description: `Its booking is cancelled, with the usual cancellation e-mail; a visit waiting for a time stops waiting. The plan carries on. 404: no such plan, or no visit to skip on that date. 409: the visit has started or is over, or as for every change: ${REFUSALS}`,
        tags: ['staff'],
        params: VisitParams,
        body: VersionBody,
        response: changeResponses,
      },
      preValidation: noBodyIsEmpty,
    },
    async (request) => {
      const { id, dueDate } = request.params;
      await skipVisit(app.db, id, dueDate, actor(request), app.planOptions(), request.body.version);
      request.log.info({ planId: id, dueDate }, 'plan visit skipped by staff');
      return details(id);
    },
  );

  app.post(
    '/plans/:id/visits/:dueDate/book',
    {
      schema: {
        operationId: 'bookPlanVisit',
        summary: 'Book a visit that waits for a time, at any start that fits',
        description: `One of the starts it was offered, or any other the schedule has free for the job (as a customer's booking: from tomorrow). 400: not a date or time. 404: no such plan, or no visit waiting for a time on that date. 409: that start is taken or does not fit (PLACEMENT_REFUSED), or as for every change: ${REFUSALS}`,
        tags: ['staff'],
        params: VisitParams,
        body: Type.Object(
          {
            date: Type.String({ format: 'date', description: 'YYYY-MM-DD' }),
            time: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:mm' }),
            version: Version,
          },
          { additionalProperties: false },
        ),
        response: changeResponses,
      },
    },
    async (request) => {
      const { id, dueDate } = request.params;
      const { date, time, version } = request.body;
      const booking = await chooseVisitTime(app.db, id, dueDate, { date, time }, app.planOptions(), version);
      request.log.info({ planId: id, dueDate, bookingId: booking.id }, 'plan visit booked by staff');
      return details(id);
    },
  );
};

export default route;
