/** GET /v1/bookings/services: the distinct services in the bookings, for the Service filter. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { distinctServices } from '../../../db/bookings.repository.ts';
import { staffErrorResponses } from '../schemas.ts';

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/bookings/services',
    {
      schema: {
        operationId: 'listBookingServices',
        summary: 'The services that appear in the bookings',
        tags: ['staff'],
        response: { 200: Type.Object({ data: Type.Array(Type.String()) }), ...staffErrorResponses },
      },
    },
    async () => ({ data: await distinctServices(app.db) }),
  );
};

export default route;
