/**
 * Issue 44 in Chromium: the owner's Insights at 390 and 1280 px. With this month's jobs seeded (paid
 * and unpaid, a cancellation, a no-show, one on a van), each of the seven charts is drawn as SVG
 * with its title and summary, its table holds the same numbers as GET /v1/insights, nothing is
 * wider than the screen, axe finds nothing, and "Download CSV" gives the chart's rows.
 */
import { readFile } from 'node:fs/promises';
import t from 'tap';
import type { Page } from 'playwright-core';
import type { InsightsDto } from '../../src/api/insights-schemas.ts';
import { aucklandInstant, todayInAuckland } from '../../src/domain/booking-dates.ts';
import { baseUrl, buildTestApp, type TestAppOptions } from '../helper.ts';
import { seededDataDir } from '../support/pglite-snapshot.ts';
import { bookingRow } from '../support/payloads.ts';
import { axeViolations, launchBrowser, openPage, openView, signIn } from '../support/browser.ts';

const fits = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
const dollars = (cents: number) => (cents / 100).toFixed(2);

/** A chart's table, row by row, its cells' text. */
const tableOf = (page: Page, chart: string) =>
  page.locator(`[data-chart="${chart}"] table tbody tr`).evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => (cell.textContent ?? '').trim())));

t.test('Insights in Chromium at 390 and 1280 px', async (t) => {
  const browser = await launchBrowser(t);
  const dataDir = await seededDataDir(t);
  const app = await buildTestApp(t, { listen: true, env: { DATA_DIR: dataDir } } as TestAppOptions);
  const today = todayInAuckland(new Date());
  const first = `${today.slice(0, 8)}01`;
  const van = (await app.db.selectFrom('resources').select('id').where('kind', '=', 'onsite').where('active', '=', true).executeTakeFirstOrThrow()).id;
  const seeds = [
    { status: 'completed', time: '09:00', resource_id: van, paid: 'card' },
    { status: 'completed', time: '11:00', paid: null },
    { status: 'cancelled', time: '13:00' },
    { status: 'no-show', time: '15:00', email: 'second@example.com' },
  ];
  let invoice = 0;
  for (const seed of seeds) {
    const { paid, ...fields } = seed as typeof seed & { paid?: string | null };
    const { id } = await app.db.insertInto('bookings').values(bookingRow({ date: first, ...fields }) as never).returning('id').executeTakeFirstOrThrow();
    if (paid !== undefined) {
      const at = new Date(aucklandInstant(first, '12:00'));
      await app.db
        .insertInto('booking_payments')
        .values({ booking_id: id, quoted_cents: 6900, amount_cents: 6900, payment_method: paid, paid_at: paid ? at : null, gst_number: '123-456-789', gst_cents: 900, invoice_number: 900 + ++invoice, completed_at: at, completed_by: 'owner' })
        .execute();
    }
  }

  for (const width of [390, 1280]) {
    const { page, problems } = await openPage(browser, width);
    await signIn(page, baseUrl(app));
    await openView(page, 'Insights');
    await page.getByRole('heading', { name: 'Insights', level: 2 }).waitFor();
    await page.locator('[data-chart="insights-heat-map"] svg').waitFor();
    const data = (await page.evaluate(async (from) => {
      const to = document.querySelector('.insights-range-text')!.textContent!.split(' to ')[1]!;
      return (await fetch(`/v1/insights?from=${from}&to=${to}`)).json();
    }, first)) as InsightsDto;
    t.equal(data.revenue.totalCents, 6900, `${width}: the paid job is taken`);
    t.equal(await page.locator('.insights-chart svg[role="img"]').count(), 7, `${width}: seven charts`);
    t.match(await page.locator('#insights-revenue-summary').innerText(), /Taken \$69\.00, GST \$9\.00 of it/);
    t.match(await page.locator('#insights-losses-summary').innerText(), /2 of 4 bookings lost, worth \$138\.00/);

    for (const details of await page.locator('.insights-chart details').all()) await details.locator('summary').click();
    t.same(await tableOf(page, 'insights-revenue'), data.revenue.weeks.map((w) => [w.week, ...Object.values(w.byMethod).map(dollars), dollars(w.totalCents), dollars(w.gstCents)]), `${width}: revenue table`);
    t.same(await tableOf(page, 'insights-customers'), data.customers.weeks.map((w) => [w.week, String(w.new), String(w.returning)]), `${width}: customers table`);
    t.same(
      await tableOf(page, 'insights-losses'),
      [
        ['Cancelled', String(data.losses.cancelled.count), dollars(data.losses.cancelled.amountCents)],
        ['No-show', String(data.losses.noShow.count), dollars(data.losses.noShow.amountCents)],
        ['Lapsed', String(data.losses.lapsed.count), dollars(data.losses.lapsed.amountCents)],
      ],
      `${width}: losses table`,
    );
    t.same(await tableOf(page, 'insights-lead-time'), data.leadTime.buckets.map((b) => [b.label, String(b.count)]), `${width}: lead time table`);
    t.same((await tableOf(page, 'insights-heat-map')).map((row) => row.slice(1).map(Number)), data.heatMap.counts, `${width}: heat map table`);
    t.same(
      (await tableOf(page, 'insights-work')).map((row) => [row[0], Number(row[2])]),
      [...data.work.byPackage, ...data.work.byAddOn].map((w) => [w.name, w.count]),
      `${width}: work table`,
    );
    t.equal((await tableOf(page, 'insights-utilisation')).length, data.utilisation.resources.reduce((n, r) => n + r.weeks.length, 0), `${width}: a utilisation row a van or bay and week`);
    t.ok(await fits(page), `${width}: nothing wider than the screen`);
    t.same(await axeViolations(page), [], `${width}: no axe violation`);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV of Revenue taken by week' }).click()]);
    t.match(download.suggestedFilename(), /^insights-revenue-.*\.csv$/);
    const csv = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '').trim().split('\r\n');
    t.equal(csv[0], 'Week,Cash (NZD),Bank transfer (NZD),Card (NZD),Other (NZD),Total (NZD),GST (NZD)', `${width}: the CSV's header`);
    t.equal(csv.length, data.weeks.length + 1, `${width}: a row a week`);
    t.same(problems.consoleErrors, []);
    t.same(problems.cspViolations, []);
    await page.context().close();
  }
});
