/**
 * Issue 23, BOOKING_CONFIRMATION=email in Chromium at 390 px: the customer confirms their booking
 * from the manage page (the button, then the thank-you notice), and staff list the bookings that
 * await confirmation; axe finds nothing in either state.
 */
import t from 'tap';
import { CONFIRM_BOOKING_LABEL, MANAGE_MESSAGES } from '../../src/domain/manage-rules.ts';
import { manageLinkFor } from '../../src/db/manage-link.repository.ts';
import { baseUrl, buildTestApp } from '../helper.ts';
import { axeViolations, launchBrowser, openPage, signIn, waitForHydration } from '../support/browser.ts';
import { inDays, originalClientPayload } from '../support/payloads.ts';

t.test('a booking awaiting e-mail confirmation, for the customer and for staff', async (t) => {
  const browser = await launchBrowser(t);
  const app = await buildTestApp(t, { listen: true, env: { BOOKING_CONFIRMATION: 'email' } });
  const made = [];
  for (const [i, name] of ['Awaiting One', 'Awaiting Two'].entries()) {
    const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ name, email: `await${i}@example.com`, date: inDays(4 + i), time: '10:00' }) });
    t.equal(res.statusCode, 201);
    made.push(res.json().id as string);
  }

  const { page, problems } = await openPage(browser, 390);
  await page.goto((await manageLinkFor(app.db, made[0]!, baseUrl(app)))!);
  await waitForHydration(page);
  const button = page.getByRole('button', { name: CONFIRM_BOOKING_LABEL });
  t.ok(await button.isVisible(), 'the page asks for the confirmation');
  t.same(await axeViolations(page), [], 'no axe violation while it waits');
  await button.click();
  await page.getByText(MANAGE_MESSAGES.emailConfirmed).waitFor();
  await waitForHydration(page);
  t.equal(await button.count(), 0, 'asked no more');
  t.same(await axeViolations(page), [], 'no axe violation once confirmed');

  await signIn(page, baseUrl(app));
  await page.getByRole('button', { name: 'Filters' }).click();
  await page.getByLabel('Status').selectOption('awaiting');
  // The list before the filter showed both: wait for the filtered one to replace it.
  await page.getByText('Awaiting One').first().waitFor({ state: 'detached' });
  await page.getByText('Awaiting Two').first().waitFor();
  t.equal(await page.getByText('Awaiting One').count(), 0, 'only the one still waiting is listed');
  t.ok(await page.getByText('awaiting e-mail confirmation').last().isVisible(), 'with its badge');
  t.same(await axeViolations(page), [], 'no axe violation in the staff list');
  t.same(problems.consoleErrors, [], 'no console errors');
});
