/**
 * POST /v1/bookings/{id}/move: staff move a job to another date, time and/or van or bay, through
 * the scheduling engine (the hours, the closures and the other jobs decide). The body names the
 * version the staff member saw, as for a status change; a refusal is 409 with the engine's reason.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { moveByStaff } from '../../../services/staff-schedule.service.ts';
import { answerBookingChange, bookingChangeResponses, IdParams } from '../schemas.ts';

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/bookings/:id/move',
    {
      schema: {
        operationId: 'moveBooking',
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
        response: bookingChangeResponses,
      },
    },
    async (request, reply) => {
      const { version, date, time, resourceId } = request.body;
      return answerBookingChange(reply, request.log, async () => {
        const moved = await moveByStaff(
          app.db,
          { id: request.params.id, version, date, time, ...(resourceId ? { resourceId } : {}), by: request.staff?.name ?? 'Staff' },
          { now: app.now(), mail: app.mail },
        );
        request.log.info({ bookingId: moved.booking.id, date, time, resourceId: moved.booking.resource_id }, 'booking moved by staff');
        // The place it left may be someone's on the waitlist (issue 43).
        const left = moved.history.at(-1)?.from_date;
        if (left) await app.offerFreedPlaces([left]);
        return moved;
      });
    },
  );
};

export default route;
