/** GET /v1/insights?from=&to= (issue 44): the owner's Insights for a range of Auckland days. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { InsightsSchema } from '#api/insights-schemas.ts';
import { insightsBetween } from '../../../services/insights.service.ts';
import { staffErrorResponses } from '../schemas.ts';

const RangeQuery = Type.Object(
  {
    from: Type.String({ format: 'date', description: 'First day, YYYY-MM-DD (Auckland)' }),
    to: Type.String({ format: 'date', description: 'Last day, YYYY-MM-DD (Auckland); at most TAKINGS_MAX_DAYS days from from' }),
  },
  { additionalProperties: false },
);

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/insights',
    {
      preValidation: app.requireOwner,
      schema: {
        operationId: 'insights',
        summary: "The owner's Insights for a range: revenue by week, work done, utilisation, customers, losses, lead time, busiest hours",
        description: 'Only the owner may call this: 403 for a member whose role is staff. 400 when from is after to or the range is longer than TAKINGS_MAX_DAYS days.',
        tags: ['staff'],
        querystring: RangeQuery,
        response: { 200: InsightsSchema, ...staffErrorResponses },
      },
    },
    async (request) => insightsBetween(app.db, request.query.from, request.query.to, app.config.takingsMaxDays),
  );
};

export default route;
