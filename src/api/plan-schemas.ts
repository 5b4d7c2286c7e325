/**
 * The staff side of maintenance plans (issue 43): TypeBox schemas for the /v1/plans routes and
 * their static types for the dashboard (which imports types only).
 */
import { Type, type Static } from 'typebox';
import { PLAN_INTERVALS } from '../domain/plans.ts';


export const PlanIntervalSchema = Type.Integer({ description: `Weeks between visits: one of ${PLAN_INTERVALS.join(', ')}` });

export const PlanStartSchema = Type.Object({
  date: Type.String({ description: 'YYYY-MM-DD, in Auckland' }),
  time: Type.String({ description: 'HH:mm, in Auckland' }),
});
export type PlanStartDto = Static<typeof PlanStartSchema>;

export const PlanSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    status: Type.Union([Type.Literal('active'), Type.Literal('paused'), Type.Literal('stopped')], { description: 'active: books its visits; paused: books none until resumed; stopped: for good' }),
    intervalWeeks: Type.Integer({ description: `Weeks between visits: one of ${PLAN_INTERVALS.join(', ')}` }),
    weekday: Type.Union(
      [Type.Literal('monday'), Type.Literal('tuesday'), Type.Literal('wednesday'), Type.Literal('thursday'), Type.Literal('friday'), Type.Literal('saturday'), Type.Literal('sunday')],
      { description: 'The weekday its visits are due on' },
    ),
    time: Type.String({ description: 'HH:mm, in Auckland: the start its visits are due at' }),
    bookingId: Type.String({ format: 'uuid', description: 'The booking the plan was made from: its job, address and customer are what each visit copies' }),
    customer: Type.Object({ name: Type.String(), email: Type.String({ description: 'Empty for a customer known only by phone' }), phone: Type.String() }),
    serviceType: Type.Union([Type.Literal('onsite'), Type.Literal('dropoff')], { description: 'On site (a van) or drop-off (a bay)' }),
    nextVisit: Type.Union([PlanStartSchema, Type.Null()], { description: 'The earliest booked visit from today on that is not cancelled' }),
    needsTime: Type.Integer({ minimum: 0, description: 'Visits from today on that did not fit near their date and wait for a time' }),
    createdBy: Type.String({ description: '"Customer", or the name of the member of staff who made it' }),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { description: "A maintenance plan: its booking's job again every intervalWeeks weeks, same weekday and start" },
);
export type PlanDto = Static<typeof PlanSchema>;

export const PlanListSchema = Type.Object({
  data: Type.Array(PlanSchema, { description: 'The newest plan first' }),
  needsTime: Type.Integer({ minimum: 0, description: 'The visits waiting for a time, over the plans listed' }),
});
export type PlanListDto = Static<typeof PlanListSchema>;

export const PlanVisitSchema = Type.Object({
  dueDate: Type.String({ description: 'YYYY-MM-DD: the date the interval puts it on (its booking may be on a date near it)' }),
  state: Type.Union([Type.Literal('booked'), Type.Literal('needs-time'), Type.Literal('skipped')], {
    description: 'booked (its booking may since have been cancelled), waiting for a time, or skipped',
  }),
  booking: Type.Union(
    [
      Type.Object({
        id: Type.String({ format: 'uuid' }),
        reference: Type.String(),
        date: Type.String({ description: 'YYYY-MM-DD, in Auckland' }),
        time: Type.String({ description: 'HH:mm, in Auckland' }),
        status: Type.String(),
      }),
      Type.Null(),
    ],
    { description: 'Its booking; null while it waits for a time, or when it was skipped before it had one' },
  ),
  offered: Type.Array(PlanStartSchema, { description: 'A visit waiting for a time: the nearest free starts the customer was offered (empty otherwise)' }),
  keptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When the customer pressed "Keep it" in the e-mail before the visit' }),
});
export type PlanVisitDto = Static<typeof PlanVisitSchema>;

export const PlanDetailsSchema = Type.Object(
  {
    ...PlanSchema.properties,
    version: Type.Integer({ minimum: 1, description: 'Send it back with a change: a change to the plan as it was before someone else changed it is refused (409)' }),
    bookingReference: Type.String({ description: 'The reference of the booking the plan was made from' }),
    stoppedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    visits: Type.Array(PlanVisitSchema, { description: 'Every visit recorded, by due date' }),
  },
  { description: 'A plan with its visits' },
);
export type PlanDetailsDto = Static<typeof PlanDetailsSchema>;
