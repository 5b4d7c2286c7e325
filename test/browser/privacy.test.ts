/**
 * A customer's privacy requests in Chromium at 390 px (issue 22): the JSON and CSV exports
 * download, "Book again" opens the staff booking form filled with their details, and the erasure
 * asks for the word (or their name), says what will go, and erases; axe finds no violation in the
 * new states, and nothing is wider than the screen.
 */
import { readFile } from 'node:fs/promises';
import t from 'tap';
import { baseUrl, buildTestApp } from '../helper.ts';
import { axeViolations, launchBrowser, openPage, openView, signIn } from '../support/browser.ts';
import { bookingRow, inDays } from '../support/payloads.ts';

t.test('export, Book again and erasure on a customer page at 390 px', async (t) => {
  const browser = await launchBrowser(t);
  const app = await buildTestApp(t, { listen: true });
  const person = { name: 'Rawiri Te Huia', email: 'rawiri@example.org', phone: '021 909 4040' };
  for (const row of [
    bookingRow({ ...person, street_address: 'Puriri Street', house_number: '12', date: inDays(-12), time: '09:00', status: 'completed', vehicle_type: 'suv', selected_vehicle_type: 'suv' }),
    bookingRow({ ...person, street_address: 'Puriri Street', house_number: '12', date: inDays(6), time: '10:00', status: 'confirmed', vehicle_type: 'suv', selected_vehicle_type: 'suv' }),
  ]) {
    await app.db.insertInto('bookings').values(row as never).execute();
  }
  await app.db.insertInto('contact_messages').values({ ...person, message: 'Please call before you come.' }).execute();

  const { page, problems } = await openPage(browser, 390);
  await signIn(page, baseUrl(app));
  await openView(page, 'Customers');
  await page.getByRole('button', { name: person.name }).click();
  await page.getByRole('heading', { name: person.name, level: 2 }).waitFor();
  await page.getByRole('heading', { name: 'Privacy requests' }).waitFor();

  const [json] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export (JSON)' }).click()]);
  t.match(json.suggestedFilename(), /^customer-[0-9a-f]{8}-\d{4}-\d{2}-\d{2}\.json$/);
  const exported = JSON.parse(await readFile((await json.path())!, 'utf8'));
  t.equal(exported.bookings.length, 2, 'both bookings in the file');
  t.match(exported.contactMessages, [{ message: 'Please call before you come.' }]);
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export (CSV)' }).click()]);
  t.match(csv.suggestedFilename(), /\.csv$/);
  t.match(await readFile((await csv.path())!, 'utf8'), /booking,[A-Z0-9]{8},/);

  await page.getByRole('button', { name: 'Book again' }).click();
  await page.locator('#nb-name').waitFor();
  t.equal(await page.locator('#nb-name').inputValue(), person.name, 'the form has their name');
  t.equal(await page.locator('#nb-phone').inputValue(), person.phone);
  t.equal(await page.locator('#nb-streetAddress').inputValue(), 'Puriri Street', 'and their last address');
  if (process.env.SCREENSHOTS) await page.screenshot({ path: `${process.env.SCREENSHOTS}/privacy-book-again-390.png`, fullPage: true });
  // Escape closes the form (a native modal dialog). The click on a close button that followed it
  // here found none and waited out Playwright's 30-second timeout, its failure ignored.
  await page.keyboard.press('Escape');
  await page.locator('#nb-name').waitFor({ state: 'hidden' });

  await page.getByRole('button', { name: 'Correct details' }).click();
  const correct = page.getByRole('form', { name: 'Correct details' });
  await correct.waitFor();
  t.equal(await page.locator('#correct-streetAddress').inputValue(), 'Puriri Street', 'the form starts from their details');
  await page.locator('#correct-phone').fill('not a phone');
  await page.getByRole('button', { name: 'Save corrections' }).click();
  await page.locator('#correct-phone-error').waitFor();
  t.same(await axeViolations(page), [], 'no axe violation on the correction form with an error');
  if (process.env.SCREENSHOTS) await page.screenshot({ path: `${process.env.SCREENSHOTS}/privacy-correct-390.png`, fullPage: true });
  await page.locator('#correct-phone').fill('027 818 2020');
  await page.getByRole('button', { name: 'Save corrections' }).click();
  await page.locator('.customer-contact').getByText('027 818 2020').waitFor();
  person.phone = '027 818 2020';

  await page.getByRole('button', { name: 'Erase…' }).click();
  const erase = page.getByRole('form', { name: 'Erase this customer' });
  await erase.waitFor();
  t.match(await erase.innerText(), /2 bookings[\s\S]*1 contact message[\s\S]*rawiri@example\.org/, 'what will be erased');
  const submit = page.getByRole('button', { name: 'Erase permanently' });
  t.ok(await submit.isDisabled(), 'not before the confirmation is typed');
  await page.getByLabel(/Type ERASE or/).fill('erase');
  t.ok(await submit.isEnabled());
  t.same(await axeViolations(page), [], 'no axe violation on the erasure step');
  t.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'nothing wider than the screen');
  if (process.env.SCREENSHOTS) await page.screenshot({ path: `${process.env.SCREENSHOTS}/privacy-erase-390.png`, fullPage: true });
  await submit.click();
  await page.getByRole('heading', { name: 'Customer erased' }).waitFor();
  t.match(await page.locator('.customer-privacy').innerText(), /2 bookings[\s\S]*1 contact messages/);
  t.same(await axeViolations(page), [], 'no axe violation on the result');
  if (process.env.SCREENSHOTS) await page.screenshot({ path: `${process.env.SCREENSHOTS}/privacy-erased-390.png`, fullPage: true });

  const held = await app.db.selectFrom('bookings').select(['name', 'email']).execute();
  t.same(held, [{ name: 'Erased', email: '' }, { name: 'Erased', email: '' }], 'erased in the database');
  await page.getByRole('button', { name: 'Back to all customers' }).click();
  await page.getByText('No customers yet').waitFor();
  t.same(problems.cspViolations, []);
  // The one refusal is the correction with a bad phone, answered 400 on purpose.
  t.same(problems.consoleErrors, ['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
  t.match(problems.failedRequests, [/\/v1\/customers\/[0-9a-f-]{36} 400$/]);
  t.equal(problems.failedRequests.length, 1);
  await page.context().close();
});
