/**
 * The service area as staff manage it (issue 40): GET/POST /v1/service-zones, PATCH
 * /v1/service-zones/{id}, GET/PUT /v1/zone-travel, and GET /v1/schedule/travel-shortfalls ("Days
 * to re-plan"). Whoever may change the vans and the hours may change these. A change never moves
 * or re-prices a booking already taken.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { formatPostcodes, ZONE_LIMITS, type ServiceZone } from '../../../domain/service-area.ts';
import { addZone, changeZone, serviceZones, setZoneTravel, SHORTFALL_DAYS_LIMIT, travelMatrix, travelShortfalls, type ShortfallJob, type TravelMatrix } from '../../../services/service-area.service.ts';
import { ErrorSchema } from '#api/schemas.ts';
import { ServiceZoneSchema, ServiceZonesSchema, TravelMatrixSchema, TravelShortfallsSchema, type ServiceZoneDto, type TravelMatrixDto } from '#api/service-area-schemas.ts';
import { IdParams, staffErrorResponses } from '../schemas.ts';

const toZoneDto = (zone: ServiceZone): ServiceZoneDto => ({
  id: zone.id,
  name: zone.name,
  postcodes: formatPostcodes(zone.postcodes),
  ranges: zone.postcodes,
  travelFeeCents: zone.travelFeeCents,
  minutesFromCentre: zone.minutesFromCentre,
  active: zone.active,
  position: zone.position,
});

const toMatrixDto = (matrix: TravelMatrix): TravelMatrixDto => ({ zones: matrix.zones.map(toZoneDto), pairs: matrix.pairs });

const toShortfallJobDto = (job: ShortfallJob) => ({ ...job, startsAt: job.startsAt.toISOString(), endsAt: job.endsAt.toISOString() });

const zoneFields = {
  name: Type.String({ maxLength: 200, description: `1 to ${ZONE_LIMITS.name} characters, unique in any case` }),
  postcodes: Type.String({ maxLength: 1000, description: 'Four-digit postcodes and ranges, e.g. "1010-1072, 2010"; no postcode of another active zone' }),
  travelFeeCents: Type.Integer({ description: `0 to ${ZONE_LIMITS.travelFeeCents}, GST inclusive` }),
  minutesFromCentre: Type.Integer({ description: `0 to ${ZONE_LIMITS.minutes}` }),
};

const conflictResponse = { 409: { ...ErrorSchema, description: 'The name, or a postcode, is already taken by another (active) zone, named in the message' } };

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/service-zones',
    {
      schema: {
        operationId: 'listServiceZones',
        summary: 'The zones of the service area, active or not, in order',
        tags: ['staff'],
        response: { 200: ServiceZonesSchema, ...staffErrorResponses },
      },
    },
    async () => ({ data: (await serviceZones(app.db)).map(toZoneDto) }),
  );

  app.post(
    '/service-zones',
    {
      schema: {
        operationId: 'createServiceZone',
        summary: 'Add a zone of postcodes, active, at the end of the order',
        tags: ['staff'],
        body: Type.Object(zoneFields, { additionalProperties: false }),
        response: { 201: ServiceZoneSchema, ...conflictResponse, ...staffErrorResponses },
      },
    },
    async (request, reply) => {
      const zone = await addZone(app.db, request.body);
      request.log.info({ zoneId: zone.id }, 'service zone added');
      return reply.code(201).send(toZoneDto(zone));
    },
  );

  app.patch(
    '/service-zones/:id',
    {
      schema: {
        operationId: 'updateServiceZone',
        summary: "Change a zone's name, postcodes, fee or minutes, or deactivate or reactivate it",
        description: 'Bookings already taken keep the zone and travel fee they were placed with; only jobs placed from now on see the change.',
        tags: ['staff'],
        params: IdParams,
        body: Type.Object(
          {
            name: Type.Optional(zoneFields.name),
            postcodes: Type.Optional(zoneFields.postcodes),
            travelFeeCents: Type.Optional(zoneFields.travelFeeCents),
            minutesFromCentre: Type.Optional(zoneFields.minutesFromCentre),
            active: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
        response: { 200: ServiceZoneSchema, 404: ErrorSchema, ...conflictResponse, ...staffErrorResponses },
      },
    },
    async (request) => {
      const zone = await changeZone(app.db, request.params.id, request.body);
      request.log.info({ zoneId: zone.id, changes: Object.keys(request.body) }, 'service zone changed');
      return toZoneDto(zone);
    },
  );

  app.get(
    '/zone-travel',
    {
      schema: {
        operationId: 'getZoneTravel',
        summary: 'The driving minutes between every pair of zones, set by staff or the default',
        tags: ['staff'],
        response: { 200: TravelMatrixSchema, ...staffErrorResponses },
      },
    },
    async () => toMatrixDto(await travelMatrix(app.db)),
  );

  app.put(
    '/zone-travel',
    {
      schema: {
        operationId: 'setZoneTravel',
        summary: 'Set the driving minutes between two zones (or within one), or reset them to the default',
        description: 'Jobs already placed stay where they are; GET /v1/schedule/travel-shortfalls lists the days where they now sit too close. Answers the whole table.',
        tags: ['staff'],
        body: Type.Object(
          {
            zoneA: Type.String({ format: 'uuid' }),
            zoneB: Type.String({ format: 'uuid', description: 'The same as zoneA: driving within the zone' }),
            minutes: Type.Union([Type.Integer({ description: `0 to ${ZONE_LIMITS.minutes}` }), Type.Null()], { description: 'null: back to the default' }),
          },
          { additionalProperties: false },
        ),
        response: { 200: TravelMatrixSchema, ...staffErrorResponses },
      },
    },
    async (request) => {
      const matrix = await setZoneTravel(app.db, request.body);
      request.log.info({ zoneA: request.body.zoneA, zoneB: request.body.zoneB, minutes: request.body.minutes }, 'zone travel set');
      return toMatrixDto(matrix);
    },
  );

  app.get(
    '/schedule/travel-shortfalls',
    {
      schema: {
        operationId: 'listTravelShortfalls',
        summary: 'Days to re-plan: where two jobs of a van now sit closer than the drive between their zones',
        description: `Pending and confirmed on-site jobs from today on, under the zones and travel as they are now; at most ${SHORTFALL_DAYS_LIMIT} days. Nothing is moved.`,
        tags: ['staff'],
        response: { 200: TravelShortfallsSchema, ...staffErrorResponses },
      },
    },
    async () => {
      const days = await travelShortfalls(app.db, app.now());
      return {
        days: days.map((day) => ({
          date: day.date,
          shortfalls: day.shortfalls.map((s) => ({ ...s, from: toShortfallJobDto(s.from), to: toShortfallJobDto(s.to) })),
        })),
      };
    },
  );
};

export default route;
