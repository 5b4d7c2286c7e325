/**
 * Issue 41 in Chromium, at 390 and 1280 px: on step 1 a second vehicle and an add-on, the
 * summary's lines and time, booked at drop-off; the booking stores both vehicles and the add-on's
 * line. Without JavaScript "Add another vehicle" posts and keeps what was entered. Screenshots of
 * step 1 with two vehicles at 390 px go to /tmp/wt41c-*.png.
 */
import t from 'tap';
import { weekdayOf } from '../../src/domain/availability.ts';
import { baseUrl, buildTestApp } from '../helper.ts';
import { axeViolations, launchBrowser, openPage, waitForHydration } from '../support/browser.ts';
import { inDays } from '../support/payloads.ts';

/** The first date at least `n` days ahead, Monday to Friday. */
function weekday(n: number): string {
  for (; ; n++) if (!['saturday', 'sunday'].includes(weekdayOf(inDays(n)))) return inDays(n);
}

t.test('several vehicles and add-ons in the wizard', async (t) => {
  const app = await buildTestApp(t, { listen: true });
  const browser = await launchBrowser(t);
  const url = (path: string) => `${baseUrl(app)}${path}`;

  for (const width of [390, 1280]) {
    t.test(`at ${width}px`, async (t) => {
      const { page, problems } = await openPage(browser, width);
      await page.goto(url('/booking?package=quick-clean'));
      await waitForHydration(page);
      const first = page.getByRole('group', { name: 'Vehicle 1', exact: true });
      await first.getByRole('radio', { name: /Small Car/ }).check();
      await first.getByRole('checkbox', { name: /Pet hair removal/ }).check();
      await first.getByLabel('Plate').fill('abc 123');

      await page.getByRole('button', { name: 'Add another vehicle' }).click();
      const second = page.getByRole('group', { name: 'Vehicle 2', exact: true });
      await second.waitFor();
      await second.locator('.package-head', { hasText: 'Express Clean' }).click();
      await second.getByRole('radio', { name: /SUV/ }).check();

      const summary = page.getByRole('complementary', { name: 'Your booking' });
      await summary.getByText('Vehicle 2: Express Clean, SUV/UTE').waitFor();
      t.same(
        (await summary.locator('dt').allInnerTexts()).slice(0, 5),
        ['Vehicles', 'ABC123: Quick Clean, Small Car', 'ABC123: Pet hair removal', 'Vehicle 2: Express Clean, SUV/UTE', 'Time'],
        'the summary lists the lines',
      );
      t.same((await summary.locator('dd').allInnerTexts()).slice(0, 5), ['2 vehicles', '$69.00', '$45.00', '$125.00', 'about 3½ hours'], 'with their amounts and the time');
      t.same(await axeViolations(page), [], 'no axe violation on step 1 with two vehicles');
      if (width === 390) {
        await page.screenshot({ path: '/tmp/wt41c-step1.png', fullPage: true });
        await second.screenshot({ path: '/tmp/wt41c-vehicle2.png' });
      }

      await page.getByRole('button', { name: 'Continue to Booking' }).click();
      await page.getByText('Step 2 of 3').waitFor();
      await page.getByText('Drop-off Service').click();
      const date = weekday(4 + (width === 390 ? 0 : 1));
      await page.locator('input[name="date"]').fill(date);
      // The times are all offered until the date's availability arrives: wait for it (07:00 is
      // before the bays open on a weekday) before taking the first time left.
      await page.locator('select[name="time"] option[value="07:00"][disabled]').waitFor({ state: 'attached' });
      const time = page.locator('select[name="time"] option:not([disabled]):not([value=""])').first();
      await time.waitFor({ state: 'attached' });
      await page.locator('select[name="time"]').selectOption((await time.getAttribute('value'))!);
      await page.getByRole('button', { name: 'Continue to Your Details' }).click();
      await page.getByText('Step 3 of 3').waitFor();

      const email = `two-cars-${width}@example.com`;
      await page.getByLabel('Full Name').fill('Two Cars');
      await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
      await page.getByLabel('Phone Number').fill(width === 390 ? '021 555 4611' : '021 555 4622');
      await page.getByRole('region', { name: 'Your price' }).getByText('First-service discount 15%').waitFor();
      t.same(await axeViolations(page), [], 'no axe violation on step 3');
      await page.getByRole('button', { name: 'Complete Booking' }).click();
      await page.waitForURL(url('/'));

      const stored = await app.db.selectFrom('bookings').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
      t.match(stored.vehicles, [
        { service: 'Quick Clean', vehicleType: 'sm', addOns: ['pet-hair'], plate: 'ABC123' },
        { service: 'Express Clean', vehicleType: 'suv', addOns: [] },
      ]);
      t.equal(stored.vehicles.length, 2, 'both vehicles are stored');
      t.match(stored.lines, [{ vehicle: 0, kind: 'package' }, { vehicle: 0, kind: 'add-on', code: 'pet-hair', totalCents: 4500, minutes: 30 }, { vehicle: 1, kind: 'package', code: 'Express Clean' }]);
      t.equal(stored.list_price_cents, 6900 + 4500 + 12500);
      t.same(problems, { consoleErrors: [], failedRequests: [], cspViolations: [] });
      await page.context().close();
    });
  }

  t.test('without JavaScript "Add another vehicle" keeps what was entered', async (t) => {
    const { page, problems } = await openPage(browser, 390, { javaScript: false });
    await page.goto(url('/booking?package=quick-clean'));
    const first = page.getByRole('group', { name: 'Vehicle 1', exact: true });
    await first.getByRole('radio', { name: /Small Car/ }).check();
    await first.getByRole('checkbox', { name: /Pet hair removal/ }).check();
    await first.getByLabel('Make').fill('Toyota');
    await first.getByLabel('Plate').fill('abc 123');
    await page.getByRole('button', { name: 'Add another vehicle' }).click();

    const second = page.getByRole('group', { name: 'Vehicle 2', exact: true });
    await second.waitFor();
    t.ok(await first.getByRole('radio', { name: /Small Car/ }).isChecked(), 'the size is kept');
    t.ok(await first.getByRole('checkbox', { name: /Pet hair removal/ }).isChecked(), 'and the add-on');
    t.equal(await first.getByLabel('Make').inputValue(), 'Toyota');
    t.equal(await first.getByLabel('Plate').inputValue(), 'abc 123', 'and the details');
    await second.locator('.package-head', { hasText: 'Express Clean' }).click();
    await second.getByRole('radio', { name: /SUV/ }).check();
    await page.screenshot({ path: '/tmp/wt41c-nojs-step1.png', fullPage: true });

    await second.getByRole('button', { name: 'Remove vehicle 2' }).click();
    await page.getByRole('button', { name: 'Add another vehicle' }).waitFor();
    t.equal(await page.getByRole('group', { name: 'Vehicle 2', exact: true }).count(), 0, 'Remove takes it out');
    t.equal(await first.getByLabel('Plate').inputValue(), 'abc 123', 'and keeps the first');
    t.same(problems.cspViolations, []);
    await page.context().close();
  });
});
