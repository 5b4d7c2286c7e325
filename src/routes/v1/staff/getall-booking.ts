/** GET /v1/getall-booking: every booking, newest first, for the dashboard (staff only). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { listBookings } from '../../../services/booking.service.ts';
import { BookingSchema, ErrorSchema } from '#api/schemas.ts';
import { errorResponses, toBookingDto } from '../schemas.ts';

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/getall-booking',
    {
      schema: {
        operationId: 'listAllBookings',
        summary: 'List every booking, newest first',
        tags: ['staff'],
        response: { 200: Type.Object({ data: Type.Array(BookingSchema) }), 401: ErrorSchema, ...errorResponses },
      },
    },
    async () => ({ data: (await listBookings(app.db)).map(toBookingDto) }),
  );
};

export default route;
