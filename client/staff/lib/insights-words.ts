/**
 * The Insights' summary sentences (issue 44): each chart's figure for the range, compared with the
 * same figure for as many days just before it (InsightsDto.previous): "Utilisation 71%, up from
 * 64% in the 30 days before." Pure and import-light (the answer's type and the money format), so
 * that the server's page, the browser's updates and a unit test word them alike.
 */
import type { InsightsDto } from '#api/insights-schemas.ts';
import { formatNzd } from '#domain/pricing.ts';
import { hour, percent, WEEKDAYS, type InsightsChart } from './insights-tables.ts';

/** '1 day', '19.5 days'. */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** The days before the range, in words: 'on the day before', 'in the 30 days before'. */
export function daysBefore(previous: { from: string; to: string }): string {
  const days = Math.round((Date.parse(`${previous.to}T00:00:00Z`) - Date.parse(`${previous.from}T00:00:00Z`)) / 86_400_000) + 1;
  return days === 1 ? 'on the day before' : `in the ${days} days before`;
}

/**
 * How a figure compares with the one before, as the end of a sentence (`when` is daysBefore's):
 * ', up from 64% in the 30 days before', ', down from …', ', the same as in …'; and when there is
 * no figure before (null), the `none` words: ', with no bookings in the 30 days before to compare'.
 */
export function comparison(now: number, before: number | null, words: { when: string; format(n: number): string; none?: string }): string {
  if (before === null) return `, with ${words.none ?? 'nothing'} ${words.when} to compare`;
  if (now === before) return `, the same as ${words.when}`;
  return `, ${now > before ? 'up' : 'down'} from ${words.format(before)} ${words.when}`;
}

/** Each chart's summary sentence (the heat map's, which compares nothing, included). */
export function insightsSummaries(data: InsightsDto) {
  const { revenue, utilisation, customers, losses, leadTime, heatMap, previous } = data;
  const when = daysBefore(previous);
  const money = { when, format: formatNzd };

  const work = [...data.work.byPackage, ...data.work.byAddOn];
  const top = work[0];
  const workCents = work.reduce((sum, w) => sum + w.amountCents, 0);

  const used = percent(utilisation.heldMinutes, utilisation.openMinutes);
  const usedBefore = percent(previous.utilisation.heldMinutes, previous.utilisation.openMinutes);
  const hours = (minutes: number) => Math.round(minutes / 60);

  const people = customers.new + customers.returning;
  const peopleBefore = previous.customers.new + previous.customers.returning;

  const lostOf = (l: Pick<InsightsDto['losses'], 'cancelled' | 'noShow' | 'lapsed'>) => ({
    count: l.cancelled.count + l.noShow.count + l.lapsed.count,
    cents: l.cancelled.amountCents + l.noShow.amountCents + l.lapsed.amountCents,
  });
  const lost = lostOf(losses);

  const days = (n: number) => plural(n, 'day');
  const busiest = heatMap.counts.flatMap((row, d) => row.map((count, h) => ({ d, h, count }))).sort((a, b) => b.count - a.count)[0];

  return {
    revenue: `Taken ${formatNzd(revenue.totalCents)} (GST ${formatNzd(revenue.gstCents)})${comparison(revenue.totalCents, previous.revenue.totalCents, money)}.`,
    work:
      (top ? `${top.name} brought the most: ${formatNzd(top.amountCents)} from ${top.count} done. ` : 'No jobs completed in this range. ') +
      `Work worth ${formatNzd(workCents)} at list price${comparison(workCents, previous.work.amountCents, money)}.`,
    utilisation:
      used === null
        ? `No hours open in this range${usedBefore === null ? '' : `; utilisation was ${usedBefore}% ${when}`}.`
        : `Utilisation ${used}% (${hours(utilisation.heldMinutes)} of ${hours(utilisation.openMinutes)} hours open held by jobs)${comparison(used, usedBefore, { when, format: (n) => `${n}%`, none: 'no hours open' })}.`,
    customers:
      `${customers.new} new and ${customers.returning} returning ${people === 1 ? 'customer' : 'customers'}` +
      comparison(people, peopleBefore, { when, format: () => (peopleBefore === 0 ? 'none' : `${previous.customers.new} new and ${previous.customers.returning} returning`) }) +
      '.',
    losses: `${lost.count} of ${plural(losses.bookings, 'booking')} lost, worth ${formatNzd(lost.cents)}${comparison(lost.cents, lostOf(previous.losses).cents, money)}.`,
    'lead-time':
      leadTime.medianDays === null
        ? `No bookings in this range${previous.leadTime.medianDays === null ? `, nor ${when}` : `; the median was ${days(previous.leadTime.medianDays)} ${when}`}.`
        : `Median ${days(leadTime.medianDays)} from booking to appointment, over ${plural(leadTime.count, 'booking')}${comparison(leadTime.medianDays, previous.leadTime.medianDays, { when, format: days, none: 'no bookings' })}.`,
    busiest:
      busiest && busiest.count > 0
        ? `Busiest: ${WEEKDAYS[busiest.d]} at ${hour(heatMap.firstHour + busiest.h)}, ${plural(busiest.count, 'job')} started.`
        : 'No jobs started in this range.',
  } satisfies Record<InsightsChart, string>;
}
