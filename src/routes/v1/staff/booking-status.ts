/**
 * POST /v1/bookings/{id}/status: confirm, complete, cancel or send back to pending. The body
 * names the version the staff member saw; if the booking changed since, the answer is 409 with
 * the booking as it is now, so two tabs cannot silently overwrite each other.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { BOOKING_STATUSES } from '../../../domain/booking-status.ts';
import { changeBookingStatus } from '../../../services/staff-bookings.service.ts';
import { answerBookingChange, bookingChangeResponses, IdParams } from '../schemas.ts';

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/bookings/:id/status',
    {
      schema: {
        operationId: 'changeBookingStatus',
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
        response: bookingChangeResponses,
      },
    },
    async (request, reply) =>
      answerBookingChange(reply, request.log, async () => {
        const changed = await changeBookingStatus(
          app.db,
          { id: request.params.id, version: request.body.version, to: request.body.status, by: request.staff?.name ?? 'Staff' },
          app.mail,
        );
        request.log.info({ bookingId: changed.booking.id, from: changed.history.at(-1)?.from_status, to: changed.booking.status }, 'booking status changed');
        // A cancellation frees its place for the date's waitlist (issue 43).
        if (changed.booking.status === 'cancelled') await app.offerFreedPlaces([changed.booking.date]);
        return changed;
      }),
  );
};

export default route;
