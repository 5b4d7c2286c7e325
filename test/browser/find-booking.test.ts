/** "Find my booking" (issue 22) in Chromium on a phone (390 px): with JavaScript and without, and axe finds nothing in any state. */
import t from 'tap';
import { FIND_BOOKING_MESSAGES } from '../../src/domain/find-booking-rules.ts';
import { MESSAGES } from '../../src/domain/messages.ts';
import { baseUrl, buildTestApp } from '../helper.ts';
import { axeViolations, launchBrowser, openPage, waitForHydration } from '../support/browser.ts';
import { inDays, originalClientPayload } from '../support/payloads.ts';

t.test('Find my booking in Chromium at 390 px', async (t) => {
  const app = await buildTestApp(t, { listen: true, env: { FIND_BOOKING_ANSWER_MS: '50' } });
  const browser = await launchBrowser(t);
  const booked = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: inDays(6), email: 'phone.finder@example.co.nz' }) });
  t.equal(booked.statusCode, 201);
  const linkMails = async () => (await app.db.selectFrom('outbox_emails').select('to_address').where('kind', '=', 'booking-links').execute()).map((r) => r.to_address);

  t.test('with JavaScript: the field message, then the answer in place', async (t) => {
    const { page, problems } = await openPage(browser, 390);
    await page.goto(`${baseUrl(app)}/booking/find`);
    await waitForHydration(page);
    t.equal(await page.title(), 'Find My Booking | Auckland Valet Co.');
    t.same(await axeViolations(page), [], 'no axe violation on the form');

    const email = page.getByRole('textbox', { name: 'Email Address', exact: true });
    await email.fill('not an address');
    await page.getByRole('button', { name: 'Send Me the Links' }).click();
    await page.getByText(MESSAGES.emailInvalid).waitFor();
    t.equal(await email.getAttribute('aria-invalid'), 'true');
    t.ok(await email.evaluate((el) => el === document.activeElement), 'the field has the focus');
    t.same(await axeViolations(page), [], 'no axe violation with the error');

    await email.fill('Phone.Finder@example.co.nz');
    await page.getByRole('button', { name: 'Send Me the Links' }).click();
    await page.getByText(FIND_BOOKING_MESSAGES.answer).waitFor();
    t.equal(await email.inputValue(), '', 'the field is emptied');
    t.same(await axeViolations(page), [], 'no axe violation with the answer');
    t.same(await linkMails(), ['phone.finder@example.co.nz'], 'the e-mail was queued');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    t.ok(width <= 390, `nothing wider than the phone (${width} px)`);
    t.same(problems, { consoleErrors: [], failedRequests: [], cspViolations: [] });
    await page.context().close();
  });

  t.test('without JavaScript: the form posts, and the page answers', async (t) => {
    const { page } = await openPage(browser, 390, { javaScript: false });
    await page.goto(`${baseUrl(app)}/booking/find`);
    await page.getByRole('textbox', { name: 'Email Address', exact: true }).fill('nobody.known@example.co.nz');
    await page.getByRole('button', { name: 'Send Me the Links' }).click();
    await page.getByText(FIND_BOOKING_MESSAGES.answer).waitFor();
    t.match(page.url(), /\/booking\/find\?sent=1#find-title$/);
    t.same(await linkMails(), ['phone.finder@example.co.nz'], 'nothing queued for an unknown address');
    await page.context().close();
  });
});
