/**
 * POST /v1/bookings/{id}/move: staff move a job to another date, time and/or van or bay, through
 * the scheduling engine (the hours, the closures and the other jobs decide). The body names the
 * version the staff member saw, as for a status change; a refusal is 409 with the engine's reason.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { moveByStaff } from '../../../services/staff-schedule.service.ts';
import { StaleBookingError } from '../../../services/staff-bookings.service.ts';
import { BookingSchema, BookingWithHistorySchema, ErrorSchema } from '#api/schemas.ts';
import { IdParams, staffErrorResponses, toBookingDto, toStatusChangeDto } from '../schemas.ts';

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/bookings/:id/move',
    {
      schema: {
        summary: 'Move a job to another time and/or van or bay (compare-and-set on its version)',
        description:
          'Any date from today to 12 months ahead. Without resourceId the schedule chooses the van or bay; a job that holds none can be given one at its own time. Refusals are 409 with the reason (full, closed, outside the hours, ends after closing, that van or bay busy).',
        tags: ['staff'],
        params: IdParams,
        body: Type.Object(
          {
            version: Type.Integer({ minimum: 1, description: 'The version of the booking the move is based on' }),
            date: Type.String({ maxLength: 10, description: 'YYYY-MM-DD' }),
            time: Type.String({ maxLength: 5, description: 'HH:00, 07:00 to 20:00' }),
            resourceId: Type.Optional(Type.Union([Type.String({ format: 'uuid' }), Type.Null()], { description: 'A van or bay of the job\'s kind; absent or null: the schedule chooses' })),
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
      const { version, date, time, resourceId } = request.body;
      try {
        const { booking, history } = await moveByStaff(
          app.db,
          { id: request.params.id, version, date, time, ...(resourceId ? { resourceId } : {}), by: request.staff?.name ?? 'Staff' },
          { now: app.now(), mail: app.mail },
        );
        request.log.info({ bookingId: booking.id, date, time, resourceId: booking.resource_id }, 'booking moved by staff');
        return { booking: toBookingDto(booking), history: history.map(toStatusChangeDto) };
      } catch (error) {
        if (!(error instanceof StaleBookingError)) throw error;
        request.log.info({ bookingId: request.params.id }, 'stale booking move refused');
        return reply.code(409).send({ message: error.message, errors: [], booking: toBookingDto(error.current) });
      }
    },
  );
};

export default route;
