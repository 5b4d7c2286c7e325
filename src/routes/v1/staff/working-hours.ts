/**
 * GET /v1/working-hours, PUT /v1/working-hours/{kind}, PUT /v1/min-gap: the hours each kind
 * of job works per weekday, and the travel time an on-site job holds its van for after the work.
 * A change never moves or cancels a booking: the answer lists the jobs now outside the hours.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { setMinGapMinutes, setWorkingHours, minGapMinutes, workingHours } from '../../../services/resources.service.ts';
import { BookingSchema, WeekHoursSchema, WorkingHoursSchema } from '#api/schemas.ts';
import { staffErrorResponses, toBookingDto } from '../schemas.ts';

const DayInput = Type.Union(
  [
    Type.Object({ opens: Type.String({ maxLength: 5 }), closes: Type.String({ maxLength: 5 }) }, { additionalProperties: false }),
    Type.Null(),
  ],
  { description: '{ opens, closes } as HH:00 (opens 07:00 to 20:00, closes 08:00 to 21:00), or null: closed' },
);

const WeekInput = Type.Object(
  {
    monday: Type.Optional(DayInput),
    tuesday: Type.Optional(DayInput),
    wednesday: Type.Optional(DayInput),
    thursday: Type.Optional(DayInput),
    friday: Type.Optional(DayInput),
    saturday: Type.Optional(DayInput),
    sunday: Type.Optional(DayInput),
  },
  { additionalProperties: false, description: 'A weekday left out or null is closed for this kind' },
);

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/working-hours',
    {
      schema: {
        operationId: 'getWorkingHours',
        summary: 'The working hours of each kind of job per weekday, and the travel buffer',
        tags: ['staff'],
        response: { 200: WorkingHoursSchema, ...staffErrorResponses },
      },
    },
    async () => ({ ...(await workingHours(app.db)), minGapMinutes: await minGapMinutes(app.db) }),
  );

  app.put(
    '/working-hours/:kind',
    {
      schema: {
        operationId: 'setWorkingHours',
        summary: "Set a kind's week of working hours",
        description: 'Bookings already placed keep their place; the ones from today on now outside the hours are answered in `outside`.',
        tags: ['staff'],
        params: Type.Object({ kind: Type.Union([Type.Literal('onsite'), Type.Literal('dropoff')]) }),
        body: WeekInput,
        response: {
          200: Type.Object({
            hours: WeekHoursSchema,
            outside: Type.Array(BookingSchema, { description: 'Jobs from today on that now start or end outside the hours (at most 500); none is moved or cancelled' }),
          }),
          ...staffErrorResponses,
        },
      },
    },
    async (request) => {
      const { hours, outside } = await setWorkingHours(app.db, request.params.kind, request.body, app.now());
      request.log.info({ kind: request.params.kind, outside: outside.length }, 'working hours set');
      return { hours, outside: outside.map(toBookingDto) };
    },
  );

  app.put(
    '/min-gap',
    {
      schema: {
        operationId: 'setMinGap',
        summary: 'Set the travel buffer of on-site jobs placed from now on',
        tags: ['staff'],
        body: Type.Object({ minutes: Type.Integer({ description: '0 to 240' }) }, { additionalProperties: false }),
        response: { 200: Type.Object({ minutes: Type.Integer() }), ...staffErrorResponses },
      },
    },
    async (request) => {
      const minutes = await setMinGapMinutes(app.db, request.body.minutes);
      request.log.info({ minutes }, 'travel buffer set');
      return { minutes };
    },
  );
};

export default route;
