/**
 * Issue 43 in Chromium: a customer makes their booking a regular plan on its manage page, then
 * skips a visit on the plan's page, at 390 px (a phone) and 1280 px, and axe finds nothing on any
 * step. SCREENSHOTS=<dir> keeps a picture of each page's content at each width.
 */
import t from 'tap';
import { baseUrl, buildTestApp } from '../helper.ts';
import { axeViolations, launchBrowser, openPage, waitForHydration } from '../support/browser.ts';
import { nextWeekday, originalClientPayload } from '../support/payloads.ts';
import { manageLinkFor } from '../../src/db/manage-link.repository.ts';
import { visitsOf } from '../../src/db/plans.repository.ts';
import { PLAN_MESSAGES } from '../../src/domain/plans.ts';

t.test('a regular plan in Chromium', async (t) => {
  const app = await buildTestApp(t, { listen: true, env: { BOOKING_SLOT_CAPACITY: '1' } });
  const browser = await launchBrowser(t);

  // One weekday for each width: the plans' visits never take each other's van.
  for (const [width, weekday] of [
    [390, 2],
    [1280, 4],
  ] as const) {
    t.test(`make a plan, then skip a visit, at ${width} px`, async (t) => {
      const created = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: nextWeekday(weekday, 3), time: '10:00', email: `regular-${width}@example.co.nz` }) });
      const { id, reference } = created.json();
      const link = (await manageLinkFor(app.db, id, baseUrl(app)))!;
      const { page, problems } = await openPage(browser, width);

      await page.goto(link);
      await waitForHydration(page);
      const offer = page.getByRole('region', { name: 'Make this a regular valet' });
      t.ok(await offer.isVisible(), 'the offer to make it regular');
      t.same(await axeViolations(page), [], 'no axe violation on the booking with the offer');
      if (process.env.SCREENSHOTS) await page.locator('section.manage').screenshot({ path: `${process.env.SCREENSHOTS}/plan-offer-${width}.png` });

      await offer.getByLabel('How often').selectOption({ label: 'Every 3 weeks' });
      await offer.getByRole('button', { name: 'Make it regular' }).click();
      await page.waitForURL(/\/plan\?done=started$/);
      await page.getByText(PLAN_MESSAGES.started(3)).waitFor();
      await waitForHydration(page);
      t.equal(await page.title(), 'Your Regular Plan | Auckland Valet Co.');
      const plan = await app.db.selectFrom('plans').selectAll().where('booking_id', '=', id).executeTakeFirstOrThrow();
      t.equal(plan.interval_weeks, 3);
      const visits = page.locator('.plan-visits');
      t.ok((await visits.locator('.plan-visit').count()) >= 4, 'every visit within twelve weeks is listed');
      t.ok(await visits.getByText(`Booking ${reference}`).isVisible(), 'the first visit is the booking it was made from');
      t.same(await axeViolations(page), [], 'no axe violation on the plan page');

      const second = (await visitsOf(app.db, plan.id))[1]!;
      const row = page.locator('.plan-visit').nth(1);
      await row.getByRole('button', { name: /^Skip this visit/ }).click();
      await page.waitForURL(/\/plan\?done=skipped$/);
      await page.getByText(PLAN_MESSAGES.skipped).waitFor();
      await waitForHydration(page);
      t.equal((await visitsOf(app.db, plan.id))[1]!.state, 'skipped');
      t.equal((await app.db.selectFrom('bookings').select('status').where('id', '=', second.booking_id!).executeTakeFirstOrThrow()).status, 'cancelled', "the visit's booking is cancelled");
      t.match(await page.locator('.plan-visit').nth(1).innerText(), /Skipped/);
      t.equal(await page.locator('.plan-visit').nth(1).getByRole('button').count(), 0, 'a skipped visit has no button');
      t.same(await axeViolations(page), [], 'no axe violation after the skip');
      if (process.env.SCREENSHOTS) await page.locator('section.plan').screenshot({ path: `${process.env.SCREENSHOTS}/plan-page-${width}.png` });

      t.same(problems, { consoleErrors: [], failedRequests: [], cspViolations: [] });
      await page.context().close();
    });
  }
});
