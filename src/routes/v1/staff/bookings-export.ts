/**
 * GET /v1/bookings/export.csv: the filtered list as CSV, streamed a batch at a time. Quoting is
 * csv-stringify's; cells that a spreadsheet would run as a formula (=, +, -, @, tab, CR) are
 * prefixed with an apostrophe, so a customer's "name" cannot execute on a staff computer.
 */
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { stringify } from 'csv-stringify';
import { allBookings } from '../../../services/staff-bookings.service.ts';
import type { Booking } from '../../../db/database.ts';
import { todayInAuckland } from '../../../domain/booking-dates.ts';
import { staffErrorResponses } from '../schemas.ts';
import { BookingFiltersQuery, filtersOf } from './bookings.ts';

/** Cents as a plain decimal of dollars, which every spreadsheet reads as a number: 16915 → '169.15'. */
const dollars = (cents: number) => (cents / 100).toFixed(2);

const COLUMNS: [string, (b: Booking) => string | number][] = [
  ['Booking id', (b) => b.id],
  ['Reference', (b) => b.reference],
  ['Created', (b) => b.created_at.toISOString()],
  ['Status', (b) => b.status],
  ['Service', (b) => b.service],
  ['Coating', (b) => b.coating_type],
  ['Vehicle type', (b) => b.vehicle_type],
  ['Date', (b) => b.date],
  ['Time', (b) => b.time],
  ['Service type', (b) => b.service_type],
  ['Name', (b) => b.name],
  ['Email', (b) => b.email],
  ['Phone', (b) => b.phone],
  ['House number', (b) => b.house_number],
  ['Street', (b) => b.street_address],
  ['Suburb', (b) => b.suburb],
  ['City', (b) => b.city],
  ['Postal code', (b) => b.postal_code],
  ['Region', (b) => b.region],
  ['Landmark', (b) => b.landmark],
  ['Notes', (b) => b.notes],
  ['List price (NZD)', (b) => dollars(b.list_price_cents)],
  ['Discount (NZD)', (b) => dollars(b.discount_cents)],
  ['Discount', (b) => (b.discount_kind ? `${b.discount_kind} ${b.discount_percent}%` : '')],
  ['Total (NZD)', (b) => dollars(b.total_cents)],
  ['Cancelled late', (b) => (b.cancelled_late ? 'yes' : '')],
];

/** OWASP's advice for CSV injection: a leading apostrophe makes the cell plain text. */
export function neutraliseFormula(value: string | number): string | number {
  return typeof value === 'string' && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/bookings/export.csv',
    {
      schema: {
        operationId: 'exportBookings',
        summary: 'The filtered bookings as CSV',
        tags: ['staff'],
        querystring: BookingFiltersQuery,
        produces: ['text/csv'],
        response: { 200: { type: 'string', description: 'CSV, one booking a row, newest first' }, ...staffErrorResponses },
      },
    },
    async (request, reply) => {
      const rows = Readable.from(
        (async function* () {
          for await (const booking of allBookings(app.db, filtersOf(request.query))) yield COLUMNS.map(([, cell]) => neutraliseFormula(cell(booking)));
        })(),
      );
      request.log.info({ filters: { ...filtersOf(request.query), search: request.query.q ? '[set]' : undefined } }, 'bookings exported');
      // The business's date, not UTC's: an export taken at 9 am in Auckland is named after that day.
      const day = todayInAuckland(app.now());
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="bookings-${day}.csv"`)
        .header('cache-control', 'no-store')
        // A stream is sent as it is; the string schema above only documents the answer.
        .send(rows.pipe(stringify({ header: true, columns: COLUMNS.map(([name]) => name), bom: true })) as unknown as string);
    },
  );
};

export default route;
