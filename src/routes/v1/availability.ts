/**
 * GET /v1/availability?date=YYYY-MM-DD[&service=&vehicleType=&coatingType=&serviceType=]: every
 * start time of a date for a job, with its end, the vans or bays free for the whole of it, and why
 * a start cannot be booked; GET /v1/availability/days?from=&to=[&…]: each date's number of
 * bookable starts, for the date picker. Public and never rate-limited (reads, one query each);
 * never cached, so a booking made a second ago shows at once.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { TIME_SLOTS } from '../../domain/booking-rules.ts';
import { UNAVAILABLE_REASONS } from '../../domain/scheduling.ts';
import { PACKAGE_NAMES } from '../../domain/catalogue.ts';
import { ADD_ON_IDS } from '../../domain/add-ons.ts';
import { MAX_VEHICLES } from '../../domain/job.ts';
import { availabilityOn, availabilitySummary, jobQuery, SHORTEST_DURATION_MINUTES, SUMMARY_MAX_DAYS } from '../../services/scheduling.service.ts';
import { errorResponses } from './schemas.ts';

export const SlotSchema = Type.Object({
  time: Type.String({ description: `HH:mm in Pacific/Auckland: the start, one of ${TIME_SLOTS.join(', ')}` }),
  end: Type.String({ description: 'HH:mm in Pacific/Auckland: when the job would end if it started then' }),
  startsAt: Type.String({ format: 'date-time', description: "The instant it starts, with Auckland's offset on that date" }),
  remaining: Type.Integer({ minimum: 0, description: 'Vans (on-site) or bays (drop-off) free for the whole job; 0 when unavailable' }),
  available: Type.Boolean(),
  reason: Type.Union([Type.Enum(UNAVAILABLE_REASONS), Type.Null()], {
    description:
      'Why it cannot be booked: full (every van or bay is taken for part of the job); travel (a van is free then, but cannot drive there in time from its job before, or on to its job after); closed (a closure by staff or a weekly closed day); outside-hours (the start is outside the working hours of the service type); ends-after-closing (the job would end after closing); outside-window (before tomorrow or past 12 months ahead); null when available',
  }),
});

// Years 1900-2999: JavaScript's Date reads years 0-99 as 19xx, which would answer for another date.
export const DateParam = (description: string) =>
  Type.String({ format: 'date', pattern: '^(19|2[0-9])[0-9]{2}-', description: `${description}: YYYY-MM-DD, a date in Auckland (years 1900-2999)`, errorMessage: { pattern: 'Must be a date in the years 1900 to 2999' } });

/**
 * The job asked about; without a service, the shortest job of the catalogue on either kind. One
 * vehicle's fields, or several vehicles' repeated in order (issue 41): `service=A&vehicleType=sm&service=B&vehicleType=suv`.
 */
const perVehicle = (maxLength: number, description: string) =>
  Type.Optional(Type.Array(Type.String({ maxLength }), { maxItems: MAX_VEHICLES, description: `${description}. Repeat it once per vehicle (up to ${MAX_VEHICLES}), in the same order as service` }));
export const JobParams = {
  service: perVehicle(60, `A package name (${PACKAGE_NAMES.join(', ')}); without it, the answer is for the shortest job (${SHORTEST_DURATION_MINUTES} minutes)`),
  vehicleType: perVehicle(10, 'sm, mid or suv; required with a service'),
  coatingType: perVehicle(10, "coat1 or coat2, for Ceramic Coating (default coat1); '' for any other package"),
  addOns: perVehicle(200, `The vehicle's add-on ids, separated by commas ('' for none): ${ADD_ON_IDS.join(', ')}`),
  serviceType: Type.Optional(Type.String({ maxLength: 10, description: 'onsite (a van comes) or dropoff (a bay at the service centre); without it, either' })),
  postalCode: Type.Optional(
    Type.String({
      maxLength: 10,
      description:
        "For on-site work: the customer's 4-digit NZ postcode. The answer accounts for the van's driving from its job before and to its job after (reason travel). Without it, the answer is as for the service centre's own zone. A postcode in no zone of the service area is a 400 naming postalCode when only on-site was asked, and leaves on-site out otherwise.",
    }),
  ),
};

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/availability',
    {
      // Public and never rate-limited like a form: the wizard asks on every date change.
      config: { public: true },
      schema: {
        operationId: 'getAvailability',
        summary: "A date's start times for a job, with the vans or bays free for the whole of it",
        security: [],
        tags: ['public'],
        querystring: Type.Object({ date: DateParam('The date'), ...JobParams }, { additionalProperties: false }),
        response: {
          200: Type.Object({
            date: Type.String({ format: 'date' }),
            durationMinutes: Type.Integer({ minimum: 1, description: 'How long the job asked about takes' }),
            slots: Type.Array(SlotSchema),
          }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { date, ...params } = request.query;
      const answer = await availabilityOn(app.db, date, jobQuery(params, app.config.business), app.now());
      reply.header('cache-control', 'no-store');
      return answer;
    },
  );

  app.get(
    '/availability/days',
    {
      config: { public: true },
      schema: {
        operationId: 'getAvailabilityDays',
        summary: 'For each date of a range, the number of starts at which a job fits (the date picker)',
        security: [],
        tags: ['public'],
        querystring: Type.Object({ from: DateParam('The first date'), to: DateParam(`The last date, at most ${SUMMARY_MAX_DAYS} days from the first`), ...JobParams }, { additionalProperties: false }),
        response: {
          200: Type.Object({
            from: Type.String({ format: 'date' }),
            to: Type.String({ format: 'date' }),
            durationMinutes: Type.Integer({ minimum: 1 }),
            days: Type.Array(
              Type.Object({
                date: Type.String({ format: 'date' }),
                availableStarts: Type.Integer({ minimum: 0, description: 'Starts at which the job fits; 0: nothing to offer that day' }),
              }),
            ),
          }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { from, to, ...params } = request.query;
      const job = jobQuery(params, app.config.business);
      const days = await availabilitySummary(app.db, from, to, job, app.now());
      reply.header('cache-control', 'no-store');
      return { from, to, durationMinutes: job.durationMinutes, days };
    },
  );
};

export default route;
