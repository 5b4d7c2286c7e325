/**
 * POST /v1/bookings/{id}/status: confirm, complete, cancel or send back to pending. The body
 * names the version the staff member saw; if the booking changed since, the answer is 409 with
 * the booking as it is now, so two tabs cannot silently overwrite each other.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { BOOKING_STATUSES } from '../../../domain/booking-status.ts';
import { changeBookingStatus, StaleBookingError } from '../../../services/staff-bookings.service.ts';
import { BookingSchema, BookingWithHistorySchema, ErrorSchema } from '#api/schemas.ts';
import { IdParams, staffErrorResponses, toBookingDto, toStatusChangeDto } from '../schemas.ts';

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/bookings/:id/status',
    {
      schema: {
        summary: "Change a booking's status (compare-and-set on its version)",
        tags: ['staff'],
        params: IdParams,
        body: Type.Object(
          {
            status: Type.Union(BOOKING_STATUSES.map((s) => Type.Literal(s))),
            version: Type.Integer({ minimum: 1, description: 'The version of the booking the change is based on' }),
          },
          { additionalProperties: false },
        ),
        response: {
          200: BookingWithHistorySchema,
          404: ErrorSchema,
          409: Type.Object({ message: Type.String(), errors: ErrorSchema.properties.errors, booking: Type.Optional(BookingSchema) }),
          ...staffErrorResponses,
        },
      },
    },
    async (request, reply) => {
      try {
        const { booking, history } = await changeBookingStatus(app.db, {
          id: request.params.id,
          version: request.body.version,
          to: request.body.status,
          by: request.staff?.name ?? 'Staff',
        }, app.mail);
        request.log.info({ bookingId: booking.id, from: history.at(-1)?.from_status, to: booking.status }, 'booking status changed');
        return { booking: toBookingDto(booking), history: history.map(toStatusChangeDto) };
      } catch (error) {
        if (!(error instanceof StaleBookingError)) throw error;
        request.log.info({ bookingId: request.params.id }, 'stale booking status change refused');
        return reply.code(409).send({ message: error.message, errors: [], booking: toBookingDto(error.current) });
      }
    },
  );
};

export default route;
