/**
 * GET /v1/service-area?postalCode=: whether the vans come to a postcode (issue 40), and the zone
 * and travel fee when they do. The wizard asks it as the customer types the postcode, before it
 * offers times; a booking checks the same zones under its locks.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { MESSAGES } from '../../domain/messages.ts';
import { areaAnswer, postcodeOf } from '../../domain/service-area.ts';
import { listZones } from '../../db/service-zones.repository.ts';
import { validationFailed } from '../../errors.ts';
import { errorResponses } from './schemas.ts';

export const ServiceAreaAnswer = Type.Object({
  served: Type.Boolean({ description: 'Whether an on-site job can be booked at this postcode' }),
  zone: Type.Union([
    Type.Object({
      name: Type.String(),
      travelFeeCents: Type.Integer({ minimum: 0, description: 'Added to an on-site booking here, GST inclusive, in cents; 0 for none' }),
    }),
    Type.Null(),
  ]),
  message: Type.String({ description: "What to tell the customer: the zone and its travel fee, or (not served) that drop-off at the service centre is open to them, with the business's phone" }),
});

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/service-area',
    {
      config: { public: true },
      schema: {
        operationId: 'getServiceArea',
        summary: 'Whether the vans come to a postcode, with its zone and travel fee',
        description:
          'Drop-off at the service centre is open to every postcode; on-site work only inside an active zone. A postcode that is not four digits is a 400 naming postalCode. Cached for a minute.',
        security: [],
        tags: ['public'],
        querystring: Type.Object({ postalCode: Type.String({ maxLength: 10, description: 'A New Zealand postcode: four digits' }) }, { additionalProperties: false }),
        response: { 200: ServiceAreaAnswer, ...errorResponses },
      },
    },
    async (request, reply) => {
      if (postcodeOf(request.query.postalCode) === undefined) throw validationFailed([{ field: 'postalCode', message: MESSAGES.postalCodeInvalid }]);
      const { served, zone, message } = areaAnswer(await listZones(app.db), request.query.postalCode, app.config.business);
      reply.header('cache-control', 'public, max-age=60');
      return { served, zone, message };
    },
  );
};

export default route;
