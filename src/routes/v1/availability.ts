/**
 * GET /v1/availability?date=YYYY-MM-DD: every hourly slot of a date with the places left, for the
 * wizard's time choice. Public and never rate-limited (it is a read, one query per date); never
 * cached, so a booking made a second ago shows at once.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { TIME_SLOTS } from '../../domain/booking-rules.ts';
import { UNAVAILABLE_REASONS } from '../../domain/availability.ts';
import { availabilityOn } from '../../services/availability.service.ts';
import { errorResponses } from './schemas.ts';

export const SlotSchema = Type.Object({
  time: Type.String({ description: `HH:mm in Pacific/Auckland, one of ${TIME_SLOTS.join(', ')}` }),
  startsAt: Type.String({ format: 'date-time', description: "The instant it starts, with Auckland's offset on that date" }),
  remaining: Type.Integer({ minimum: 0, description: 'Places left: BOOKING_SLOT_CAPACITY minus the pending, confirmed and completed bookings; 0 when unavailable' }),
  available: Type.Boolean(),
  reason: Type.Union([Type.Enum(UNAVAILABLE_REASONS), Type.Null()], {
    description: 'Why it cannot be booked: full; closed (a closure by staff or a weekly closed day); outside-window (before tomorrow or past 12 months ahead); null when available',
  }),
});

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/availability',
    {
      // Public and never rate-limited like a form: the wizard asks on every date change.
      config: { public: true },
      schema: {
        summary: "A date's time slots and the places left in each",
        tags: ['public'],
        // Years 1900-2999: JavaScript's Date reads years 0-99 as 19xx, which would answer for another date.
        querystring: Type.Object(
          { date: Type.String({ format: 'date', pattern: '^(19|2[0-9])[0-9]{2}-', description: 'YYYY-MM-DD, a date in Auckland (years 1900-2999)', errorMessage: { pattern: 'Must be a date in the years 1900 to 2999' } }) },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ date: Type.String({ format: 'date' }), slots: Type.Array(SlotSchema) }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { date } = request.query;
      const slots = await availabilityOn(app.db, date, { now: app.now(), slotCapacity: app.config.bookingSlotCapacity });
      reply.header('cache-control', 'no-store');
      return { date, slots };
    },
  );
};

export default route;
