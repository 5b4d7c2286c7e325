/** GET and PUT /v1/schedule/weekly-closed-days: the days of the week no booking is taken (default none). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { WEEKDAYS } from '../../../domain/schedule.ts';
import { AFFECTED_LIMIT, setWeeklyClosedDays, weeklyClosedDays } from '../../../services/schedule.service.ts';
import { BookingSchema } from '#api/schemas.ts';
import { staffErrorResponses, toBookingDto } from '../schemas.ts';

const Days = Type.Array(Type.Enum(WEEKDAYS), { maxItems: WEEKDAYS.length, uniqueItems: true, description: 'Lower-case English weekday names, Monday first' });

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/schedule/weekly-closed-days',
    {
      schema: {
        operationId: 'getWeeklyClosedDays',
        summary: 'The weekly closed days',
        tags: ['staff'],
        response: { 200: Type.Object({ days: Days }), ...staffErrorResponses },
      },
    },
    async () => ({ days: await weeklyClosedDays(app.db) }),
  );

  app.put(
    '/schedule/weekly-closed-days',
    {
      schema: {
        operationId: 'setWeeklyClosedDays',
        summary: 'Set the weekly closed days (an empty list opens every day)',
        tags: ['staff'],
        body: Type.Object({ days: Days }, { additionalProperties: false }),
        response: {
          200: Type.Object({
            days: Days,
            affectedBookings: Type.Array(BookingSchema, { description: `Bookings from today on that fall on a closed day (at most ${AFFECTED_LIMIT}); none is cancelled` }),
          }),
          ...staffErrorResponses,
        },
      },
    },
    async (request) => {
      const { days, affected } = await setWeeklyClosedDays(app.db, request.body.days, app.now());
      request.log.info({ days, affected: affected.length }, 'weekly closed days set');
      return { days, affectedBookings: affected.map(toBookingDto) };
    },
  );
};

export default route;
