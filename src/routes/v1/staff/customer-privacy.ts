/**
 * Privacy requests on a customer (issue 22; Privacy Act 2020 principles 6, 7 and 9):
 * GET /v1/customers/{id}/export (owner only; JSON, or CSV with ?format=csv), PATCH
 * /v1/customers/{id} (correction), POST /v1/customers/{id}/erasure (owner only, confirmed).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { stringify } from 'csv-stringify/sync';
import { Type } from 'typebox';
import {
  CustomerCorrectedSchema,
  CustomerCorrectionSchema,
  CustomerExportSchema,
  ErasureRequestSchema,
  ErasureResultSchema,
  type CustomerExportDto,
} from '#api/customer-schemas.ts';
import { ErrorSchema } from '#api/schemas.ts';
import type { BookingNote } from '../../../db/database.ts';
import { todayInAuckland } from '../../../domain/booking-dates.ts';
import { correctCustomer, eraseCustomer, exportCustomer, type CustomerExport } from '../../../services/privacy.service.ts';
import { IdParams, staffErrorResponses, toBookingDto, toContactMessageDto, toStatusChangeDto } from '../schemas.ts';
import { neutraliseFormula } from './bookings-export.ts';
import { toCustomerDto } from './customers.ts';

const ownerOnly = { 403: { ...ErrorSchema, description: 'Signed in, but not as the owner: only the owner exports or erases a customer’s data' } };

const toNote = (row: BookingNote) => ({ id: row.id, text: row.body, by: row.author, at: row.created_at.toISOString() });

function toExportDto(held: CustomerExport, now: Date): CustomerExportDto {
  return {
    exportedAt: now.toISOString(),
    customer: toCustomerDto(held.customer),
    bookings: held.bookings.map(({ booking, history, notes, payment }) => ({
      booking: toBookingDto(booking),
      history: history.map(toStatusChangeDto),
      notes: notes.map(toNote),
      payment: payment && { amountCents: payment.amount_cents, method: payment.payment_method, paidAt: payment.paid_at?.toISOString() ?? null, invoiceNumber: payment.invoice_number },
    })),
    contactMessages: held.messages.map(toContactMessageDto),
    emails: held.emails.map((e) => ({
      id: e.id,
      kind: e.kind,
      to: `${e.to_name} <${e.to_address}>`,
      subject: e.subject,
      text: e.text_body,
      status: e.status,
      createdAt: e.created_at.toISOString(),
      sentAt: e.sent_at?.toISOString() ?? null,
    })),
    waitlistEntries: held.waitlist.map((w) => ({ date: w.date, part: w.part, status: w.status, createdAt: w.created_at.toISOString(), request: w.request })),
  };
}

const CSV_COLUMNS = ['Record', 'Reference', 'When', 'Status', 'Name', 'Email', 'Phone', 'Address', 'Details'];

/** The export as one CSV table: a row per booking, history line, note, message, e-mail and waitlist entry. */
function toCsv(dto: CustomerExportDto): string {
  const rows: (string | number)[][] = [];
  for (const { booking: b, history, notes, payment } of dto.bookings) {
    const address = [b.houseNumber, b.streetAddress, b.suburb, b.city, b.postalCode, b.region, b.landmark].filter(Boolean).join(', ');
    const paid = payment ? `; paid ${(payment.amountCents / 100).toFixed(2)} NZD${payment.invoiceNumber ? `, invoice ${payment.invoiceNumber}` : ''}` : '';
    rows.push(['booking', b.reference, `${b.date} ${b.time}`, b.status, b.name, b.email, b.phone, address, `${b.service}; total ${(b.quote.totalCents / 100).toFixed(2)} NZD${paid}; notes: ${b.notes}`]);
    for (const h of history) {
      const changes = (h.changes ?? []).map((c) => `${c.field}: ${c.from} → ${c.to}`).join('; ');
      rows.push(['history', b.reference, h.at, h.to, '', '', '', '', [`by ${h.by}`, h.note ?? '', changes].filter(Boolean).join('; ')]);
    }
    for (const n of notes) rows.push(['note', b.reference, n.at, '', '', '', '', '', n.text]);
  }
  for (const m of dto.contactMessages) rows.push(['message', '', m.createdAt, m.read ? 'read' : 'unread', m.name, m.email, m.phone, '', m.message]);
  for (const e of dto.emails) rows.push(['email', '', e.createdAt, e.status, e.to, '', '', '', `${e.kind}: ${e.subject}`]);
  for (const w of dto.waitlistEntries) rows.push(['waitlist', '', w.createdAt, w.status, String(w.request.name ?? ''), String(w.request.email ?? ''), String(w.request.phone ?? ''), '', `waiting for ${w.date} (${w.part})`]);
  return stringify(rows.map((r) => r.map(neutraliseFormula)), { header: true, columns: CSV_COLUMNS, bom: true });
}

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/customers/:id/export',
    {
      preHandler: app.requireOwner,
      schema: {
        operationId: 'exportCustomer',
        summary: 'Everything held about a customer, as a JSON file or (format=csv) a CSV file (owner only)',
        tags: ['staff'],
        params: IdParams,
        querystring: Type.Object({ format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('csv')], { default: 'json' })) }, { additionalProperties: false }),
        produces: ['application/json', 'text/csv'],
        response: { 200: CustomerExportSchema, 404: ErrorSchema, ...staffErrorResponses, ...ownerOnly },
      },
    },
    async (request, reply) => {
      const now = app.now();
      const dto = toExportDto(await exportCustomer(app.db, request.params.id, now, app.mail), now);
      request.log.info({ customer: request.params.id, by: request.staff?.name }, 'customer data exported');
      const csv = request.query.format === 'csv';
      const name = `customer-${request.params.id.slice(0, 8)}-${todayInAuckland(now)}.${csv ? 'csv' : 'json'}`;
      reply.header('content-disposition', `attachment; filename="${name}"`);
      if (!csv) return dto;
      // The string answer is sent as it is; the JSON schema above documents the JSON one.
      return reply.type('text/csv; charset=utf-8').serializer((s: string) => s).send(toCsv(dto) as unknown as CustomerExportDto);
    },
  );

  app.patch(
    '/customers/:id',
    {
      schema: {
        operationId: 'correctCustomer',
        summary: "Correct a customer's name, e-mail, phone or address on every one of their bookings",
        tags: ['staff'],
        params: IdParams,
        body: CustomerCorrectionSchema,
        response: { 200: CustomerCorrectedSchema, 404: ErrorSchema, ...staffErrorResponses },
      },
    },
    async (request) => {
      const result = await correctCustomer(app.db, request.params.id, request.body, { by: request.staff?.name ?? 'Staff', now: app.now() });
      return { customer: toCustomerDto(result.customer), bookingsChanged: result.bookingsChanged };
    },
  );

  app.post(
    '/customers/:id/erasure',
    {
      preHandler: app.requireOwner,
      schema: {
        operationId: 'eraseCustomer',
        summary: "Erase a customer's personal details wherever they are held (owner only; cannot be undone)",
        tags: ['staff'],
        params: IdParams,
        body: ErasureRequestSchema,
        response: { 200: ErasureResultSchema, 404: ErrorSchema, ...staffErrorResponses, ...ownerOnly },
      },
    },
    async (request) => {
      const erased = await eraseCustomer(app.db, request.params.id, request.body.confirmation, { by: request.staff?.name ?? 'Staff', now: app.now() });
      request.log.info({ erased, by: request.staff?.name }, 'customer erased');
      return { erased };
    },
  );
};

export default route;
