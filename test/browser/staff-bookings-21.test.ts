/**
 * Issue 21 in Chromium, at 390 and 1280 px, one app and one browser: staff take a phone booking
 * from "New booking" (times from the engine, the quote from the server, no e-mail); edit a booking
 * with an e-mail (a new date and a start from the engine's free times; on the phone also on-site →
 * drop-off), and "Your booking has changed" is in the outbox; complete it from the Bookings list
 * (the completion form, never a bare status change), and the receipt page shows it; the Takings
 * tab counts it. axe on each new state; screenshots in /tmp.
 */
import t from 'tap';
import { manageLinkFor } from '../../src/db/manage-link.repository.ts';
import { composeQueued } from '../../src/mail/booking-mail.ts';
import { baseUrl, buildTestApp } from '../helper.ts';
import { axeViolations, launchBrowser, openPage, openView, signIn, waitForHydration } from '../support/browser.ts';
import { inDays, nextWeekday, originalClientPayload, testNow } from '../support/payloads.ts';

t.test('a phone booking, an edit, a completion, its receipt and the takings, on a phone and on a desktop', async (t) => {
  const browser = await launchBrowser(t);
  const app = await buildTestApp(t, { listen: true });
  const base = baseUrl(app);
  for (const width of [390, 1280]) {
    await t.test(`${width} px`, async (t) => {
      const phone = width === 390;
      const shot = (name: string, fullPage = false) => page.screenshot({ path: `/tmp/staff21-${name}-${width}.png`, fullPage });
      const name = `Phoned In ${width}`;
      const { page, problems } = await openPage(browser, width);
      // The page's today is the app's (its clock is pinned to testNow): the payment is recorded
      // at the app's now and the Takings view shows the browser's today, which a run crossing
      // midnight in Auckland would otherwise make the next day, with nothing taken yet.
      await page.clock.setFixedTime(testNow);
      await signIn(page, base, 'Sam');
      await page.getByRole('button', { name: 'New booking' }).click();
      const form = page.getByRole('dialog', { name: 'New booking' });
      await form.waitFor();
      await form.getByLabel('Package').selectOption('Quick Clean');
      await form.getByLabel('Vehicle size').selectOption('sm');
      await form.getByLabel('Date').fill(inDays(phone ? 3 : 4));
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
      t.ok(await form.evaluate((el) => el.scrollWidth <= el.clientWidth + 1), 'the form fits the width');
      await shot('new-booking');
      await form.getByRole('button', { name: 'Book and confirm' }).click();
      await page.getByRole('dialog', { name: 'Booking taken' }).getByText(/Booked and confirmed: reference/).waitFor();
      t.same(await axeViolations(page), [], 'no axe violation on the answer');
      const row = await app.db.selectFrom('bookings').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
      t.match(row, { source: 'staff', created_by: 'Sam', email: '', status: 'confirmed', service: 'Quick Clean', time: '10:00' });
      t.equal((await app.db.selectFrom('outbox_emails').select('id').where('booking_id', '=', row.id).execute()).length, 0, 'nothing e-mailed');
      await page.getByRole('dialog', { name: 'Booking taken' }).getByRole('button', { name: 'Close', exact: true }).first().click();

      // An edit of a booking with an e-mail: a new date, a start the engine offers.
      const customer = `Edit Me ${width}`;
      const made = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ name: customer, email: `edit${width}@example.com`, date: inDays(phone ? 5 : 6) }) });
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
      if (phone) await editor.getByLabel('Where').selectOption('dropoff');
      t.equal(await editor.getByLabel('House/unit number').count(), phone ? 0 : 1, 'a drop-off asks for no address');
      // On the phone the job moves to a bay, which works Monday to Saturday: a Tuesday.
      const newDate = phone ? nextWeekday(2, 8) : inDays(9);
      await editor.getByLabel('Date').fill(newDate);
      await editor.getByRole('option', { name: /^13:00 – \d\d:\d\d$/ }).waitFor({ state: 'attached' });
      await editor.getByLabel('Start time').selectOption('13:00');
      await editor.getByRole('button', { name: 'Preview' }).click();
      await editor.getByRole('heading', { name: 'What will change' }).waitFor();
      t.match(await editor.locator('.change-lines').innerText(), phone ? /Where[\s\S]*Drop-off/ : /When[\s\S]*1:00 pm/);
      t.same(await axeViolations(page), [], 'no axe violation on the preview');
      await shot('edit-preview');
      await editor.getByRole('button', { name: 'Save changes' }).click();
      await editor.waitFor({ state: 'detached' });
      await details.getByText(/Edited by Sam: Phone/).waitFor();
      const edited = await app.db.selectFrom('bookings').selectAll().where('name', '=', customer).executeTakeFirstOrThrow();
      t.match(edited, { phone: '021 555 0199', service: 'Express Clean', date: newDate, time: '13:00', service_type: phone ? 'dropoff' : 'onsite' });
      const changed = await app.db.selectFrom('outbox_emails').selectAll().where('booking_id', '=', edited.id).where('kind', '=', 'booking-changed').execute();
      t.equal(changed.length, 1, '"Your booking has changed" in the outbox');
      t.match(composeQueued(changed[0]!, app.mail).text_body, /When: .* → .*1:00 pm/);

      // Confirmed in the details, then completed from the list: the completion form, not a bare status.
      await details.getByRole('button', { name: /^Confirm/ }).click();
      await details.getByText(/Sam changed pending → confirmed/).waitFor();
      await page.keyboard.press('Escape');
      await details.waitFor({ state: 'hidden' });
      const card = page.locator('.booking-card').filter({ hasText: customer });
      await card.getByRole('button', { name: /^Complete/ }).click();
      const completion = page.getByRole('dialog', { name: `Complete ${customer}’s job` });
      await completion.waitFor();
      if (phone) {
        await completion.getByLabel('Final amount (NZD, including GST)').fill('150.00');
        await completion.getByLabel('Reason for the change').fill('Extra pet hair');
        await completion.getByLabel('Payment method').selectOption('card');
      }
      t.same(await axeViolations(page), [], 'no axe violation on the completion form');
      await shot('complete');
      await completion.getByRole('button', { name: 'Complete job' }).click();
      await page.getByText(new RegExp(`${customer}’s job completed: \\$${phone ? '150\\.00' : '[\\d.]+'}, paid by ${phone ? 'card' : 'cash'}\\. The receipt has been e-mailed`)).waitFor();
      t.match(await card.locator('.status-badge').first().innerText(), /completed/i, 'the card follows');
      t.same(await axeViolations(page), [], 'no axe violation after completing');
      await shot('completed');
      const payment = await app.db.selectFrom('booking_payments').selectAll().where('booking_id', '=', edited.id).executeTakeFirstOrThrow();
      t.match(payment, phone ? { amount_cents: 15000, payment_method: 'card', amount_reason: 'Extra pet hair' } : { amount_cents: edited.total_cents, payment_method: 'cash' });
      t.ok(payment.paid_at, 'recorded as paid');
      t.equal((await app.db.selectFrom('outbox_emails').select('id').where('booking_id', '=', edited.id).where('kind', '=', 'booking-receipt').execute()).length, 1, 'the receipt e-mailed');

      // The receipt page, behind the manage link's token.
      const token = (await manageLinkFor(app.db, edited.id, base))!.split('/').at(-1)!;
      await page.goto(`${base}/booking/receipt/${token}`);
      await page.getByRole('heading', { name: 'Receipt' }).waitFor();
      const facts = await page.locator('.receipt-facts').innerText();
      t.match(facts, phone ? /Total\s+\$150\.00[\s\S]*Paid \(card\)/ : /Paid \(cash\)/);
      t.match(facts, new RegExp(edited.reference));
      t.same(await axeViolations(page), [], 'no axe violation on the receipt');
      t.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'the receipt fits the width');
      await shot('receipt', true);

      // The takings of today count it.
      await page.goto(`${base}/dashboard`);
      await waitForHydration(page);
      await openView(page, 'Takings');
      const caption = page.locator('.takings-table caption');
      await caption.waitFor();
      t.match(await caption.innerText(), phone ? /^1 job completed/ : /^2 jobs completed/);
      t.match(await page.locator('.takings-table').innerText(), phone ? /Card\s+\$150\.00/ : /Cash\s+\$[1-9]/);
      t.same(await axeViolations(page), [], 'no axe violation on the takings');
      await shot('takings');
      t.same(problems.cspViolations, []);
      t.same(problems.consoleErrors, []);
    });
  }
});
