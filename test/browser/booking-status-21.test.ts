/**
 * Issue 21 in Chromium at 390 px (a phone in a van): the booking modal, loaded lazily, lists the
 * internal notes and adds one; a started appointment offers "No-show" (a future one does not) and
 * marking it shows the new badge; a late cancellation is marked on its card; axe finds nothing.
 */
import t from 'tap';
import { baseUrl, buildTestApp } from '../helper.ts';
import { axeViolations, launchBrowser, openPage, signIn } from '../support/browser.ts';
import { bookingRow, inDays } from '../support/payloads.ts';

t.test('notes, no-show and late cancellation in the dashboard at 390 px', async (t) => {
  const browser = await launchBrowser(t);
  const app = await buildTestApp(t, { listen: true });
  await app.db
    .insertInto('bookings')
    .values([
      bookingRow({ name: 'Hemi Walker', email: 'hemi@example.com', date: inDays(-1), time: '09:00', status: 'confirmed' }),
      bookingRow({ name: 'Lena Brown', email: 'lena@example.com', date: inDays(5), time: '11:00', status: 'confirmed' }),
      bookingRow({ name: 'Sam Tui', email: 'sam@example.com', date: inDays(6), time: '12:00', status: 'cancelled', cancelled_late: true }),
    ])
    .execute();
  const { page, problems } = await openPage(browser, 390);
  await signIn(page, baseUrl(app), 'Mere');
  await page.locator('.booking-card').first().waitFor();

  const hemi = page.locator('.booking-card').filter({ hasText: 'Hemi Walker' });
  const lena = page.locator('.booking-card').filter({ hasText: 'Lena Brown' });
  const sam = page.locator('.booking-card').filter({ hasText: 'Sam Tui' });
  t.equal(await hemi.getByRole('button', { name: /^No-show/ }).count(), 1, 'a started appointment offers No-show');
  t.equal(await lena.getByRole('button', { name: /^No-show/ }).count(), 0, 'a future one does not');
  t.match(await sam.locator('.status-badge').first().innerText(), /cancelled \(late\)/i, 'a late cancellation is marked');

  await page.getByRole('button', { name: /View Details.*Hemi Walker/ }).click();
  const modal = page.getByRole('dialog', { name: 'Booking Details' });
  await modal.getByText('No notes yet.').waitFor();
  t.same(await axeViolations(page), [], 'no axe violation with the notes section');

  const box = modal.getByLabel('Add a note (staff only, never shown to the customer)');
  await modal.getByRole('button', { name: 'Add note' }).click();
  await modal.getByText('Please write the note').waitFor();
  t.equal(await box.getAttribute('aria-invalid'), 'true', 'a blank note is refused in the browser');
  t.same(await axeViolations(page), [], 'no axe violation with the error shown');

  await box.fill('Gate code 4411\nRing twice');
  await modal.getByRole('button', { name: 'Add note' }).click();
  await modal.getByText('Note added.').waitFor();
  const note = modal.locator('.notes-list li');
  t.equal(await note.count(), 1);
  t.match(await note.innerText(), /Mere[\s\S]*Gate code 4411\nRing twice/, 'listed with its author, line break kept');
  t.equal(await box.inputValue(), '', 'the form is emptied');
  t.same(await axeViolations(page), [], 'no axe violation with a note listed');
  t.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'nothing wider than the phone');

  await modal.getByRole('button', { name: /^No-show/ }).click();
  await modal.getByText(/Mere changed confirmed → no-show/).waitFor();
  t.match(await modal.locator('.modal-service .status-badge').first().innerText(), /no-show/i);
  t.same(await axeViolations(page), [], 'no axe violation on a no-show (its badge colours included)');
  // The close and the card's new state are waited for, not read at once.
  await page.keyboard.press('Escape');
  await modal.waitFor({ state: 'hidden' });
  await t.resolves(hemi.locator('.status-badge').first().filter({ hasText: /no-show/i }).waitFor(), 'the card follows');
  await t.resolves(hemi.getByRole('button', { name: /^Back to pending/ }).waitFor(), 'a no-show can be undone');

  const stored = await app.db.selectFrom('booking_notes').selectAll().execute();
  t.match(stored, [{ body: 'Gate code 4411\nRing twice', author: 'Mere' }]);
  t.same(problems, { consoleErrors: [], failedRequests: [], cspViolations: [] });
});
