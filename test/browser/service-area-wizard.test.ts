/**
 * Issue 40 in Chromium, at 390 and 1280 px: on site, step 2 asks the postcode before it offers
 * times; a served postcode says its zone and travel fee at once, and the times (and the dates'
 * summary) are then those for it; a postcode outside the area gets the outside message with the
 * business's phone and the offer to drop off instead, which switches the service type; the travel
 * fee is a line of its own in the summary and on step 3, and the booking stores it. Without
 * JavaScript the same with plain posts: Enter still continues, the offer keeps what was typed.
 * Screenshots at 390 px go to /tmp/wt-wizard-*.png.
 */
import t from 'tap';
import { weekdayOf } from '../../src/domain/availability.ts';
import { outsideServiceArea } from '../../src/domain/messages.ts';
import { baseUrl, buildTestApp } from '../helper.ts';
import { axeViolations, launchBrowser, openPage, waitForHydration } from '../support/browser.ts';
import { inDays } from '../support/payloads.ts';

/** The first date at least `n` days ahead, Monday to Friday. */
function weekday(n: number): string {
  for (; ; n++) if (!['saturday', 'sunday'].includes(weekdayOf(inDays(n)))) return inDays(n);
}

t.test('the service area in the wizard', async (t) => {
  const app = await buildTestApp(t, { listen: true });
  const browser = await launchBrowser(t);
  const url = (path: string) => `${baseUrl(app)}${path}`;
  const outside = outsideServiceArea(app.config.business);

  for (const width of [390, 1280]) {
    t.test(`at ${width}px`, async (t) => {
      const shot = (name: string) => (width === 390 ? { path: `/tmp/wt-wizard-${name}.png`, fullPage: true } : undefined);
      const { page, problems } = await openPage(browser, width);
      await page.goto(url('/booking?package=quick-clean'));
      await waitForHydration(page);
      await page.getByRole('radio', { name: /Small Car/ }).check();
      await page.getByRole('button', { name: 'Continue to Booking' }).click();
      await page.getByText('Step 2 of 3').waitFor();

      // On site (the default): the postcode first, no times before it.
      const postcode = page.getByRole('textbox', { name: 'Postcode' });
      t.ok(await postcode.isVisible(), 'the postcode is asked');
      t.equal(await page.locator('select[name="time"]').count(), 0, 'no times before the postcode');
      t.ok(await page.getByText('Enter your postcode to see the dates and times we can come to you.').isVisible());
      t.equal(await page.getByLabel('Postal Code').count(), 0, 'the address does not ask it twice');
      t.same(await axeViolations(page), [], 'no axe violation on the postcode step');
      if (shot('postcode')) await page.screenshot(shot('postcode'));

      // Christchurch: the outside message and the drop-off offer.
      await postcode.fill('8011');
      const error = page.locator('#booking-postalCode-error');
      await error.waitFor();
      t.equal(await error.innerText(), outside, "the message, with the business's phone");
      t.match(outside, app.config.business.phone);
      const offer = page.getByRole('button', { name: 'Drop off at our service centre instead' });
      t.ok(await offer.isVisible(), 'the drop-off offer');
      t.equal(await page.locator('select[name="time"]').count(), 0, 'still no times');
      t.same(await axeViolations(page), [], 'no axe violation with the outside answer');
      if (shot('outside')) await page.screenshot(shot('outside'));
      await page.getByRole('button', { name: 'Continue to Your Details' }).click();
      t.ok(await page.getByText('Step 2 of 3').isVisible(), 'Continue is refused outside the area');
      t.ok(await postcode.evaluate((el) => el === document.activeElement), 'and the postcode has the focus');

      await offer.click();
      t.ok(await page.locator('#serviceType-dropoff').isChecked(), 'the offer switches to drop-off');
      t.ok(await page.locator('#serviceType-dropoff').evaluate((el) => el === document.activeElement), 'and the focus goes with it');
      t.ok(await page.getByText('Drop-off at our service centre').first().isVisible());
      t.notOk(await postcode.isVisible(), 'drop-off needs no postcode');
      await page.locator('select[name="time"]').waitFor();
      t.ok(await page.getByText('Drop-off at our service centre', { exact: true }).last().isVisible(), 'the summary says drop-off');

      // Back on site at Orewa: the zone and fee at once, then times for it, and the fee in the summary.
      await page.getByText('On-site Service').click();
      await postcode.fill('0931');
      const served = page.getByText('We come to Hibiscus Coast — travel fee $25.00');
      await served.waitFor();
      t.equal(await error.count(), 0, 'no message any more');
      const date = weekday(4 + (width === 390 ? 0 : 1));
      await page.locator('input[name="date"]').fill(date);
      await page.waitForFunction(() => document.querySelector('select[name="time"] option[value="07:00"]')?.textContent === '07:00 – 08:00');
      t.pass('the times are those of the vans (07:00 on), asked with the postcode');
      await page.getByRole('list', { name: /dates with times/ }).waitFor();
      const summary = page.getByRole('complementary', { name: 'Your booking' });
      t.equal(await summary.locator('div', { has: page.locator('dt', { hasText: 'Travel fee' }) }).locator('dd').innerText(), '$25.00', 'the summary has the fee as its own line');
      t.equal(await page.locator('.summary-price strong').innerText(), '$94.00', 'and in its total');
      t.same(await axeViolations(page), [], 'no axe violation with the zone and fee');
      if (shot('served')) await page.screenshot(shot('served'));

      await page.locator('select[name="time"]').selectOption('09:00');
      await page.getByLabel('House/Unit Number').fill('12');
      await page.getByLabel('Street Address').fill('Hibiscus Coast Highway');
      await page.getByLabel('Suburb').fill('Orewa');
      await page.getByLabel('City').fill('Auckland');
      await page.locator('select[name="region"]').selectOption('Auckland');
      await page.getByRole('button', { name: 'Continue to Your Details' }).click();
      await page.getByText('Step 3 of 3').waitFor();
      const email = `orewa-${width}@example.com`;
      await page.getByLabel('Full Name').fill('Hemi Walker');
      await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
      await page.getByLabel('Phone Number').fill(width === 390 ? '021 555 4411' : '021 555 4422');
      const quote = page.getByRole('region', { name: 'Your price' });
      await quote.getByText('First-service discount 15%').waitFor();
      t.same(await quote.locator('dt').allInnerTexts(), ['List price', 'First-service discount 15%', 'Travel fee', 'Total']);
      t.same(await quote.locator('dd').allInnerTexts(), ['$69.00', '−$10.35', '$25.00', '$83.65'], 'the discount is on the list price only');
      t.same(await axeViolations(page), [], 'no axe violation on step 3 with the fee');
      if (shot('quote')) await page.screenshot(shot('quote'));
      await page.getByRole('button', { name: 'Complete Booking' }).click();
      await page.waitForURL(url('/'));
      const stored = await app.db.selectFrom('bookings').selectAll().where('email', '=', email).execute();
      t.match(stored, [{ service_type: 'onsite', postal_code: '0931', date, time: '09:00', travel_fee_cents: 2500, total_cents: 8365 }]);
      t.same(problems, { consoleErrors: [], failedRequests: [], cspViolations: [] });
      await page.context().close();
    });
  }

  t.test('without JavaScript: the outside message and the drop-off offer as plain posts', async (t) => {
    const { page, problems } = await openPage(browser, 390, { javaScript: false });
    await page.goto(url('/booking?package=quick-clean'));
    await page.getByRole('radio', { name: /Small Car/ }).check();
    await page.getByRole('button', { name: 'Continue to Booking' }).click();
    await page.getByText('Step 2 of 3').waitFor();
    const date = weekday(6);
    await page.getByRole('textbox', { name: 'Postcode' }).fill('8011');
    await page.locator('input[name="date"]').fill(date);
    await page.locator('select[name="time"]').selectOption('10:00');
    await page.getByLabel('Street Address').fill('Cathedral Square');
    await page.getByRole('textbox', { name: 'Postcode' }).press('Enter');
    const error = page.locator('#booking-postalCode-error');
    await error.waitFor();
    t.equal(await error.innerText(), outside);
    // (Axe runs in the page, so not here: the same markup is swept above once hydrated.)
    await page.screenshot({ path: '/tmp/wt-wizard-nojs-outside.png', fullPage: true });

    await page.getByLabel('Street Address').press('Enter');
    await error.waitFor();
    t.ok(await page.locator('#serviceType-onsite').isChecked(), 'Enter in a field continues (and is refused again), it does not switch');
    await page.getByRole('button', { name: 'Drop off at our service centre instead' }).click();
    await page.locator('#serviceType-dropoff:checked').waitFor();
    t.equal(await error.count(), 0);
    t.equal(await page.locator('input[name="streetAddress"]').inputValue(), 'Cathedral Square', 'what was typed is kept');
    t.equal(await page.locator('input[name="date"]').inputValue(), date);
    t.ok(await page.getByText('Drop-off at our service centre').first().isVisible());
    await page.getByRole('button', { name: 'Continue to Your Details' }).click();
    await page.getByText('Step 3 of 3').waitFor();
    t.same(problems.cspViolations, []);
    await page.context().close();
  });
});
