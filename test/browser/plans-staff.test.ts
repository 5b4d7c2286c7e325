/**
 * Issue 43, the staff side of maintenance plans in Chromium, on a phone (390 px) and a desktop
 * (1280 px): the Today view counts the visits waiting for a time; the Plans view lists a plan with
 * its "Needs a time" badge and filters by status; a plan opens with its visits, is paused, has a
 * visit skipped and one waiting for a time booked at an offered start, and is stopped after its
 * confirmation; a customer's page lists the plan; the booking details make a plan of an upcoming
 * booking. Nothing is wider than the screen, and axe finds no violation in any of these states.
 * Each width has an app of its own (one van: BOOKING_SLOT_CAPACITY=1), so that neither's visits
 * and closures take the other's van.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import type { Page } from 'playwright-core';
import { addDaysToDay } from '../../src/domain/booking-dates.ts';
import { cardDate } from '../../client/staff/components/format.ts';
import { baseUrl, buildTestApp, login } from '../helper.ts';
import { axeViolations, launchBrowser, openPage, openView, signIn } from '../support/browser.ts';
import { nextWeekday, originalClientPayload } from '../support/payloads.ts';

/** SCREENSHOT_DIR: where to leave pictures of each state, for a person to look at. */
const screenshots = process.env.SCREENSHOT_DIR;
if (screenshots) mkdirSync(screenshots, { recursive: true });
const picture = async (page: Page, name: string) => {
  if (screenshots) await page.screenshot({ path: path.join(screenshots, `${name}.png`), fullPage: true });
};
const fits = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

t.test('plans in the dashboard', async (t) => {
  const browser = await launchBrowser(t);

  for (const width of [390, 1280]) {
    t.test(`at ${width} px`, async (t) => {
      const app = await buildTestApp(t, { listen: true, env: { BOOKING_SLOT_CAPACITY: '1' } });
      const cookie = await login(app);
      const book = async (date: string, name: string, email: string) => {
        const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date, time: '10:00', name, email }) });
        if (res.statusCode !== 201) throw new Error(`booking failed: ${res.body}`);
        return res.json().id as string;
      };
      // Aroha's plan every fortnight from a Tuesday, whose second visit is due when the van is away five days around it: it waits for a time.
      const first = nextWeekday(2, 20);
      const waitingDue = addDaysToDay(first, 14);
      const skippedDue = addDaysToDay(first, 28);
      const arohaBooking = await book(first, 'Aroha Smith', 'aroha@example.com');
      for (let d = -2; d <= 2; d++) {
        const res = await app.inject({ method: 'POST', url: '/v1/closures', headers: { cookie }, payload: { date: addDaysToDay(waitingDue, d), kind: 'onsite', reason: 'Van away' } });
        t.equal(res.statusCode, 201, res.body);
      }
      const made = await app.inject({ method: 'POST', url: `/v1/bookings/${arohaBooking}/plan`, headers: { cookie }, payload: { intervalWeeks: 2 } });
      t.equal(made.statusCode, 201, made.body);
      const planId = made.json().id as string;
      const offered = made.json().visits.find((v: { dueDate: string }) => v.dueDate === waitingDue).offered as { date: string; time: string }[];
      t.equal(offered.length, 3, 'the waiting visit is offered three starts');
      // Ben's booking on a Wednesday, made a plan from its details.
      const benBooking = await book(nextWeekday(3, 3), 'Ben Jones', 'ben@example.com');

      const { page, problems } = await openPage(browser, width);
      await signIn(page, baseUrl(app), 'Mere');

      await openView(page, 'Today');
      await page.getByText('1 visit of regular plans needs a time: see Plans.').waitFor();
      t.same(await axeViolations(page), [], 'no axe violation on Today with the count');

      await openView(page, 'Plans');
      await page.getByRole('heading', { name: 'Plans', level: 2 }).waitFor();
      const card = page.locator('.plan-card').filter({ hasText: 'Aroha Smith' });
      await card.waitFor();
      t.match(await card.innerText(), /Active[\s\S]*Needs a time: 1[\s\S]*Every fortnight · Tuesdays at 10:00 · On site[\s\S]*Next visit: \w{3} \d{2}, \d{4}, 10:00/);
      await page.getByText('1 visit needs a time: open the plan to book one of the times offered, or another.').waitFor();
      t.ok(await fits(page), 'the list fits the screen');
      t.same(await axeViolations(page), [], 'no axe violation on the list');
      await picture(page, `plans-list-${width}`);

      await page.getByLabel('Status').selectOption('paused');
      await page.getByText('No paused plans').waitFor();
      await page.getByLabel('Status').selectOption('');
      await card.waitFor();

      await card.getByRole('button', { name: /Aroha Smith/ }).click();
      const heading = page.getByRole('heading', { name: 'Aroha Smith’s plan', level: 2 });
      await heading.waitFor();
      const visits = page.locator('.plan-visit');
      t.ok((await visits.count()) >= 4, 'the visits up to the horizon');
      const waiting = visits.filter({ hasText: `Due ${cardDate(waitingDue)}` });
      t.match(await waiting.innerText(), /Needs a time[\s\S]*Offered to the customer/);
      t.equal(await waiting.getByRole('button', { name: /^Book / }).count(), 3, 'its offered starts as buttons');
      t.ok(await fits(page), 'the plan fits the screen');
      t.same(await axeViolations(page), [], 'no axe violation on the plan');
      await picture(page, `plan-page-${width}`);

      const status = page.locator('.plan-outcome');
      await page.getByRole('button', { name: 'Pause plan' }).click();
      await status.getByText('The plan is paused').waitFor();
      await page.getByRole('button', { name: 'Resume plan' }).waitFor();
      t.match(await page.locator('.plan-summary .plan-badges').innerText(), /Paused/);
      t.equal((await app.db.selectFrom('plans').select('status').where('id', '=', planId).executeTakeFirstOrThrow()).status, 'paused');
      t.same(await axeViolations(page), [], 'no axe violation on a paused plan');

      await page.getByRole('button', { name: `Skip the visit due ${cardDate(skippedDue)}` }).click();
      await status.getByText(`The visit due ${cardDate(skippedDue)} is skipped`).waitFor();
      const skipped = visits.filter({ hasText: `Due ${cardDate(skippedDue)}` });
      t.match(await skipped.innerText(), /Skipped[\s\S]*cancelled/i, 'the visit skipped, its booking cancelled');
      const skippedRow = await app.db.selectFrom('plan_visits').select('state').where('plan_id', '=', planId).where('due_date', '=', skippedDue).executeTakeFirstOrThrow();
      t.equal(skippedRow.state, 'skipped');

      await waiting.getByRole('button', { name: `Book ${cardDate(offered[0]!.date)}, ${offered[0]!.time} for the visit due ${cardDate(waitingDue)}` }).click();
      await status.getByText(`The visit due ${cardDate(waitingDue)} is booked for`).waitFor();
      t.match(await waiting.innerText(), /pending/i, 'booked');
      t.equal(await waiting.getByRole('button', { name: /^Book / }).count(), 0, 'no more starts to choose');
      t.same(await axeViolations(page), [], 'no axe violation after the changes');
      await picture(page, `plan-changed-${width}`);

      await page.getByRole('button', { name: 'Stop plan' }).click();
      const dialog = page.getByRole('dialog', { name: 'Stop this plan?' });
      await dialog.waitFor();
      t.match(await dialog.innerText(), /upcoming visits are cancelled[\s\S]*one e-mail/);
      t.same(await axeViolations(page), [], 'no axe violation with the confirmation open');
      await picture(page, `plan-stop-${width}`);
      await dialog.getByRole('button', { name: 'Keep the plan' }).click();
      await dialog.waitFor({ state: 'hidden' });
      t.equal((await app.db.selectFrom('plans').select('status').where('id', '=', planId).executeTakeFirstOrThrow()).status, 'paused', 'kept');
      await page.getByRole('button', { name: 'Stop plan' }).click();
      await dialog.getByRole('button', { name: 'Stop plan' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await status.getByText('The plan is stopped').waitFor();
      t.equal(await page.getByRole('button', { name: 'Pause plan' }).count() + (await page.getByRole('button', { name: 'Resume plan' }).count()), 0, 'a stopped plan has no actions');
      t.equal((await app.db.selectFrom('plans').select('status').where('id', '=', planId).executeTakeFirstOrThrow()).status, 'stopped');

      await page.getByRole('button', { name: '← All plans' }).click();
      await card.filter({ hasText: 'Stopped' }).waitFor();

      await openView(page, 'Customers');
      await page.getByRole('button', { name: 'Aroha Smith' }).click();
      await page.getByRole('heading', { name: 'Plans', level: 3 }).waitFor();
      await page.getByRole('button', { name: 'Every fortnight (Aroha Smith’s plan)' }).click();
      await heading.waitFor();
      await page.getByRole('button', { name: '← Aroha Smith' }).click();
      await page.getByRole('heading', { name: 'Aroha Smith', level: 2 }).waitFor();
      t.same(await axeViolations(page), [], "no axe violation on the customer's page with a plan");

      await openView(page, 'Bookings');
      await page.getByRole('button', { name: /View Details.*Ben Jones/ }).click();
      const modal = page.getByRole('dialog', { name: 'Booking Details' });
      await modal.getByLabel('Make it a regular plan').selectOption('4');
      t.same(await axeViolations(page), [], 'no axe violation with the plan control');
      await picture(page, `booking-plan-${width}`);
      await modal.getByRole('button', { name: 'Make plan' }).click();
      await modal.getByText('Part of a plan: every 4 weeks').waitFor();
      await modal.getByText(/The plan is made: \d+ visits? booked/).waitFor();
      const benPlan = await app.db.selectFrom('plans').selectAll().where('booking_id', '=', benBooking).executeTakeFirstOrThrow();
      t.match(benPlan, { interval_weeks: 4, created_by: 'Mere', status: 'active' });
      t.ok(await fits(page), 'the details fit the screen');
      t.same(await axeViolations(page), [], 'no axe violation with the plan made');
      await page.keyboard.press('Escape');
      await modal.waitFor({ state: 'hidden' });

      await page.getByRole('button', { name: /View Details.*Aroha Smith/ }).first().click();
      await modal.getByText('Part of a plan: every fortnight (stopped)').waitFor();
      await page.keyboard.press('Escape');
      await modal.waitFor({ state: 'hidden' });

      t.same(problems, { consoleErrors: [], failedRequests: [], cspViolations: [] });
      await page.context().close();
    });
  }
});
