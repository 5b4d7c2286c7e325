/**
 * GET /v1/customers and GET /v1/customers/{id}: the dashboard's Customers view (issue 22), from
 * the customers summary PostgreSQL keeps (migrations/018), searched and paged there (keyset cursor).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { CustomerDetailsSchema, CustomerPageSchema, type CustomerDto, type VisitDto } from '#api/customer-schemas.ts';
import { ErrorSchema } from '#api/schemas.ts';
import type { CustomerListRow, VisitRow } from '../../../db/customers.repository.ts';
import { customerDetails, findCustomers } from '../../../services/customers.service.ts';
import { customerVehicles } from '../../../domain/customer-vehicles.ts';
import { IdParams, staffErrorResponses, toBookingDto, toContactMessageDto } from '../schemas.ts';

const ListQuery = Type.Object(
  {
    q: Type.Optional(
      Type.String({ maxLength: 100, description: 'Matched anywhere in the name, e-mail or phone (also by its digits), case-insensitively; a whole booking reference finds its customer' }),
    ),
    cursor: Type.Optional(Type.String({ maxLength: 400, description: 'nextCursor of the previous page' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 24 })),
  },
  { additionalProperties: false },
);

function toVisitDto(row: VisitRow | null): VisitDto | null {
  return row && { bookingId: row.booking_id, reference: row.reference, date: row.date, time: row.time, status: row.status };
}

export function toCustomerDto(row: CustomerListRow): CustomerDto {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    bookings: row.bookings_count,
    completedJobs: row.completed_count,
    totalSpentCents: row.spent_cents,
    lastVisit: toVisitDto(row.last_visit),
    nextVisit: toVisitDto(row.next_visit),
    lastBookedAt: row.last_booked_at.toISOString(),
  };
}

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/customers',
    {
      schema: {
        operationId: 'listCustomers',
        summary: 'Search and page through customers, most recently booked first',
        tags: ['staff'],
        querystring: ListQuery,
        response: { 200: CustomerPageSchema, ...staffErrorResponses },
      },
    },
    async (request) => {
      const { q, cursor, limit = 24 } = request.query;
      const page = await findCustomers(app.db, { q, cursor, limit, now: app.now() });
      return { data: page.customers.map(toCustomerDto), nextCursor: page.nextCursor };
    },
  );

  app.get(
    '/customers/:id',
    {
      schema: {
        operationId: 'getCustomer',
        summary: 'A customer with their bookings, vehicles and contact messages, newest first',
        tags: ['staff'],
        params: IdParams,
        response: { 200: CustomerDetailsSchema, 404: ErrorSchema, ...staffErrorResponses },
      },
    },
    async (request) => {
      const details = await customerDetails(app.db, request.params.id, app.now());
      return {
        customer: toCustomerDto(details.customer),
        bookings: details.bookings.map(toBookingDto),
        vehicles: customerVehicles(details.bookings),
        messages: details.messages.map(toContactMessageDto),
      };
    },
  );
};

export default route;
