/**
 * /dashboard/insights (issue 44): the owner's Insights page, rendered by the server (charts,
 * summaries, tables) and hydrated, for ?range=week|month|quarter (of today in Auckland) or
 * ?range=custom&from=&to=; this month by default. Its range form is a GET form to this address, so
 * it works without JavaScript. Signed out: to /dashboard (303); a member whose role is staff: a
 * page saying the Insights are the owner's (403); a refused range: the page with the message beside
 * the form (400). And /dashboard/insights/{chart}.csv?from=&to=: a chart's numbers, the rows of its
 * table (insights-tables.ts), as CSV. Every answer is `no-store`: the figures are private.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { stringify } from 'csv-stringify/sync';
import { Type } from 'typebox';
import { INSIGHTS_CHARTS, INSIGHTS_RANGES, insightsCsvName, insightsTables, rangeOf, type InsightsChart, type InsightsRange } from '#client/staff/lib/insights-tables.ts';
import type { InsightsState } from '#client/page-state.ts';
import { todayInAuckland } from '../../domain/booking-dates.ts';
import { INSIGHTS_PAGE_PATH } from '../../domain/site-paths.ts';
import { formError, forbidden, unauthorized } from '../../errors.ts';
import { insightsBetween } from '../../services/insights.service.ts';
import { neutraliseFormula } from '../v1/staff/bookings-export.ts';

const Day = Type.String({ maxLength: 10, description: 'YYYY-MM-DD (Auckland)' });

const PageQuery = Type.Object({
  range: Type.Optional(Type.Union(INSIGHTS_RANGES.map((range) => Type.Literal(range)))),
  from: Type.Optional(Day),
  to: Type.Optional(Day),
});

const CsvQuery = Type.Object({ from: Type.String({ format: 'date' }), to: Type.String({ format: 'date' }) });
const CsvParams = Type.Object({ file: Type.String({ maxLength: 40 }) });

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const BAD_DATES = 'Choose the first and the last day of the range.';

const route: FastifyPluginAsyncTypebox = async (app) => {
  function page(reply: FastifyReply, status: number, state: InsightsState) {
    return reply.page({ path: INSIGHTS_PAGE_PATH, status, state, cacheKey: false });
  }

  app.get(INSIGHTS_PAGE_PATH, { attachValidation: true, schema: { hide: true, querystring: PageQuery } }, async (request, reply) => {
    app.database.assertReady();
    const staff = await app.staffAuth.signedInStaff(request);
    if (!staff) return reply.header('cache-control', 'no-store').redirect('/dashboard', 303);
    const today = todayInAuckland(app.now());
    const query = request.validationError ? {} : request.query;
    // Two dates without a range are the range of those days; no range at all is this month.
    const range: InsightsRange = query.range ?? (query.from || query.to ? 'custom' : 'month');
    const days = range === 'custom' ? { from: query.from ?? '', to: query.to ?? '' } : rangeOf(range, today);
    const base = { view: 'insights' as const, range, ...days, today, insights: null, error: null };
    if (staff.role !== 'owner') return page(reply, 403, { ...base, view: 'forbidden' });
    if (request.validationError || !DAY.test(days.from) || !DAY.test(days.to)) return page(reply, 400, { ...base, error: BAD_DATES });
    try {
      return page(reply, 200, { ...base, insights: await insightsBetween(app.db, days.from, days.to, app.config.takingsMaxDays) });
    } catch (caught) {
      const error = formError(caught);
      if (!error || error.statusCode >= 500) throw caught;
      return page(reply, error.statusCode, { ...base, error: error.errors[0]?.message ?? error.message });
    }
  });

  /** The CSVs' door, before their query is checked: 401 without a session, 403 for a member whose role is staff. */
  async function ownerOnly(request: FastifyRequest, reply: FastifyReply) {
    reply.header('cache-control', 'no-store');
    app.database.assertReady();
    const staff = await app.staffAuth.signedInStaff(request);
    if (!staff) throw unauthorized();
    if (staff.role !== 'owner') throw forbidden('Only the owner sees the Insights');
  }

  app.get(`${INSIGHTS_PAGE_PATH}/:file`, { onRequest: ownerOnly, schema: { hide: true, params: CsvParams, querystring: CsvQuery } }, async (request, reply) => {
    const chart = INSIGHTS_CHARTS.find((c) => `${c}.csv` === request.params.file) as InsightsChart | undefined;
    if (!chart) return reply.callNotFound();
    const { from, to } = request.query;
    const table = insightsTables(await insightsBetween(app.db, from, to, app.config.takingsMaxDays))[chart];
    const csv = stringify(table.rows.map((row) => row.map(neutraliseFormula)), { header: true, columns: table.head, bom: true });
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${insightsCsvName(chart, from, to)}"`)
      .send(csv);
  });
};

export default route;
