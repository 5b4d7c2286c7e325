/**
 * GET /v1/bookings: the dashboard's list, searched, filtered, sorted and paged in PostgreSQL
 * (keyset cursor), so it stays instant with 100,000 bookings.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { BOOKING_STATUSES } from '../../../domain/booking-status.ts';
import { PACKAGE_NAMES } from '../../../domain/catalogue.ts';
import { findBookings } from '../../../services/staff-bookings.service.ts';
import { BookingSchema } from '#api/schemas.ts';
import { staffErrorResponses, toBookingDto } from '../schemas.ts';

export const BookingFiltersQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ maxLength: 100, description: 'Matched anywhere in the name, e-mail or service, case-insensitively' })),
    service: Type.Optional(Type.String({ maxLength: 60, description: `A service name (${PACKAGE_NAMES.join(', ')})` })),
    date: Type.Optional(Type.String({ format: 'date', description: 'Exact appointment date, YYYY-MM-DD' })),
    status: Type.Optional(Type.Union(BOOKING_STATUSES.map((s) => Type.Literal(s)))),
    confirmation: Type.Optional(
      Type.Union([Type.Literal('awaiting'), Type.Literal('lapsed')], {
        description: "BOOKING_CONFIRMATION=email: 'awaiting' the bookings waiting for their customer's confirmation, 'lapsed' those cancelled because it never came",
      }),
    ),
  },
  { additionalProperties: false },
);
export type BookingFiltersQuery = Static<typeof BookingFiltersQuery>;

export function filtersOf(query: BookingFiltersQuery) {
  return { search: query.q?.trim() || undefined, service: query.service || undefined, date: query.date || undefined, status: query.status, confirmation: query.confirmation };
}

const ListQuery = Type.Object(
  {
    ...BookingFiltersQuery.properties,
    sort: Type.Optional(Type.Union([Type.Literal('newest'), Type.Literal('schedule')], { description: 'newest (default): by creation; schedule: by appointment' })),
    cursor: Type.Optional(Type.String({ maxLength: 400, description: 'nextCursor of the previous page' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 24 })),
  },
  { additionalProperties: false },
);

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/bookings',
    {
      schema: {
        operationId: 'listBookings',
        summary: 'Search, filter and page through bookings',
        tags: ['staff'],
        querystring: ListQuery,
        response: { 200: Type.Object({ data: Type.Array(BookingSchema), nextCursor: Type.Union([Type.String(), Type.Null()]) }), ...staffErrorResponses },
      },
    },
    async (request) => {
      const { sort = 'newest', limit = 24, cursor } = request.query;
      const page = await findBookings(app.db, filtersOf(request.query), { sort, limit, cursor });
      return { data: page.bookings.map(toBookingDto), nextCursor: page.nextCursor };
    },
  );
};

export default route;
