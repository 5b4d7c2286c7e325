/**
 * POST /v1/bookings/release: "Release as spam". Each pending or confirmed booking named is
 * cancelled without any e-mail to the address it gave, its place freed and the release recorded
 * in its history with the reason; the others are listed as skipped. One transaction.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ReleaseResultSchema } from '#api/schemas.ts';
import { releaseBookings } from '../../../services/staff-bookings.service.ts';
import { staffErrorResponses, toBookingDto } from '../schemas.ts';

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/bookings/release',
    {
      schema: {
        operationId: 'releaseBookings',
        summary: 'Release bookings as spam: cancel them without e-mailing the customer, freeing their places',
        tags: ['staff'],
        body: Type.Object(
          {
            ids: Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: 100, description: 'The bookings to release' }),
            reason: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'Why (kept in each booking\'s history)' }),
          },
          { additionalProperties: false },
        ),
        response: { 200: ReleaseResultSchema, ...staffErrorResponses },
      },
    },
    async (request) => {
      const result = await releaseBookings(app.db, { ids: request.body.ids, reason: request.body.reason, by: request.staff?.name ?? 'Staff' });
      request.log.info({ released: result.released.map((b) => b.id), skipped: result.skipped.length }, 'bookings released as spam');
      // The places released go to the dates' waitlists (issue 43).
      if (result.released.length > 0) await app.offerFreedPlaces([...new Set(result.released.map((booking) => booking.date))]);
      return { released: result.released.map(toBookingDto), skipped: result.skipped };
    },
  );
};

export default route;
