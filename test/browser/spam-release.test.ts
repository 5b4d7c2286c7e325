/**
 * Issue 23, "Release as spam" in Chromium: staff tick bookings (by keyboard), confirm with a
 * reason, and the bookings are cancelled with no e-mail to the customer; axe on the selection and
 * the confirm step.
 */
import t from 'tap';
import { baseUrl, buildTestApp } from '../helper.ts';
import { axeViolations, launchBrowser, openPage, signIn } from '../support/browser.ts';
import { inDays, originalClientPayload } from '../support/payloads.ts';

t.test('staff select bookings and release them as spam', async (t) => {
  const browser = await launchBrowser(t);
  const app = await buildTestApp(t, { listen: true });
  for (const [i, name] of ['Spam One', 'Spam Two', 'Real Customer'].entries()) {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/create-booking',
      payload: originalClientPayload({ name, email: `c${i}@example.com`, date: inDays(4 + i), time: '10:00' }),
    });
    t.equal(res.statusCode, 201);
  }
  const outboxBefore = (await app.db.selectFrom('outbox_emails').select('id').execute()).length;

  const { page, problems } = await openPage(browser, 1280);
  await signIn(page, baseUrl(app));
  const one = page.getByRole('checkbox', { name: /Select Spam One/ });
  await one.waitFor();
  await one.focus();
  await page.keyboard.press('Space');
  t.ok(await one.isChecked(), 'ticked from the keyboard');
  await page.getByRole('checkbox', { name: /Select Spam Two/ }).check();
  const region = page.getByRole('region', { name: 'Selected bookings' });
  await region.getByText('2 selected').waitFor();
  t.same(await axeViolations(page), [], 'no axe violation with bookings selected');

  await region.getByRole('button', { name: 'Release as spam…' }).click();
  const reason = region.getByRole('textbox', { name: /Reason/ });
  await reason.waitFor();
  t.ok(await reason.evaluate((el) => el === document.activeElement), 'the reason has the focus');
  t.same(await axeViolations(page), [], 'no axe violation on the confirm step');
  await reason.fill('Made-up names');
  await page.keyboard.press('Enter');
  await page.getByRole('status').filter({ hasText: 'Released 2 bookings as spam' }).waitFor();

  const rows = await app.db.selectFrom('bookings').select(['name', 'status']).orderBy('name').execute();
  t.same(rows, [
    { name: 'Real Customer', status: 'pending' },
    { name: 'Spam One', status: 'cancelled' },
    { name: 'Spam Two', status: 'cancelled' },
  ]);
  t.equal((await app.db.selectFrom('outbox_emails').select('id').execute()).length, outboxBefore, 'no e-mail queued');
  t.equal(await page.getByRole('checkbox', { name: /Select Spam One/ }).count(), 0, 'a cancelled booking cannot be selected');
  t.same(await axeViolations(page), [], 'no axe violation after the release');
  t.same(problems.cspViolations, []);
  t.same(problems.consoleErrors, []);
});
