/**
 * The owner's Insights (issue 44): GET /v1/insights. The range is checked as the takings' is (from
 * not after to, at most TAKINGS_MAX_DAYS days); each measure is added up by the database
 * (src/db/insights.repository.ts) and only shaped here.
 */
import type { Kysely } from 'kysely';
import { INSIGHTS_FIRST_HOUR, INSIGHTS_HOURS, INSIGHTS_LEAD_BUCKETS, type InsightsDto } from '../api/insights-schemas.ts';
import type { Database } from '../db/database.ts';
import { bookingsStarting, completedWork, customersByWeek, utilisationByWeek, type InsightsPeriods, type InsightsRange, type LostRow } from '../db/insights.repository.ts';
import { addDaysToDay, aucklandInstant, daysBetween } from '../domain/booking-dates.ts';
import { PAYMENT_METHODS, type PaymentMethod } from '../domain/completion.ts';
import type { StoredLine } from '../domain/job.ts';
import { takingsByWork, takingsRange } from './completion.service.ts';

/** The Monday (YYYY-MM-DD) of a day's ISO week. */
export function mondayOf(day: string): string {
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
  return addDaysToDay(day, -weekday);
}

const lostOf = (lost: LostRow, key: string) => ({ count: Number(lost[key]), amountCents: Number(lost[`${key}_cents`]) });
const lossesOf = (lost: LostRow) => ({ bookings: Number(lost.bookings), cancelled: lostOf(lost, 'cancelled'), noShow: lostOf(lost, 'no_show'), lapsed: lostOf(lost, 'lapsed') });
const medianOf = (lost: LostRow) => (lost.lead_median === null || lost.lead_median === undefined ? null : Number(lost.lead_median));

const noMoney = () => ({ totalCents: 0, gstCents: 0, byMethod: Object.fromEntries(PAYMENT_METHODS.map((m) => [m, 0])) as Record<PaymentMethod, number> });

export async function insightsBetween(db: Kysely<Database>, fromDay: string, toDay: string, maxDays: number): Promise<InsightsDto> {
  const [from, to] = takingsRange(fromDay, toDay, maxDays);
  const range: InsightsRange = { fromDay, toDay, from, to };
  const days = daysBetween(fromDay, toDay);
  // As many days just before, for the summaries' "up from".
  const beforeFrom = addDaysToDay(fromDay, -days.length);
  const before: InsightsRange = { fromDay: beforeFrom, toDay: addDaysToDay(fromDay, -1), from: new Date(aucklandInstant(beforeFrom, '00:00')), to: from };
  const periods: InsightsPeriods = { range, before };
  const weeks = [...new Set(days.map(mondayOf))];
  const [{ revenue: revenueRows, work: workRows, before: workBefore }, useRows, customerRows, { lost, before: lostBefore, starts }] = await Promise.all([
    completedWork(db, periods),
    utilisationByWeek(db, periods),
    customersByWeek(db, periods),
    bookingsStarting(db, periods, INSIGHTS_LEAD_BUCKETS),
  ]);

  const revenueWeeks = new Map(weeks.map((week) => [week, { week, ...noMoney() }]));
  const revenue = noMoney();
  for (const row of revenueRows) {
    for (const sum of [revenue, revenueWeeks.get(row.week)!]) {
      sum.totalCents += row.total_cents;
      sum.gstCents += row.gst_cents;
      sum.byMethod[row.method as PaymentMethod] += row.total_cents;
    }
  }

  // The database's sums by code, handed to the takings' own naming and ordering as one line each.
  const lines = workRows.map((row) => ({ kind: row.kind, code: row.code, description: row.description, quantity: row.quantity, totalCents: row.total_cents }) as StoredLine);
  const jobs = new Map(workRows.map((row) => [`${row.kind} ${row.code}`, row.jobs]));
  const work = takingsByWork(lines);
  const withJobs = (kind: string) => (taking: (typeof work.byPackage)[number]) => ({ ...taking, jobs: jobs.get(`${kind} ${taking.code}`) ?? 0 });

  const resources = new Map<string, InsightsDto['utilisation']['resources'][number]>();
  for (const row of useRows) {
    if (row.id === null) continue;
    const resource = resources.get(row.id) ?? { id: row.id, name: row.name, kind: row.kind, heldMinutes: 0, openMinutes: 0, weeks: [] };
    resource.heldMinutes += row.held_minutes;
    resource.openMinutes += row.open_minutes;
    resource.weeks.push({ week: row.week!, heldMinutes: row.held_minutes, openMinutes: row.open_minutes });
    resources.set(row.id, resource);
  }
  const used = [...resources.values()];

  const customerWeeks = new Map(customerRows.filter((row) => row.week !== null).map((row) => [row.week!, row]));
  const customerTotals = (period: 'range' | 'before') => customerRows.find((row) => row.week === null && row.period === period);
  const usedBefore = useRows.find((row) => row.id === null);

  const counts = Array.from({ length: 7 }, () => Array<number>(INSIGHTS_HOURS).fill(0));
  let outside = 0;
  for (const row of starts) {
    const column = row.hour - INSIGHTS_FIRST_HOUR;
    if (column >= 0 && column < INSIGHTS_HOURS) counts[row.weekday - 1]![column]! += row.count;
    else outside += row.count;
  }

  return {
    from: fromDay,
    to: toDay,
    weeks,
    revenue: { ...revenue, weeks: [...revenueWeeks.values()] },
    work: { byPackage: work.byPackage.map(withJobs('package')), byAddOn: work.byAddOn.map(withJobs('add-on')) },
    utilisation: { heldMinutes: used.reduce((sum, r) => sum + r.heldMinutes, 0), openMinutes: used.reduce((sum, r) => sum + r.openMinutes, 0), resources: used },
    customers: {
      new: customerTotals('range')?.new ?? 0,
      returning: customerTotals('range')?.returning ?? 0,
      weeks: weeks.map((week) => ({ week, new: customerWeeks.get(week)?.new ?? 0, returning: customerWeeks.get(week)?.returning ?? 0 })),
    },
    losses: lossesOf(lost),
    leadTime: {
      count: Number(lost.lead_count),
      medianDays: medianOf(lost),
      buckets: INSIGHTS_LEAD_BUCKETS.map((bucket, i) => ({ ...bucket, count: Number(lost[`bucket_${i}`]) })),
    },
    previous: {
      from: before.fromDay,
      to: before.toDay,
      revenue: { totalCents: workBefore.total_cents, gstCents: workBefore.gst_cents },
      work: { amountCents: workBefore.work_cents },
      utilisation: { heldMinutes: usedBefore?.held_minutes ?? 0, openMinutes: usedBefore?.open_minutes ?? 0 },
      customers: { new: customerTotals('before')?.new ?? 0, returning: customerTotals('before')?.returning ?? 0 },
      losses: lossesOf(lostBefore),
      leadTime: { count: Number(lostBefore.lead_count), medianDays: medianOf(lostBefore) },
    },
    heatMap: { firstHour: INSIGHTS_FIRST_HOUR, counts, outside },
  };
}
