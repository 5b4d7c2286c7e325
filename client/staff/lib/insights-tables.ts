/**
 * The Insights' numbers as tables (issue 44): one pure function from GET /v1/insights' answer to
 * each chart's head and rows, used both by the page's tables and by the server's CSV downloads
 * (GET /dashboard/insights/{chart}.csv), so that a table and its CSV cannot disagree. Also the
 * ranges the page offers (this week, month or quarter of an Auckland day) and the CSV's address.
 */
import type { InsightsDto } from '#api/insights-schemas.ts';
import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS } from '#domain/completion.ts';
import { INSIGHTS_PAGE_PATH } from '#domain/site-paths.ts';

/** The charts, in the page's order: each one's id, table and CSV file are named by these. */
export const INSIGHTS_CHARTS = ['revenue', 'work', 'utilisation', 'customers', 'losses', 'lead-time', 'busiest'] as const;
export type InsightsChart = (typeof INSIGHTS_CHARTS)[number];

export type InsightsCell = string | number;
export interface InsightsTable {
  head: string[];
  rows: InsightsCell[][];
}

/** The page's choice of range: a preset of the Auckland day, or two dates. */
export const INSIGHTS_RANGES = ['week', 'month', 'quarter', 'custom'] as const;
export type InsightsRange = (typeof INSIGHTS_RANGES)[number];

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

export const dollars = (cents: number): string => (cents / 100).toFixed(2);
/** Held of open, in whole per cent; null when nothing was open. */
export const percent = (held: number, open: number): number | null => (open === 0 ? null : Math.round((held / open) * 100));
export const hour = (h: number): string => `${String(h).padStart(2, '0')}:00`;

const day = (date: Date) => date.toISOString().slice(0, 10);

/** This week (Monday to Sunday), month or quarter of an Auckland day (YYYY-MM-DD). */
export function rangeOf(kind: Exclude<InsightsRange, 'custom'>, today: string): { from: string; to: string } {
  const date = new Date(`${today}T00:00:00Z`);
  if (kind === 'week') {
    const monday = new Date(date.getTime() - ((date.getUTCDay() + 6) % 7) * 86_400_000);
    return { from: day(monday), to: day(new Date(monday.getTime() + 6 * 86_400_000)) };
  }
  const months = kind === 'month' ? 1 : 3;
  const first = kind === 'month' ? date.getUTCMonth() : date.getUTCMonth() - (date.getUTCMonth() % 3);
  return { from: day(new Date(Date.UTC(date.getUTCFullYear(), first, 1))), to: day(new Date(Date.UTC(date.getUTCFullYear(), first + months, 0))) };
}

/** The file a chart's CSV downloads as: insights-revenue-2026-04-01-to-2026-04-30.csv. */
export const insightsCsvName = (chart: InsightsChart, from: string, to: string): string => `insights-${chart}-${from}-to-${to}.csv`;

/** The address of a chart's CSV for a range. */
export const insightsCsvPath = (chart: InsightsChart, from: string, to: string): string => `${INSIGHTS_PAGE_PATH}/${chart}.csv?${new URLSearchParams({ from, to })}`;

/** Each chart's numbers: money in dollars (NZD, two decimals), hours to a tenth, counts as they are. */
export function insightsTables(data: InsightsDto): Record<InsightsChart, InsightsTable> {
  const { revenue, work, utilisation, customers, losses, leadTime, heatMap } = data;
  return {
    revenue: {
      head: ['Week', ...PAYMENT_METHODS.map((m) => `${PAYMENT_METHOD_LABELS[m]} (NZD)`), 'Total (NZD)', 'GST (NZD)'],
      rows: revenue.weeks.map((w) => [w.week, ...PAYMENT_METHODS.map((m) => dollars(w.byMethod[m])), dollars(w.totalCents), dollars(w.gstCents)]),
    },
    work: {
      head: ['Name', 'Kind', 'Done', 'Jobs', 'Amount (NZD)'],
      rows: [...work.byPackage.map((w) => [w.name, 'package', w.count, w.jobs, dollars(w.amountCents)]), ...work.byAddOn.map((w) => [w.name, 'add-on', w.count, w.jobs, dollars(w.amountCents)])],
    },
    utilisation: {
      head: ['Van or bay', 'Week', 'Hours held', 'Hours open', 'Utilisation (%)'],
      rows: utilisation.resources.flatMap((r) => r.weeks.map((w) => [r.name, w.week, (w.heldMinutes / 60).toFixed(1), (w.openMinutes / 60).toFixed(1), percent(w.heldMinutes, w.openMinutes) ?? ''])),
    },
    customers: { head: ['Week', 'New', 'Returning'], rows: customers.weeks.map((w) => [w.week, w.new, w.returning]) },
    losses: {
      head: ['Kind', 'Bookings', 'Amount (NZD)'],
      rows: [
        ['Cancelled', losses.cancelled.count, dollars(losses.cancelled.amountCents)],
        ['No-show', losses.noShow.count, dollars(losses.noShow.amountCents)],
        ['Lapsed', losses.lapsed.count, dollars(losses.lapsed.amountCents)],
      ],
    },
    'lead-time': { head: ['Days ahead', 'Bookings'], rows: leadTime.buckets.map((b) => [b.label, b.count]) },
    busiest: {
      head: ['Weekday', ...(heatMap.counts[0] ?? []).map((_, h) => hour(heatMap.firstHour + h))],
      rows: heatMap.counts.map((row, d) => [WEEKDAYS[d]!, ...row]),
    },
  };
}
