/**
 * POST /v1/waitlist (issue 43): "Tell me if a time opens up" for a date on which no start fits the
 * job. The booking's body without its time, plus the part of the day; the same rules as a booking
 * (the date in the window, the details, a postcode in the service area), under the booking's
 * abuse budget, at most WAITLIST_MAX_PER_EMAIL open entries per address.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { WAITLIST_MESSAGES, WAITLIST_PARTS, isWaitlistPart } from '../../domain/waitlist.ts';
import { joinWaitlist } from '../../services/waitlist.service.ts';
import { ErrorSchema } from '#api/schemas.ts';
import { CreateBookingBody } from './create-booking.ts';
import { errorResponses } from './schemas.ts';

const { time: _time, ...bookingFields } = CreateBookingBody.properties;

export const WaitlistBody = Type.Object(
  {
    ...bookingFields,
    part: Type.Optional(Type.String({ maxLength: 20, description: `When in the day a start would suit: ${WAITLIST_PARTS.join(', ')} (before 12:00, from 12:00, or any; the default)` })),
  },
  { additionalProperties: false },
);

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/waitlist',
    {
      config: { public: true, limit: 'booking' },
      schema: {
        operationId: 'joinWaitlist',
        summary: 'Wait for a time to open up on a date',
        description:
          'For a date on which no start fits the job: the customer is e-mailed when a place opens there, held for them for WAITLIST_HOLD_MINUTES to confirm from the link. The entry ends at the end of its date.',
        security: [],
        tags: ['public'],
        body: WaitlistBody,
        response: {
          201: Type.Object({
            message: Type.String({ description: 'For the customer' }),
            id: Type.String({ format: 'uuid' }),
            date: Type.String({ format: 'date' }),
            part: Type.Union([Type.Literal('any'), Type.Literal('morning'), Type.Literal('afternoon')]),
          }),
          409: ErrorSchema,
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const entry = await joinWaitlist(app.db, request.body, app.waitlistOptions());
      const part = isWaitlistPart(entry.part) ? entry.part : 'any';
      request.log.info({ waitlistEntryId: entry.id, date: entry.date }, 'waitlist joined');
      return reply.code(201).send({ message: WAITLIST_MESSAGES.joined(entry.date, part), id: entry.id, date: entry.date, part });
    },
  );
};

export default route;
