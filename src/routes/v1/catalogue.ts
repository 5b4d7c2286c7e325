/**
 * GET /v1/catalogue: the packages and the add-ons (issue 41), as the pages and the wizard read
 * them from the one table in src/domain: prices in cents by vehicle size, minutes by size, the
 * coating terms, and which packages each add-on fits. Public and cached: it changes only with a
 * release.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ADD_ONS } from '../../domain/add-ons.ts';
import { COATING_LABELS, COATING_TYPES, PACKAGES, VEHICLE_TYPES, type Durations, type Prices } from '../../domain/catalogue.ts';
import { MAX_VEHICLES } from '../../domain/job.ts';
import { errorResponses } from './schemas.ts';

const BySize = (description: string) =>
  Type.Object(Object.fromEntries(VEHICLE_TYPES.map((size) => [size, Type.Integer({ minimum: 0 })])) as Record<(typeof VEHICLE_TYPES)[number], ReturnType<typeof Type.Integer>>, {
    description: `${description}, by vehicle size (${VEHICLE_TYPES.join(', ')})`,
  });

const CatalogueAnswer = Type.Object({
  currency: Type.Literal('NZD'),
  maxVehicles: Type.Integer({ description: 'The most vehicles one booking may hold' }),
  packages: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String({ description: 'What a booking sends as service' }),
      tagline: Type.String(),
      description: Type.String(),
      priceCents: BySize('Price in cents, GST inclusive'),
      minutes: BySize('Minutes of work'),
      features: Type.Array(Type.String()),
      coatings: Type.Array(
        Type.Object({ id: Type.String({ description: 'What a booking sends as coatingType' }), name: Type.String(), priceCents: BySize('Price in cents'), minutes: BySize('Minutes of work') }),
        { description: 'Ceramic Coating only: its terms; empty for any other package' },
      ),
    }),
  ),
  addOns: Type.Array(
    Type.Object({
      id: Type.String({ description: 'What a booking sends in addOns' }),
      name: Type.String(),
      description: Type.String(),
      priceCents: BySize('Price in cents, GST inclusive'),
      minutes: BySize('Minutes of work it adds'),
      fits: Type.Array(Type.String(), { description: 'The packages (by name) it can be added to' }),
      max: Type.Integer({ minimum: 1, description: 'The most one vehicle may take' }),
    }),
  ),
});

const cents = (prices: Prices) => Object.fromEntries(VEHICLE_TYPES.map((size) => [size, prices[size] * 100])) as Prices;

/** The answer never changes while the process runs: built once. */
const answer = {
  currency: 'NZD' as const,
  maxVehicles: MAX_VEHICLES,
  packages: PACKAGES.map((p) => ({
    id: p.id,
    name: p.name,
    tagline: p.tagline,
    description: p.description,
    priceCents: cents(p.prices),
    minutes: p.durations,
    features: p.features,
    coatings: COATING_TYPES.flatMap((term) =>
      p.coatingPrices && p.coatingDurations
        ? [{ id: term, name: COATING_LABELS[term], priceCents: cents(p.coatingPrices[term]), minutes: p.coatingDurations[term] as Durations }]
        : [],
    ),
  })),
  addOns: ADD_ONS.map((a) => ({ id: a.id, name: a.name, description: a.description, priceCents: a.prices, minutes: a.minutes, fits: [...a.fits], max: a.max })),
};

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/catalogue',
    {
      config: { public: true },
      schema: {
        operationId: 'getCatalogue',
        summary: 'The packages and add-ons, with prices and minutes by vehicle size',
        security: [],
        tags: ['public'],
        response: { 200: CatalogueAnswer, ...errorResponses },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=3600');
      return answer;
    },
  );
};

export default route;
