/**
 * Issue 44 in Chromium: the owner's Insights page, /dashboard/insights, at 390 and 1280 px. With
 * this month's jobs seeded (paid and unpaid, a cancellation, a no-show, one on a van), the server's
 * HTML already holds the seven SVG charts; once hydrated each has its title and a summary that
 * compares it with the days before, its table holds the same numbers as GET /v1/insights, nothing
 * is wider than the screen, axe finds nothing, a CSV link downloads the chart's rows, and another
 * range updates the charts and the address without a reload. Without JavaScript, "From – to" with
 * two dates and Show gives the page for those days.
 */
import { readFile } from 'node:fs/promises';
import t from 'tap';
import type { Page } from 'playwright-core';
import type { InsightsDto } from '../../src/api/insights-schemas.ts';
import { aucklandInstant } from '../../src/domain/booking-dates.ts';
import { baseUrl, buildTestApp, TEST_ADMIN_PASSWORD, type TestAppOptions } from '../helper.ts';
import { seededDataDir } from '../support/pglite-snapshot.ts';
import { bookingRow, today } from '../support/payloads.ts';
import { axeViolations, launchBrowser, openPage, requestsAnswered, signIn, waitForHydration } from '../support/browser.ts';

const fits = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
const dollars = (cents: number) => (cents / 100).toFixed(2);
const lastOfMonth = (day: string) => new Date(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)), 0)).toISOString().slice(0, 10);

/** A chart's table, row by row, its cells' text. */
const tableOf = (page: Page, chart: string) =>
  page.locator(`[data-chart="${chart}"] table tbody tr`).evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => (cell.textContent ?? '').trim())));

t.test('Insights in Chromium at 390 and 1280 px', async (t) => {
  const browser = await launchBrowser(t);
  const dataDir = await seededDataDir(t);
  const app = await buildTestApp(t, { listen: true, env: { DATA_DIR: dataDir } } as TestAppOptions);
  const first = `${today.slice(0, 8)}01`;
  const last = lastOfMonth(today);
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
    // Left once the dashboard's own requests are answered: leaving earlier aborts them.
    await requestsAnswered(page);
    // The dashboard's Insights tab is a link to the page.
    await page.getByRole('navigation', { name: 'Dashboard views' }).getByRole('link', { name: 'Insights' }).click();
    await page.waitForURL(/\/dashboard\/insights$/);
    await waitForHydration(page);

    // The server's HTML, before any script ran, already has the charts.
    const served = await page.request.get(`${baseUrl(app)}/dashboard/insights`);
    t.equal(served.status(), 200);
    t.equal((await served.text()).match(/<svg [^>]*role="img"/g)?.length, 7, `${width}: seven SVG charts in the server's HTML`);

    const data = (await page.evaluate(async ([from, to]) => (await fetch(`/v1/insights?from=${from}&to=${to}`)).json(), [first, last])) as InsightsDto;
    t.equal(data.revenue.totalCents, 6900, `${width}: the paid job is taken`);
    t.equal(await page.locator('.insights-chart svg[role="img"]').count(), 7, `${width}: seven charts`);
    t.equal(await page.locator('.insights-range-text').innerText(), `${first} to ${last}`, `${width}: this month`);
    t.match(await page.locator('#insights-revenue-summary').innerText(), /^Taken \$69\.00 \(GST \$9\.00\), (up from|the same as in) /);
    t.match(await page.locator('#insights-losses-summary').innerText(), /^2 of 4 bookings lost, worth \$138\.00, (up from|the same as in) /);
    for (const chart of ['revenue', 'work', 'utilisation', 'customers', 'losses', 'lead-time']) {
      t.match(await page.locator(`#insights-${chart}-summary`).innerText(), /from|the same as in|to compare|nor in/, `${width}: ${chart} compares with the days before`);
    }

    for (const details of await page.locator('.insights-chart details').all()) await details.locator('summary').click();
    t.same(await tableOf(page, 'revenue'), data.revenue.weeks.map((w) => [w.week, ...Object.values(w.byMethod).map(dollars), dollars(w.totalCents), dollars(w.gstCents)]), `${width}: revenue table`);
    t.same(await tableOf(page, 'customers'), data.customers.weeks.map((w) => [w.week, String(w.new), String(w.returning)]), `${width}: customers table`);
    t.same(
      await tableOf(page, 'losses'),
      [
        ['Cancelled', String(data.losses.cancelled.count), dollars(data.losses.cancelled.amountCents)],
        ['No-show', String(data.losses.noShow.count), dollars(data.losses.noShow.amountCents)],
        ['Lapsed', String(data.losses.lapsed.count), dollars(data.losses.lapsed.amountCents)],
      ],
      `${width}: losses table`,
    );
    t.same(await tableOf(page, 'lead-time'), data.leadTime.buckets.map((b) => [b.label, String(b.count)]), `${width}: lead time table`);
    t.same((await tableOf(page, 'busiest')).map((row) => row.slice(1).map(Number)), data.heatMap.counts, `${width}: heat map table`);
    t.same(
      (await tableOf(page, 'work')).map((row) => [row[0], Number(row[2])]),
      [...data.work.byPackage, ...data.work.byAddOn].map((w) => [w.name, w.count]),
      `${width}: work table`,
    );
    t.equal((await tableOf(page, 'utilisation')).length, data.utilisation.resources.reduce((n, r) => n + r.weeks.length, 0), `${width}: a utilisation row a van or bay and week`);
    t.ok(await fits(page), `${width}: nothing wider than the screen`);
    t.same(await axeViolations(page), [], `${width}: no axe violation`);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV of Revenue taken by week' }).click()]);
    t.equal(download.suggestedFilename(), `insights-revenue-${first}-to-${last}.csv`);
    const csv = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '').trim().split('\n');
    t.equal(csv[0], 'Week,Cash (NZD),Bank transfer (NZD),Card (NZD),Other (NZD),Total (NZD),GST (NZD)', `${width}: the CSV's header`);
    t.equal(csv.length, data.weeks.length + 1, `${width}: a row a week`);
    t.equal(csv.find((row) => row.startsWith(data.revenue.weeks[0]!.week)), (await tableOf(page, 'revenue'))[0]!.join(','), `${width}: the CSV's rows are the table's`);

    // Another range: fetched and drawn without a reload, the address updated.
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    t.ok(await page.locator('#insights-from').isHidden(), `${width}: the dates are hidden while a preset is chosen`);
    await page.getByLabel('Range', { exact: true }).selectOption('week');
    await page.waitForURL(/\?range=week$/);
    await page.locator('.insights-range-text').filter({ hasNotText: `${first} to ${last}` }).waitFor();
    t.ok(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed), `${width}: no reload`);
    await page.getByLabel('Range', { exact: true }).selectOption('custom');
    await page.getByLabel('From', { exact: true }).fill(first);
    await page.getByLabel('To', { exact: true }).fill(first);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.locator('.insights-range-text').filter({ hasText: `${first} to ${first}` }).waitFor();
    t.match(page.url(), `range=custom&from=${first}&to=${first}`);
    await page.getByLabel('From', { exact: true }).fill(last);
    await page.getByRole('button', { name: 'Show' }).click();
    if (last !== first) t.match(await page.getByRole('alert').innerText(), /./, `${width}: a reversed range's message`);
    t.ok(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed), `${width}: still no reload`);

    t.same(problems.consoleErrors.filter((error) => !/status of 400/.test(error)), [], `${width}: no console error but the reversed range's 400`);
    t.same(problems.cspViolations, []);
    t.same(problems.failedRequests.filter((failed) => !/\/v1\/insights\?.* 400$/.test(failed)), [], `${width}: nothing failed but the reversed range`);
    await page.context().close();
  }

  t.test('without JavaScript: "From – to", two dates and Show give the page for those days', async (t) => {
    const { page, problems } = await openPage(browser, 390, { javaScript: false });
    await page.goto(`${baseUrl(app)}/dashboard`);
    await page.getByLabel('Password').fill(TEST_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Booking Dashboard' }).waitFor();
    await page.goto(`${baseUrl(app)}/dashboard/insights`);
    t.equal(await page.locator('svg[role="img"]').count(), 7, 'the charts, drawn by the server');
    await page.getByLabel('Range', { exact: true }).selectOption('custom');
    await page.getByLabel('From', { exact: true }).fill(first);
    await page.getByLabel('To', { exact: true }).fill(first);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/range=custom/);
    t.match(page.url(), `/dashboard/insights?range=custom&from=${first}&to=${first}`);
    t.equal(await page.locator('.insights-range-text').innerText(), `${first} to ${first}`);
    t.equal(await page.locator('svg[role="img"]').count(), 7);
    t.match(await page.locator('#insights-revenue-summary').innerText(), /^Taken \$69\.00 \(GST \$9\.00\), (up from \$0\.00|the same as) on the day before\.$/);
    t.ok(await fits(page), 'nothing wider than the screen');
    t.same(problems.failedRequests, []);
    await page.context().close();
  });
});
