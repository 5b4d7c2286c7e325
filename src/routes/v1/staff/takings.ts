/**
 * GET /v1/takings?from=&to=: the jobs completed in a date range (Auckland dates, both included),
 * what was taken by payment method, the GST, the jobs still unpaid, and the packages and add-ons
 * done (issue 41, from the jobs' lines); GET /v1/takings.csv: the
 * same jobs one a row, for the accounts.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { stringify } from 'csv-stringify/sync';
import { Type } from 'typebox';
import { PAYMENT_METHODS } from '../../../domain/completion.ts';
import { completedOn, invoicesBetween, takingsBetween, type TakingsJob } from '../../../services/completion.service.ts';
import { XERO_COLUMNS, xeroRows } from '../../../domain/xero.ts';
import { staffErrorResponses } from '../schemas.ts';
import { PaymentMethodSchema } from './booking-completion.ts';
import { neutraliseFormula } from './bookings-export.ts';

const RangeQuery = Type.Object(
  {
    from: Type.String({ format: 'date', description: 'First completion date, YYYY-MM-DD (Auckland)' }),
    to: Type.String({ format: 'date', description: 'Last completion date, YYYY-MM-DD (Auckland); at most TAKINGS_MAX_DAYS after from' }),
  },
  { additionalProperties: false },
);

const JobSchema = Type.Object({
  bookingId: Type.String({ format: 'uuid' }),
  version: Type.Integer({ minimum: 1 }),
  reference: Type.String(),
  name: Type.String(),
  completedAt: Type.String({ format: 'date-time' }),
  amountCents: Type.Integer(),
  gstCents: Type.Integer(),
  paymentMethod: Type.Union([PaymentMethodSchema, Type.Null()]),
  paidAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  invoiceNumber: Type.Union([Type.Integer(), Type.Null()]),
});

const WorkSchema = Type.Object({
  code: Type.String({ description: 'The package name, or the add-on id' }),
  name: Type.String(),
  count: Type.Integer({ minimum: 0, description: 'How many were done (an add-on taken twice counts twice)' }),
  amountCents: Type.Integer({ minimum: 0, description: "Their lines' amount at list price (discounts, travel fees and adjustments are the job's, not a line's)" }),
});

const TakingsSchema = Type.Object({
  from: Type.String({ format: 'date' }),
  to: Type.String({ format: 'date' }),
  completed: Type.Object({ count: Type.Integer(), amountCents: Type.Integer(), gstCents: Type.Integer() }, { description: 'Every job completed in the range' }),
  taken: Type.Object(
    {
      byMethod: Type.Object(Object.fromEntries(PAYMENT_METHODS.map((m) => [m, Type.Integer()])) as Record<(typeof PAYMENT_METHODS)[number], ReturnType<typeof Type.Integer>>),
      totalCents: Type.Integer(),
      gstCents: Type.Integer(),
    },
    { description: 'What was paid of those jobs, by method' },
  ),
  unpaid: Type.Object({ count: Type.Integer(), amountCents: Type.Integer(), jobs: Type.Array(JobSchema) }),
  jobs: Type.Array(JobSchema),
  byPackage: Type.Array(WorkSchema, { description: 'The packages done in those jobs, vehicle by vehicle, the largest amount first' }),
  byAddOn: Type.Array(WorkSchema, { description: 'The add-ons done in those jobs, the largest amount first' }),
});

const jobDto = (job: TakingsJob) => ({ ...job, completedAt: job.completedAt.toISOString(), paidAt: job.paidAt?.toISOString() ?? null });

const dollars = (cents: number) => (cents / 100).toFixed(2);

const COLUMNS: [string, (job: TakingsJob) => string | number][] = [
  ['Completed', (j) => completedOn(j)],
  ['Reference', (j) => j.reference],
  ['Name', (j) => j.name],
  ['Amount (NZD)', (j) => dollars(j.amountCents)],
  ['GST (NZD)', (j) => dollars(j.gstCents)],
  ['Payment method', (j) => j.paymentMethod ?? ''],
  ['Paid', (j) => (j.paidAt ? 'yes' : 'no')],
  ['Paid at', (j) => j.paidAt?.toISOString() ?? ''],
  ['Invoice number', (j) => j.invoiceNumber ?? ''],
  ['Booking id', (j) => j.bookingId],
];

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/takings',
    {
      schema: {
        operationId: 'takings',
        summary: 'Takings for a date range: jobs completed, amount taken by payment method, GST, unpaid jobs',
        tags: ['staff'],
        querystring: RangeQuery,
        response: { 200: TakingsSchema, ...staffErrorResponses },
      },
    },
    async (request) => {
      const takings = await takingsBetween(app.db, request.query.from, request.query.to, app.config.takingsMaxDays);
      return { ...takings, unpaid: { ...takings.unpaid, jobs: takings.unpaid.jobs.map(jobDto) }, jobs: takings.jobs.map(jobDto) };
    },
  );

  app.get(
    '/takings.csv',
    {
      schema: {
        operationId: 'exportTakings',
        summary: 'The jobs completed in a date range as CSV: amount, GST, method, paid, invoice number',
        tags: ['staff'],
        querystring: RangeQuery,
        produces: ['text/csv'],
        response: { 200: { type: 'string', description: 'CSV, one completed job a row, oldest first' }, ...staffErrorResponses },
      },
    },
    async (request, reply) => {
      const { from, to } = request.query;
      const takings = await takingsBetween(app.db, from, to, app.config.takingsMaxDays);
      const csv = stringify(
        takings.jobs.map((job) => COLUMNS.map(([, cell]) => neutraliseFormula(cell(job)))),
        { header: true, columns: COLUMNS.map(([name]) => name), bom: true },
      );
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="takings-${from}-to-${to}.csv"`)
        .send(csv);
    },
  );

  app.get(
    '/takings/xero.csv',
    {
      schema: {
        operationId: 'exportInvoicesForXero',
        summary: "The jobs completed in a date range as Xero's sales invoice import file",
        description:
          "Xero's template columns, one row per invoice line (the job's lines, its discount, adjustment and travel fee, and a change made at completion), GST-inclusive amounts (import with \"Amounts are tax inclusive\"), tax type 15% GST on Income (No GST for a job completed without GST_NUMBER), account XERO_ACCOUNT_CODE. A tax invoice is numbered INV- and its number; a receipt by its booking reference.",
        tags: ['staff'],
        querystring: RangeQuery,
        produces: ['text/csv'],
        response: { 200: { type: 'string', description: 'CSV in Xero\'s sales invoice import format' }, ...staffErrorResponses },
      },
    },
    async (request, reply) => {
      const { from, to } = request.query;
      const invoices = await invoicesBetween(app.db, from, to, app.config.takingsMaxDays, app.config.business);
      const rows = invoices.flatMap((invoice) => xeroRows(invoice, app.config.xeroAccountCode));
      const csv = stringify(
        rows.map((row) => XERO_COLUMNS.map((column) => neutraliseFormula(row[column]))),
        { header: true, columns: [...XERO_COLUMNS] },
      );
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="xero-invoices-${from}-to-${to}.csv"`)
        .send(csv);
    },
  );
};

export default route;
