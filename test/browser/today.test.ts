/**
 * Issue 21, the Today view in Chromium, at 390 px (a phone in a van) and 1280 px: the day's jobs
 * per van with directions, call and text links; "On the way" e-mails the customer; "Started" is
 * recorded; axe finds nothing in any of these states. The staff frame has no marketing header,
 * footer or chat buttons.
 */
import t from 'tap';
import { aucklandInstant } from '../../src/domain/booking-dates.ts';
import { baseUrl, buildTestApp } from '../helper.ts';
import { axeViolations, launchBrowser, openPage, openView, signIn } from '../support/browser.ts';
import { nextWeekday, originalClientPayload, testNow } from '../support/payloads.ts';

t.test('the Today view on a phone and a desktop', async (t) => {
  const browser = await launchBrowser(t);
  let clock = testNow;
  const app = await buildTestApp(t, { listen: true, now: () => clock });
  const day = nextWeekday(3);
  for (const [i, name] of ['Aroha Today', 'Ben Today'].entries()) {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/create-booking',
      payload: originalClientPayload({ name, email: `today${i}@example.com`, date: day, time: i === 0 ? '09:00' : '10:00', ...(i === 1 ? { serviceType: 'dropoff' } : {}) }),
    });
    t.equal(res.statusCode, 201);
  }
  clock = new Date(aucklandInstant(day, '08:00'));

  for (const width of [390, 1280]) {
    await t.test(`at ${width} px`, async (t) => {
      const { page, problems } = await openPage(browser, width);
      await signIn(page, baseUrl(app));
      t.equal(await page.locator('.site-footer, footer').count(), 0, 'no marketing footer');
      t.equal(await page.getByRole('link', { name: 'View the website' }).count(), 1, 'the staff frame');
      await openView(page, 'Today');
      const job = page.locator('.today-job', { hasText: 'Aroha Today' });
      await job.waitFor();
      t.match(await job.getByRole('link', { name: /Ellerslie-Panmure Highway/ }).getAttribute('href'), /^https:\/\/www\.google\.com\/maps\/dir\/\?api=1&destination=/, 'directions');
      t.match(await job.getByRole('link', { name: /^Call/ }).getAttribute('href'), /^tel:\+64/, 'tap to call');
      t.match(await job.getByRole('link', { name: /^Text/ }).getAttribute('href'), /^sms:\+64/, 'tap to text');
      t.equal(await page.locator('.today-job', { hasText: 'Ben Today' }).getByRole('button', { name: /On the way/ }).count(), 0, 'no "On the way" for a drop-off');
      t.same(await axeViolations(page), [], 'no axe violation on the day');
      if (width === 390) {
        await job.getByLabel('Arriving in').selectOption('15');
        await job.getByRole('button', { name: /On the way/ }).click();
        await job.getByText('The customer has been e-mailed.').waitFor();
        t.match(await job.innerText(), /On the way since 8:00 am, arriving about 8:15 am/);
        await job.getByRole('button', { name: /^Started/ }).click();
        await job.getByText('Started at 8:00 am').waitFor();
        t.same(await axeViolations(page), [], 'no axe violation after the actions');
        await page.screenshot({ path: '/tmp/today-390.png', fullPage: true });
      } else {
        t.match(await job.innerText(), /arriving about 8:15 am/, 'what was done shows on reload');
        await page.screenshot({ path: '/tmp/today-1280.png', fullPage: true });
      }
      t.same(problems.consoleErrors, [], 'no console errors');
    });
  }
  const mails = await app.db.selectFrom('outbox_emails').select('to_address').where('kind', '=', 'booking-on-the-way').execute();
  t.same(mails.map((m) => m.to_address), ['today0@example.com'], 'one e-mail, to the customer on the way to');
});
