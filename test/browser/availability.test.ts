/** Issue 10 in Chromium: the wizard's times say Full or Closed, a slot filled on step 3 sends the customer back, and the Schedule view closes and reopens a date. */
import t from 'tap';
import type { Page } from 'playwright-core';
import { baseUrl, buildTestApp, login } from '../helper.ts';
import { axeViolations, launchBrowser, openPage, waitForHydration, signIn } from '../support/browser.ts';
import { inDays, originalClientPayload } from '../support/payloads.ts';

t.test('availability and closures in Chromium', async (t) => {
  const app = await buildTestApp(t, { listen: true });
  const browser = await launchBrowser(t);
  const url = (path: string) => `${baseUrl(app)}${path}`;
  const cookie = await login(app);
  const book = (date: string, time: string, name: string) =>
    app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date, time, name }) });
  const option = (page: Page, time: string) => page.locator(`select[name="time"] option[value="${time}"]`);

  /** Step 2 of the wizard, drop-off, for a small car's Quick Clean on `date`. */
  async function stepTwo(width: number, date: string) {
    const { page, problems } = await openPage(browser, width);
    await page.goto(url('/booking?package=quick-clean'));
    await waitForHydration(page);
    await page.getByRole('radio', { name: /Small Car/ }).check();
    await page.getByRole('button', { name: 'Continue to Booking' }).click();
    await page.getByText('Drop-off Service').click();
    await page.locator('input[name="date"]').fill(date);
    return { page, problems };
  }

  t.test('a full or closed time is disabled, with the reason in words', async (t) => {
    const date = inDays(5);
    await book(date, '10:00', 'First');
    await book(date, '10:00', 'Second');
    t.equal((await app.inject({ method: 'POST', url: '/v1/closures', headers: { cookie }, payload: { date, time: '12:00', reason: 'Van service' } })).statusCode, 201);

    const { page, problems } = await stepTwo(390, date);
    await page.waitForFunction(() => document.querySelector('select[name="time"] option[value="10:00"]')?.textContent === '10:00 — Full');
    t.ok(await option(page, '10:00').isDisabled(), 'a full time cannot be chosen');
    t.equal(await option(page, '12:00').innerText(), '12:00 — Closed');
    t.ok(await option(page, '12:00').isDisabled());
    t.equal(await option(page, '11:00').innerText(), '11:00');
    t.ok(await option(page, '11:00').isEnabled());
    t.same(await axeViolations(page), [], 'no axe violation with full and closed times');
    if (process.env.SCREENSHOTS) await page.screenshot({ path: `${process.env.SCREENSHOTS}/wizard-times-390.png`, fullPage: true });

    await page.locator('input[name="date"]').fill(inDays(6));
    await page.waitForFunction(() => document.querySelector('select[name="time"] option[value="10:00"]')?.textContent === '10:00');
    t.ok(await option(page, '10:00').isEnabled(), 'the times follow the date');
    t.same(problems, { consoleErrors: [], failedRequests: [], cspViolations: [] });
    await page.context().close();
  });

  t.test('a time filled while the customer is on step 3 sends them back to step 2 with the times refreshed', async (t) => {
    const date = inDays(7);
    const { page, problems } = await stepTwo(1280, date);
    await page.waitForFunction(() => document.querySelector('select[name="time"] option[value="14:00"]')?.textContent === '14:00');
    await page.locator('select[name="time"]').selectOption('14:00');
    await page.getByRole('button', { name: 'Continue to Your Details' }).click();
    await page.getByLabel('Full Name').fill('Late Customer');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('late@example.com');
    await page.getByLabel('Phone Number').fill('021 555 6789');

    await book(date, '14:00', 'Quicker One');
    await book(date, '14:00', 'Quicker Two');
    await page.getByRole('button', { name: 'Complete Booking' }).click();
    await page.getByText('Step 2 of 3').waitFor();
    await page.waitForFunction(() => document.querySelector('select[name="time"] option[value="14:00"]')?.textContent === '14:00 — Full');
    t.ok(await option(page, '14:00').isDisabled(), 'the refreshed times show it full');
    t.equal(await page.locator('select[name="time"]').inputValue(), '', 'and it is no longer chosen');
    t.match(await page.locator('#booking-time-error').innerText(), /fully booked/, 'the message is beside the time');
    t.same(await axeViolations(page), [], 'no axe violation after the 409');

    await page.locator('select[name="time"]').selectOption('15:00');
    await page.getByRole('button', { name: 'Continue to Your Details' }).click();
    await page.getByRole('button', { name: 'Complete Booking' }).click();
    await page.waitForURL(url('/'));
    const stored = await app.db.selectFrom('bookings').selectAll().where('name', '=', 'Late Customer').execute();
    t.match(stored, [{ date, time: '15:00' }]);
    t.same(problems.consoleErrors.filter((error) => !error.includes('409 (Conflict)')), [], 'nothing but the expected 409');
    t.same(problems.cspViolations, [], 'no CSP violation');
    await page.context().close();
  });

  t.test('the Schedule view closes a date, lists it, and reopens it', async (t) => {
    const date = inDays(9);
    await book(date, '09:00', 'Booked Before');
    const { page, problems } = await openPage(browser, 390);
    await signIn(page, url(''));
    await page.getByRole('button', { name: 'Schedule' }).click();
    await page.getByRole('heading', { name: 'Close a date or a time' }).waitFor();
    const items = page.locator('.closure-list li');
    await items.first().waitFor();
    t.match(await items.first().innerText(), /12:00[\s\S]*Van service/, 'the closure made through the API is listed');
    t.same(await axeViolations(page), [], 'no axe violation on the Schedule view');

    await page.getByRole('button', { name: 'Close', exact: true }).click();
    t.equal(await page.locator('#closure-reason-error').innerText(), 'Please give a reason (for your colleagues; customers only see "Closed")');
    t.same(await axeViolations(page), [], 'no axe violation with the messages shown');

    await page.getByLabel('Date', { exact: true }).fill(date);
    await page.getByLabel('Reason', { exact: true }).fill('Public holiday');
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByText(/^Closed .*, all day\.$/).waitFor();
    t.match(await page.locator('.schedule-result').first().innerText(), /1 booking still in this time[\s\S]*Booked Before/, 'the booking in the closed date is listed');
    const holiday = items.filter({ hasText: 'Public holiday' });
    await holiday.waitFor();
    t.match(await holiday.innerText(), /All day[\s\S]*Public holiday[\s\S]*1 booking still in it/);
    if (process.env.SCREENSHOTS) await page.screenshot({ path: `${process.env.SCREENSHOTS}/schedule-390.png`, fullPage: true });
    t.same(await axeViolations(page), [], 'no axe violation with a closure listed');
    const closed = (await app.inject(`/v1/availability?date=${date}`)).json().slots;
    t.ok(closed.every((s: { reason: string | null }) => s.reason === 'closed'), 'customers find the date closed');
    t.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, 'nothing wider than the phone');

    await holiday.getByRole('button', { name: /^Reopen/ }).click();
    await holiday.waitFor({ state: 'detached' });
    t.equal(await items.count(), 1, 'only the other closure is left');
    t.ok(await page.getByText(/^Reopened .*, all day\.$/).isVisible());
    const reopened = (await app.inject(`/v1/availability?date=${date}`)).json().slots;
    t.ok(reopened.every((s: { reason: string | null }) => s.reason !== 'closed'), 'and open again');
    t.same(problems.consoleErrors.filter((error) => !error.includes('400 (Bad Request)')), [], 'nothing but the expected 400');
    t.same(problems.cspViolations, [], 'no CSP violation');
    await page.context().close();
  });
});
