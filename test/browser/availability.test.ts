/**
 * Issues 10 and 20 in Chromium: the wizard's times are those of the chosen job, each with its end,
 * and the ones that do not fit are disabled with their reason in words (asked again when the
 * service type changes); the dates with no time are named and the next dates with times offered;
 * a time filled on step 3 sends the customer back to refreshed times; and the Schedule view closes
 * and reopens a date. Default resources: two vans (07:00-21:00 every day) and two bays (Monday to
 * Friday 08:00-18:00, Saturday 09:00-17:00).
 */
import t from 'tap';
import type { Page } from 'playwright-core';
import { weekdayOf } from '../../src/domain/availability.ts';
import { shortDate } from '../../client/lib/availability-api.ts';
import { baseUrl, buildTestApp, login } from '../helper.ts';
import { axeViolations, launchBrowser, openPage, openView, signIn, waitForHydration } from '../support/browser.ts';
import { inDays, originalClientPayload } from '../support/payloads.ts';

/** The next dates Monday to Friday from three days ahead: one of its own for each test. */
const WEEKDAYS: string[] = [];
for (let n = 3; WEEKDAYS.length < 6; n++) if (!['saturday', 'sunday'].includes(weekdayOf(inDays(n)))) WEEKDAYS.push(inDays(n));
const [CLOSED_DATE, TIMES_DATE, LONG_JOB_DATE, LATE_DATE, OTHER_DATE] = WEEKDAYS as [string, string, string, string, string];

t.test('availability and closures in Chromium', async (t) => {
  const app = await buildTestApp(t, { listen: true });
  const browser = await launchBrowser(t);
  const url = (path: string) => `${baseUrl(app)}${path}`;
  const cookie = await login(app);
  const QUICK_DROPOFF = { service: 'Quick Clean', vehicleType: 'sm', selectedVehicleType: 'sm', serviceType: 'dropoff' };
  const book = (date: string, time: string, name: string, job: Record<string, string> = QUICK_DROPOFF) =>
    app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ ...job, date, time, name }) });
  const select = (page: Page) => page.locator('select[name="time"]');
  const option = (page: Page, time: string) => page.locator(`select[name="time"] option[value="${time}"]`);
  /** Waits until the time list says `label` for `time` (the answer for the job asked has arrived). */
  const labelled = (page: Page, time: string, label: string) =>
    page.waitForFunction(([time, label]) => document.querySelector(`select[name="time"] option[value="${time}"]`)?.textContent === label, [time, label] as const);

  /** Step 2 of the wizard, drop-off, for a package and size on `date`. */
  async function stepTwo(width: number, date: string, pkg = 'quick-clean', size = /Small Car/) {
    const { page, problems } = await openPage(browser, width);
    await page.goto(url(`/booking?package=${pkg}`));
    await waitForHydration(page);
    await page.getByRole('radio', { name: size }).check();
    await page.getByRole('button', { name: 'Continue to Booking' }).click();
    await page.getByText('Drop-off Service').click();
    await page.locator('input[name="date"]').fill(date);
    return { page, problems };
  }

  t.test('times that do not fit the job are disabled with their reasons in words, and each time shows its end', async (t) => {
    const date = TIMES_DATE;
    t.equal((await book(date, '10:00', 'First')).statusCode, 201);
    t.equal((await book(date, '10:00', 'Second')).statusCode, 201);
    t.equal((await app.inject({ method: 'POST', url: '/v1/closures', headers: { cookie }, payload: { date, time: '12:00', reason: 'Van service' } })).statusCode, 201);

    const { page, problems } = await stepTwo(390, date);
    await labelled(page, '10:00', '10:00 – 11:00 — Full');
    t.ok(await option(page, '10:00').isDisabled(), 'both bays are taken: a full time cannot be chosen');
    t.equal(await option(page, '12:00').innerText(), '12:00 – 13:00 — Closed');
    t.ok(await option(page, '12:00').isDisabled());
    t.equal(await option(page, '07:00').innerText(), '07:00 – 08:00 — Outside opening hours', 'the bays open at 08:00');
    t.ok(await option(page, '07:00').isDisabled());
    t.equal(await option(page, '18:00').innerText(), '18:00 – 19:00 — Outside opening hours');
    t.ok(await option(page, '18:00').isDisabled());
    t.equal(await option(page, '11:00').innerText(), '11:00 – 12:00');
    t.ok(await option(page, '11:00').isEnabled());
    t.equal(await option(page, '17:00').innerText(), '17:00 – 18:00', 'a one-hour job may end at closing');
    t.ok(await option(page, '17:00').isEnabled());
    t.equal(await page.locator('#booking-duration').innerText(), 'This service takes about 1 hour: each time shows when it would end.');
    t.same(await axeViolations(page), [], 'no axe violation with full, closed and outside-hours times disabled');
    if (process.env.SCREENSHOTS) await page.screenshot({ path: `${process.env.SCREENSHOTS}/wizard-times-390.png`, fullPage: true });

    await page.getByText('On-site Service').click();
    await page.getByRole('textbox', { name: 'Postcode' }).fill('1060'); // on site, the times wait for a postcode the vans come to (issue 40)
    await labelled(page, '10:00', '10:00 – 11:00');
    t.ok(await option(page, '10:00').isEnabled(), 'asked again for on-site work: the vans are free at 10:00');
    t.ok(await option(page, '07:00').isEnabled(), 'and start at 07:00');
    t.equal(await option(page, '12:00').innerText(), '12:00 – 13:00 — Closed', 'the closure is for every kind');

    await page.locator('input[name="date"]').fill(OTHER_DATE);
    await page.getByText('Drop-off Service').click();
    await labelled(page, '10:00', '10:00 – 11:00');
    t.ok(await option(page, '10:00').isEnabled(), 'the times follow the date');
    t.same(problems, { consoleErrors: [], failedRequests: [], cspViolations: [] });
    await page.context().close();
  });

  t.test('a long job: the starts it would run past closing from are disabled, with the reason', async (t) => {
    const date = LONG_JOB_DATE;
    t.equal((await book(date, '10:00', 'First')).statusCode, 201);
    t.equal((await book(date, '10:00', 'Second')).statusCode, 201);
    const { page, problems } = await stepTwo(1280, date, 'ultimate-clean', /SUV\/UTE/);
    await labelled(page, '13:00', '13:00 – 19:00 — Ends after closing');
    t.ok(await option(page, '13:00').isDisabled(), 'six hours from 13:00 ends after the bays close at 18:00');
    t.equal(await option(page, '12:00').innerText(), '12:00 – 18:00', 'ending at closing is fine');
    t.equal(await option(page, '10:00').innerText(), '10:00 – 16:00 — Full', 'the bays are taken at 10:00 by two Quick Cleans');
    t.equal(await option(page, '08:00').innerText(), '08:00 – 14:00 — Full', 'and a job from 08:00 would run into them');
    t.equal(await option(page, '11:00').innerText(), '11:00 – 17:00', 'from 11:00 the bays are free to closing');
    t.equal(await page.locator('#booking-duration').innerText(), 'This service takes about 6 hours: each time shows when it would end.');
    t.same(await axeViolations(page), [], 'no axe violation');
    t.same(problems, { consoleErrors: [], failedRequests: [], cspViolations: [] });
    await page.context().close();
  });

  t.test('dates with no time are named, and the next dates with times can be chosen', async (t) => {
    const closedDate = CLOSED_DATE;
    const closure = await app.inject({ method: 'POST', url: '/v1/closures', headers: { cookie }, payload: { date: closedDate, kind: 'dropoff', reason: 'Stocktake' } });
    t.equal(closure.statusCode, 201);
    t.teardown(() => app.inject({ method: 'DELETE', url: `/v1/closures/${closure.json().id}`, headers: { cookie } }).then(() => undefined));
    const { page, problems } = await stepTwo(390, closedDate);
    const status = page.getByRole('status').filter({ hasText: 'No times left' });
    await status.waitFor();
    t.equal(await status.innerText(), `No times left on ${shortDate(closedDate)} for this service. Please choose another date.`);
    const hint = page.locator('.date-summary .field-hint');
    t.match(await hint.innerText(), new RegExp(`^Fully booked or closed in the next two weeks: .*${shortDate(closedDate)}`), 'the closed date is named');
    let sunday = 1;
    while (weekdayOf(inDays(sunday)) !== 'sunday') sunday += 1;
    t.match(await hint.innerText(), shortDate(inDays(sunday)), 'and the Sunday, when the bays are closed');
    const next = page.getByRole('list', { name: 'Next dates with times:' }).getByRole('button');
    t.ok((await next.count()) >= 1 && (await next.count()) <= 4);
    // The status comes with the dates' summary; the times are disabled once the date's own answer is here.
    await page.waitForFunction(() => document.querySelector<HTMLOptionElement>('select[name="time"] option[value="10:00"]')?.disabled === true);
    t.pass('every time of the closed date is disabled');
    t.same(await axeViolations(page), [], 'no axe violation with the dates named');
    if (process.env.SCREENSHOTS) await page.screenshot({ path: `${process.env.SCREENSHOTS}/wizard-dates-390.png`, fullPage: true });

    const first = await next.first().innerText();
    await next.first().click();
    const chosen = await page.locator('input[name="date"]').inputValue();
    t.equal(shortDate(chosen), first, 'the button chooses its date');
    t.ok(chosen > closedDate);
    await status.waitFor({ state: 'detached' });
    await page.waitForFunction(() => [...document.querySelectorAll('select[name="time"] option')].some((o) => o.getAttribute('value') && !(o as HTMLOptionElement).disabled));
    t.same(problems, { consoleErrors: [], failedRequests: [], cspViolations: [] });
    await page.context().close();
  });

  t.test('a time filled while the customer is on step 3 sends them back to step 2 with the times refreshed', async (t) => {
    const date = LATE_DATE;
    const { page, problems } = await stepTwo(1280, date);
    await labelled(page, '14:00', '14:00 – 15:00');
    await select(page).selectOption('14:00');
    await page.getByRole('button', { name: 'Continue to Your Details' }).click();
    await page.getByLabel('Full Name').fill('Late Customer');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('late@example.com');
    await page.getByLabel('Phone Number').fill('021 555 6789');

    await book(date, '14:00', 'Quicker One');
    await book(date, '13:00', 'Quicker Two', { ...QUICK_DROPOFF, service: 'Express Clean' }); // 13:00-14:30, on the other bay
    await page.getByRole('button', { name: 'Complete Booking' }).click();
    await page.getByText('Step 2 of 3').waitFor();
    await labelled(page, '14:00', '14:00 – 15:00 — Full');
    t.ok(await option(page, '14:00').isDisabled(), 'the refreshed times show it full');
    t.equal(await select(page).inputValue(), '', 'and it is no longer chosen');
    t.match(await page.locator('#booking-time-error').innerText(), /fully booked/, 'the message is beside the time');
    t.equal(await option(page, '13:00').innerText(), '13:00 – 14:00', 'one bay is free until 14:00');
    t.ok(await option(page, '13:00').isEnabled());
    t.same(await axeViolations(page), [], 'no axe violation after the 409');

    await select(page).selectOption('15:00');
    await page.getByRole('button', { name: 'Continue to Your Details' }).click();
    await page.getByRole('button', { name: 'Complete Booking' }).click();
    await page.waitForURL(url('/'));
    const stored = await app.db.selectFrom('bookings').selectAll().where('name', '=', 'Late Customer').execute();
    t.match(stored, [{ date, time: '15:00', service_type: 'dropoff' }]);
    t.same(problems.consoleErrors.filter((error) => !error.includes('409 (Conflict)')), [], 'nothing but the expected 409');
    t.same(problems.cspViolations, [], 'no CSP violation');
    await page.context().close();
  });

  t.test('the Schedule view closes a date, lists it, and reopens it', async (t) => {
    const date = inDays(9);
    await book(date, '09:00', 'Booked Before', {}); // on-site (a van every day)
    const { page, problems } = await openPage(browser, 390);
    await signIn(page, url(''));
    await openView(page, 'Schedule');
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
