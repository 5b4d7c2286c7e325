/**
 * The dashboard's Customers view in Chromium (issue 22), on a phone (390 px) and a desktop
 * (1280 px): the cards, the search, "More", a customer's page with their bookings, messages and
 * "Book again"; nothing wider than the screen, and axe finds no violation in any of these states.
 */
import t from 'tap';
import { baseUrl, buildTestApp } from '../helper.ts';
import { axeViolations, launchBrowser, openPage, openView, signIn } from '../support/browser.ts';
import { bookingRow, inDays } from '../support/payloads.ts';

t.test('the Customers view in Chromium', async (t) => {
  const browser = await launchBrowser(t);
  const app = await buildTestApp(t, { listen: true });
  // Aroha: three bookings under one e-mail written three ways; 30 others, so that a second page follows.
  for (const row of [
    bookingRow({ name: 'Aroha Smith', email: 'Aroha@Example.com', phone: '021 111 2222', date: inDays(-30), time: '09:00', status: 'completed', service: 'Deluxe Clean', list_price_cents: 24900, total_cents: 24900 }),
    bookingRow({ name: 'Aroha Smith', email: ' aroha@example.com', phone: '021 111 2222', date: inDays(-10), time: '10:00', status: 'cancelled' }),
    ...Array.from({ length: 30 }, (_, i) => bookingRow({ name: `Regular Customer ${i}`, email: `regular${i}@example.com`, phone: `021 200 ${String(1000 + i)}`, date: inDays(5 + (i % 20)) })),
    bookingRow({ name: 'Aroha Smith-Ngata', email: 'AROHA@example.com', phone: '021 111 2222', date: inDays(7), time: '11:00', status: 'confirmed', service: 'Express Clean', vehicle_type: 'mid', list_price_cents: 10900, total_cents: 10900 }),
  ]) {
    await app.db.insertInto('bookings').values(row as never).execute();
  }
  await app.db.insertInto('contact_messages').values({ name: 'Aroha', email: 'aroha@example.com', phone: '021 111 2222', message: 'Can you do the boat too?' }).execute();

  for (const width of [390, 1280]) {
    t.test(`at ${width} px`, async (t) => {
      const { page, problems } = await openPage(browser, width);
      await signIn(page, baseUrl(app));
      await openView(page, 'Customers');
      await page.getByRole('heading', { name: 'Customers', level: 2 }).waitFor();
      await page.locator('.customer-card').first().waitFor();
      t.equal(await page.locator('.customer-card').count(), 24, 'a first page of 24');
      const aroha = page.locator('.customer-card').filter({ hasText: 'Aroha Smith-Ngata' });
      t.match(await aroha.innerText(), /aroha@example\.com[\s\S]*021 111 2222[\s\S]*Bookings\s+3[\s\S]*Completed\s+1[\s\S]*Total spent\s+\$249\.00[\s\S]*Last visit\s+\w{3} \d{2}, \d{4}, 09:00[\s\S]*Next visit\s+\w{3} \d{2}, \d{4}, 11:00/i);
      t.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'nothing wider than the screen');
      t.same(await axeViolations(page), [], 'no axe violation on the list');

      await page.getByRole('button', { name: 'More' }).click();
      await page.waitForFunction(() => document.querySelectorAll('.customer-card').length === 31);
      t.equal(await page.getByRole('button', { name: 'More' }).count(), 0, 'no More after the last page');

      await page.getByLabel('Search by name, e-mail, phone or booking reference').fill('021 111');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForFunction(() => document.querySelectorAll('.customer-card').length === 1);
      t.match(await page.locator('.customer-card').innerText(), /Aroha Smith-Ngata/);
      await page.getByLabel('Search by name, e-mail, phone or booking reference').fill('nobody-at-all');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByText('No customer matches “nobody-at-all”').waitFor();
      t.same(await axeViolations(page), [], 'no axe violation with no match');
      await page.getByLabel('Search by name, e-mail, phone or booking reference').fill('aroha');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForFunction(() => document.querySelectorAll('.customer-card').length === 1);

      await page.getByRole('button', { name: 'Aroha Smith-Ngata' }).click();
      await page.getByRole('heading', { name: 'Aroha Smith-Ngata', level: 2 }).waitFor();
      const bookings = page.locator('.customer-booking');
      t.equal(await bookings.count(), 3);
      t.match(await bookings.first().innerText(), /confirmed[\s\S]*11:00 · Express Clean · On-site · \$109\.00/i, 'latest appointment first');
      t.match(await bookings.last().innerText(), /completed[\s\S]*Deluxe Clean/i);
      t.match(await page.locator('.customer-messages').innerText(), /Can you do the boat too\?/);
      t.equal(await page.getByRole('button', { name: 'Book again' }).count(), 1, 'Book again opens the staff booking form (test/browser/privacy.test.ts)');
      t.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'the customer page fits the screen');
      t.same(await axeViolations(page), [], 'no axe violation on the customer page');

      await page.getByRole('button', { name: '← All customers' }).click();
      await page.locator('.customer-card').first().waitFor();
      t.same(problems.cspViolations, []);
      t.same(problems.consoleErrors, []);
      t.same(problems.failedRequests, []);
      await page.context().close();
    });
  }
});
