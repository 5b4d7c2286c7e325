/**
 * The Insights' summary sentences (issue 44, client/staff/lib/insights-words.ts): each figure
 * compared with the days before the range, up, down, the same, or with nothing to compare; one
 * and many; and the tables the page and the CSV share (insights-tables.ts).
 */
import t from 'tap';
import type { InsightsDto } from '../src/api/insights-schemas.ts';
import { comparison, daysBefore, insightsSummaries, plural } from '../client/staff/lib/insights-words.ts';
import { INSIGHTS_CHARTS, insightsCsvName, insightsCsvPath, insightsTables, rangeOf } from '../client/staff/lib/insights-tables.ts';

const lost = (count: number, amountCents: number) => ({ count, amountCents });
const method = (cash: number) => ({ cash, 'bank-transfer': 0, card: 0, other: 0 });

/** April 2026 against the 30 days before (2 to 31 March). */
function insights(overrides: { current?: Partial<InsightsDto>; previous?: Partial<InsightsDto['previous']> } = {}): InsightsDto {
  const base: InsightsDto = {
    from: '2026-04-01',
    to: '2026-04-30',
    weeks: ['2026-03-30'],
    revenue: { totalCents: 313000, gstCents: 40826, byMethod: method(313000), weeks: [{ week: '2026-03-30', totalCents: 313000, gstCents: 40826, byMethod: method(313000) }] },
    work: { byPackage: [{ code: 'Quick Clean', name: 'Quick Clean', count: 3, jobs: 3, amountCents: 20700 }], byAddOn: [{ code: 'pet-hair', name: '=Pet hair', count: 1, jobs: 1, amountCents: 4500 }] },
    utilisation: { heldMinutes: 71 * 60, openMinutes: 100 * 60, resources: [{ id: '00000000-0000-4000-8000-000000000001', name: 'Van 1', kind: 'onsite', heldMinutes: 71 * 60, openMinutes: 100 * 60, weeks: [{ week: '2026-03-30', heldMinutes: 71 * 60, openMinutes: 100 * 60 }] }] },
    customers: { new: 5, returning: 1, weeks: [{ week: '2026-03-30', new: 5, returning: 1 }] },
    losses: { bookings: 9, cancelled: lost(2, 20000), noShow: lost(1, 6700), lapsed: lost(0, 0) },
    leadTime: { count: 12, medianDays: 3, buckets: [{ label: '0–1', min: 0, max: 1, count: 12 }] },
    previous: {
      from: '2026-03-02',
      to: '2026-03-31',
      revenue: { totalCents: 390000, gstCents: 50870 },
      work: { amountCents: 25200 },
      utilisation: { heldMinutes: 64 * 60, openMinutes: 100 * 60 },
      customers: { new: 2, returning: 3 },
      losses: { bookings: 4, cancelled: lost(0, 0), noShow: lost(0, 0), lapsed: lost(0, 0) },
      leadTime: { count: 4, medianDays: 19.5 },
    },
    heatMap: { firstHour: 7, counts: Array.from({ length: 7 }, (_, d) => Array.from({ length: 14 }, (_, h) => (d === 2 && h === 2 ? 1 : 0))), outside: 0 },
  };
  return { ...base, ...overrides.current, previous: { ...base.previous, ...overrides.previous } };
}

t.test('the comparing words', async (t) => {
  const words = { when: 'in the 30 days before', format: (n: number) => `${n}%` };
  t.equal(comparison(71, 64, words), ', up from 64% in the 30 days before');
  t.equal(comparison(50, 64, words), ', down from 64% in the 30 days before');
  t.equal(comparison(64, 64, words), ', the same as in the 30 days before');
  t.equal(comparison(64, null, { ...words, none: 'no hours open' }), ', with no hours open in the 30 days before to compare');
  t.equal(comparison(64, null, words), ', with nothing in the 30 days before to compare');
  t.equal(daysBefore({ from: '2026-03-02', to: '2026-03-31' }), 'in the 30 days before');
  t.equal(daysBefore({ from: '2026-03-31', to: '2026-03-31' }), 'on the day before');
  t.equal(comparison(2, 1, { when: 'on the day before', format: String }), ', up from 1 on the day before');
  t.equal(plural(1, 'day'), '1 day');
  t.equal(plural(19.5, 'day'), '19.5 days');
  t.equal(plural(0, 'booking'), '0 bookings');
});

t.test('each chart says how it compares with the days before', async (t) => {
  const words = insightsSummaries(insights());
  t.equal(words.revenue, 'Taken $3,130.00 (GST $408.26), down from $3,900.00 in the 30 days before.');
  t.equal(words.work, 'Quick Clean brought the most: $207.00 from 3 done. Work worth $252.00 at list price, the same as in the 30 days before.');
  t.equal(words.utilisation, 'Utilisation 71% (71 of 100 hours open held by jobs), up from 64% in the 30 days before.');
  t.equal(words.customers, '5 new and 1 returning customers, up from 2 new and 3 returning in the 30 days before.');
  t.equal(words.losses, '3 of 9 bookings lost, worth $267.00, up from $0.00 in the 30 days before.');
  t.equal(words['lead-time'], 'Median 3 days from booking to appointment, over 12 bookings, down from 19.5 days in the 30 days before.');
  t.equal(words.busiest, 'Busiest: Wednesday at 09:00, 1 job started.', 'the heat map compares nothing');
});

t.test('nothing before, nothing now, one of a thing', async (t) => {
  const empty = insightsSummaries(
    insights({
      current: { customers: { new: 1, returning: 0, weeks: [] }, leadTime: { count: 1, medianDays: 1, buckets: [] }, work: { byPackage: [], byAddOn: [] } },
      previous: { utilisation: { heldMinutes: 0, openMinutes: 0 }, customers: { new: 0, returning: 0 }, leadTime: { count: 0, medianDays: null }, work: { amountCents: 0 } },
    }),
  );
  t.equal(empty.utilisation, 'Utilisation 71% (71 of 100 hours open held by jobs), with no hours open in the 30 days before to compare.');
  t.equal(empty.customers, '1 new and 0 returning customer, up from none in the 30 days before.');
  t.equal(empty['lead-time'], 'Median 1 day from booking to appointment, over 1 booking, with no bookings in the 30 days before to compare.');
  t.equal(empty.work, 'No jobs completed in this range. Work worth $0.00 at list price, the same as in the 30 days before.');

  const none = insightsSummaries(
    insights({
      current: { utilisation: { heldMinutes: 0, openMinutes: 0, resources: [] }, leadTime: { count: 0, medianDays: null, buckets: [] }, heatMap: { firstHour: 7, counts: [[0]], outside: 0 } },
    }),
  );
  t.equal(none.utilisation, 'No hours open in this range; utilisation was 64% in the 30 days before.');
  t.equal(none['lead-time'], 'No bookings in this range; the median was 19.5 days in the 30 days before.');
  t.equal(none.busiest, 'No jobs started in this range.');
  const neither = insightsSummaries(insights({ current: { leadTime: { count: 0, medianDays: null, buckets: [] } }, previous: { leadTime: { count: 0, medianDays: null } } }));
  t.equal(neither['lead-time'], 'No bookings in this range, nor in the 30 days before.');
});

t.test('the tables the page shows and the CSV downloads', async (t) => {
  const tables = insightsTables(insights());
  t.same(Object.keys(tables), [...INSIGHTS_CHARTS], 'one table a chart, in the page’s order');
  t.same(tables.revenue, { head: ['Week', 'Cash (NZD)', 'Bank transfer (NZD)', 'Card (NZD)', 'Other (NZD)', 'Total (NZD)', 'GST (NZD)'], rows: [['2026-03-30', '3130.00', '0.00', '0.00', '0.00', '3130.00', '408.26']] });
  t.same(tables.work.rows, [['Quick Clean', 'package', 3, 3, '207.00'], ['=Pet hair', 'add-on', 1, 1, '45.00']]);
  t.same(tables.utilisation.rows, [['Van 1', '2026-03-30', '71.0', '100.0', 71]]);
  t.same(tables.losses.rows, [['Cancelled', 2, '200.00'], ['No-show', 1, '67.00'], ['Lapsed', 0, '0.00']]);
  t.equal(tables.busiest.head.length, 15, 'the weekday and fourteen hours');
  t.same(tables.busiest.rows[2]!.slice(0, 4), ['Wednesday', 0, 0, 1]);
  t.equal(insightsCsvName('revenue', '2026-04-01', '2026-04-30'), 'insights-revenue-2026-04-01-to-2026-04-30.csv');
  t.equal(insightsCsvPath('lead-time', '2026-04-01', '2026-04-30'), '/dashboard/insights/lead-time.csv?from=2026-04-01&to=2026-04-30');
});

t.test('this week, month and quarter of a day', async (t) => {
  t.same(rangeOf('week', '2026-04-16'), { from: '2026-04-13', to: '2026-04-19' }, 'Monday to Sunday');
  t.same(rangeOf('week', '2026-04-19'), { from: '2026-04-13', to: '2026-04-19' }, 'a Sunday is in the week before it');
  t.same(rangeOf('month', '2026-02-10'), { from: '2026-02-01', to: '2026-02-28' });
  t.same(rangeOf('quarter', '2026-05-31'), { from: '2026-04-01', to: '2026-06-30' });
});
