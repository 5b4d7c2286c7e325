/** GET /v1/bookings/upcoming: the day view (today, tomorrow, this week in Auckland) to plan the vans. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { UPCOMING_LIMIT, UPCOMING_RANGES, upcomingBookings } from '../../../services/staff-bookings.service.ts';
import { BookingSchema } from '#api/schemas.ts';
import { staffErrorResponses, toBookingDto } from '../schemas.ts';

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/bookings/upcoming',
    {
      schema: {
        operationId: 'listUpcomingBookings',
        summary: 'Bookings by appointment for today, tomorrow or the next seven days',
        tags: ['staff'],
        querystring: Type.Object({ range: Type.Optional(Type.Union(UPCOMING_RANGES.map((r) => Type.Literal(r)), { default: 'today' })) }, { additionalProperties: false }),
        response: {
          200: Type.Object({
            from: Type.String({ format: 'date' }),
            to: Type.String({ format: 'date' }),
            data: Type.Array(BookingSchema, { description: `In schedule order, at most ${UPCOMING_LIMIT}` }),
          }),
          ...staffErrorResponses,
        },
      },
    },
    async (request) => {
      const { from, to, bookings } = await upcomingBookings(app.db, request.query.range ?? 'today', app.now());
      return { from, to, data: bookings.map(toBookingDto) };
    },
  );
};

export default route;
