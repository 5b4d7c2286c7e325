/**
 * Issue 21 in Chromium, at 390 and 1280 px: staff take a phone booking from "New booking" (times
 * from the engine, the quote from the server, no e-mail), then edit a booking with an e-mail
 * (preview, save) and the customer's "Your booking has changed" is in the outbox. axe on each new
 * state.
 */
import t from 'tap';
import { baseUrl, buildTestApp } from '../helper.ts';
import { axeViolations, launchBrowser, openPage, signIn, waitForHydration } from '../support/browser.ts';
import { inDays, originalClientPayload } from '../support/payloads.ts';

t.test('a phone booking and an edit, on a phone and on a desktop', async (t) => {
  const browser = await launchBrowser(t);
  const app = await buildTestApp(t, { listen: true });
  for (const width of [390, 1280]) {
    await t.test(`${width} px`, async (t) => {
      const name = `Phoned In ${width}`;
      const { page, problems } = await openPage(browser, width);
      await signIn(page, baseUrl(app), 'Sam');
      await page.getByRole('button', { name: 'New booking' }).click();
      const form = page.getByRole('dialog', { name: 'New booking' });
      await form.waitFor();
      await form.getByLabel('Package').selectOption('Quick Clean');
      await form.getByLabel('Vehicle size').selectOption('sm');
      await form.getByLabel('Date').fill(inDays(width === 390 ? 3 : 4));
      await form.getByRole('option', { name: /^10:00 – 11:00$/ }).waitFor({ state: 'attached' });
      await form.getByLabel('Start time').selectOption('10:00');
      await form.getByLabel('House/unit number').fill('12');
      await form.getByLabel('Street').fill('Queen Street');
      await form.getByLabel('Suburb').fill('Auckland Central');
      await form.getByLabel('Postal code').fill('1010');
      await form.getByLabel('Name').fill(name);
      await form.getByLabel('Phone').fill('021 555 0100');
      await form.getByText('Total').waitFor();
      t.same(await axeViolations(page), [], 'no axe violation on the form');
      const scrollWidth = await form.evaluate((el) => el.scrollWidth <= el.clientWidth + 1);
      t.ok(scrollWidth, 'the form fits the width');
      await form.getByRole('button', { name: 'Book and confirm' }).click();
      await page.getByRole('dialog', { name: 'Booking taken' }).getByText(/Booked and confirmed: reference/).waitFor();
      t.same(await axeViolations(page), [], 'no axe violation on the answer');
      const row = await app.db.selectFrom('bookings').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
      t.match(row, { source: 'staff', created_by: 'Sam', email: '', status: 'confirmed', service: 'Quick Clean', time: '10:00' });
      t.equal((await app.db.selectFrom('outbox_emails').select('id').where('booking_id', '=', row.id).execute()).length, 0, 'nothing e-mailed');
      await page.getByRole('button', { name: 'Close' }).click();

      // An edit of a booking with an e-mail.
      const customer = `Edit Me ${width}`;
      const made = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ name: customer, email: `edit${width}@example.com`, date: inDays(width === 390 ? 5 : 6) }) });
      t.equal(made.statusCode, 201);
      await page.reload();
      await waitForHydration(page);
      await page.getByRole('button', { name: new RegExp(`View Details.*${customer}`) }).click();
      const details = page.getByRole('dialog', { name: 'Booking Details' });
      await details.getByRole('button', { name: 'Edit booking' }).click();
      const editor = page.getByRole('dialog', { name: /Edit booking/ });
      await editor.waitFor();
      await editor.getByLabel('Phone').fill('021 555 0199');
      await editor.getByLabel('Package').selectOption('Express Clean');
      await editor.getByRole('button', { name: 'Preview' }).click();
      await editor.getByRole('heading', { name: 'What will change' }).waitFor();
      t.same(await axeViolations(page), [], 'no axe violation on the preview');
      await editor.getByRole('button', { name: 'Save changes' }).click();
      await editor.waitFor({ state: 'detached' });
      await details.getByText(/Edited by Sam: Phone/).waitFor();
      const edited = await app.db.selectFrom('bookings').selectAll().where('name', '=', customer).executeTakeFirstOrThrow();
      t.match(edited, { phone: '021 555 0199', service: 'Express Clean' });
      const changed = await app.db.selectFrom('outbox_emails').selectAll().where('booking_id', '=', edited.id).where('kind', '=', 'booking-changed').execute();
      t.equal(changed.length, 1, '"Your booking has changed" in the outbox');
      t.same(problems.cspViolations, []);
      t.same(problems.consoleErrors, []);
    });
  }
});
