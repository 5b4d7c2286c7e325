/**
 * The service area's data shapes as staff manage it (issue 40): TypeBox schemas for the
 * /v1/service-zones, /v1/zone-travel and /v1/schedule/travel-shortfalls routes, and their static
 * types for the dashboard (which imports types only).
 */
import { Type, type Static } from 'typebox';

export const ServiceZoneSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  postcodes: Type.String({ description: 'The postcodes as people write them: 1010-1072, 2010' }),
  ranges: Type.Array(Type.Object({ from: Type.Integer(), to: Type.Integer({ description: 'Included' }) }), { description: 'The postcodes as ranges, sorted and merged' }),
  travelFeeCents: Type.Integer({ minimum: 0, description: 'Added to an on-site booking in the zone, GST inclusive, in cents' }),
  minutesFromCentre: Type.Integer({ minimum: 0, description: 'Driving minutes from the service centre' }),
  active: Type.Boolean({ description: 'Inactive: no new booking in it; the bookings placed in it keep it' }),
  position: Type.Integer({ minimum: 0 }),
});
export type ServiceZoneDto = Static<typeof ServiceZoneSchema>;

export const ServiceZonesSchema = Type.Object({ data: Type.Array(ServiceZoneSchema) });

export const TravelMatrixSchema = Type.Object({
  zones: Type.Array(ServiceZoneSchema, { description: 'Every zone, active or not, in order' }),
  pairs: Type.Array(
    Type.Object({
      zoneA: Type.String({ format: 'uuid' }),
      zoneB: Type.String({ format: 'uuid' }),
      minutes: Type.Integer({ minimum: 0, description: 'Driving minutes between the two zones, either way' }),
      set: Type.Boolean({ description: 'Staff set them; false: the default (within a zone half its minutes from the centre, at least 10; between two, the sum of theirs)' }),
    }),
    { description: 'Every pair of zones once, a zone with itself included' },
  ),
});
export type TravelMatrixDto = Static<typeof TravelMatrixSchema>;

const ShortfallJobSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  reference: Type.String(),
  time: Type.String({ description: 'HH:MM, the start' }),
  startsAt: Type.String({ format: 'date-time' }),
  endsAt: Type.String({ format: 'date-time', description: 'The end of the work' }),
  zoneName: Type.Union([Type.String(), Type.Null()]),
});

export const TravelShortfallsSchema = Type.Object({
  days: Type.Array(
    Type.Object({
      date: Type.String({ format: 'date' }),
      shortfalls: Type.Array(
        Type.Object({
          resourceId: Type.String({ format: 'uuid' }),
          resourceName: Type.String(),
          from: ShortfallJobSchema,
          to: ShortfallJobSchema,
          gapMinutes: Type.Integer({ description: 'From the end of the first job to the start of the next' }),
          driveMinutes: Type.Integer({ minimum: 0, description: 'The drive between their zones now' }),
        }),
      ),
    }),
    { description: 'Soonest first' },
  ),
});
export type TravelShortfallsDto = Static<typeof TravelShortfallsSchema>;
