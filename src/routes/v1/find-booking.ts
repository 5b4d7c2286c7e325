/**
 * POST /v1/find-booking: "Find my booking" (issue 22). The links to the address's upcoming
 * bookings are e-mailed to it; the answer is always 202 with the same message, in the same time,
 * whether the address has bookings, has none, or has had its e-mails for today.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { FIND_BOOKING_LIMITS, FIND_BOOKING_MESSAGES } from '../../domain/find-booking-rules.ts';
import { sendBookingLinks } from '../../services/find-booking.service.ts';
import { errorResponses } from './schemas.ts';

export const FindBookingBody = Type.Object(
  { email: Type.Optional(Type.String({ maxLength: FIND_BOOKING_LIMITS.email, description: 'The e-mail address the bookings were made with (any letter case)' })) },
  { additionalProperties: false },
);

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/find-booking',
    {
      config: { public: true, limit: 'findBooking' },
      schema: {
        operationId: 'findMyBookings',
        summary: "E-mail the links to an address's upcoming bookings",
        description:
          'Always 202 with the same message, whether or not the address has bookings, and no sooner than FIND_BOOKING_ANSWER_MS after the request. ' +
          'At most FIND_BOOKING_PER_ADDRESS_PER_DAY e-mails go to one address in 24 hours; past that nothing is sent (the answer is the same).',
        security: [],
        tags: ['public'],
        body: FindBookingBody,
        response: {
          202: Type.Object({ message: Type.String({ examples: [FIND_BOOKING_MESSAGES.answer] }) }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const outcome = await sendBookingLinks(app.db, { email: request.body.email ?? '' }, app.mail, app.config.findBooking);
      request.log.info({ outcome }, 'find my booking');
      return reply.code(202).send({ message: FIND_BOOKING_MESSAGES.answer });
    },
  );
};

export default route;
