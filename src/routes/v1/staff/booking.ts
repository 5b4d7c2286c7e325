/** GET /v1/bookings/{id}: one booking with its status history and its zone's name (the dashboard's details modal). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { bookingDetails } from '../../../services/staff-bookings.service.ts';
import { BookingWithHistorySchema, ErrorSchema } from '#api/schemas.ts';
import { IdParams, staffErrorResponses, toBookingDto, toStatusChangeDto } from '../schemas.ts';
import { zoneNameOf } from '../../../db/service-zones.repository.ts';

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/bookings/:id',
    {
      schema: {
        operationId: 'getBooking',
        summary: 'One booking and its status history',
        tags: ['staff'],
        params: IdParams,
        response: { 200: BookingWithHistorySchema, 404: ErrorSchema, ...staffErrorResponses },
      },
    },
    async (request) => {
      const { booking, history } = await bookingDetails(app.db, request.params.id);
      return { booking: { ...toBookingDto(booking), zoneName: await zoneNameOf(app.db, booking.zone_id) }, history: history.map(toStatusChangeDto) };
    },
  );
};

export default route;
