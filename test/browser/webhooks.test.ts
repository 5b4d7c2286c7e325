/**
 * Issue 44 in Chromium: the owner's Webhooks panel on a phone (390 px): an endpoint added with
 * its secret shown once, a booking's delivery listed with its status and "Resend", the endpoint
 * turned off. Nothing wider than the screen, and axe finds no violation.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import type { Page } from 'playwright-core';
import { baseUrl, buildTestApp } from '../helper.ts';
import { originalClientPayload, inDays } from '../support/payloads.ts';
import { axeViolations, launchBrowser, openPage, openView, signIn } from '../support/browser.ts';

const fits = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

t.test('the Webhooks panel in Chromium at 390 px', async (t) => {
  let received = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/valet-hooks/a-long-path-to-see-it-wrap`;

  const browser = await launchBrowser(t);
  const app = await buildTestApp(t, { listen: true, env: { WEBHOOKS_ALLOW_PRIVATE: 'true' } });
  const { page, problems } = await openPage(browser, 390);
  await signIn(page, baseUrl(app));
  await openView(page, 'Webhooks');
  await page.getByRole('heading', { name: 'Webhooks', level: 2 }).waitFor();
  await page.getByText('No endpoints yet.').waitFor();
  t.same(await axeViolations(page), [], 'no axe violation on the empty panel');

  await page.getByLabel('URL').fill(hookUrl);
  await page.getByLabel('Description (optional)').fill('Bookkeeping');
  await page.getByRole('checkbox', { name: 'customer.erased' }).uncheck();
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const secret = page.getByRole('status').locator('code');
  await secret.waitFor();
  t.match(await secret.innerText(), /^whsec_/, 'the secret, shown once');
  await page.getByText('Bookkeeping').waitFor();
  t.notMatch(await page.locator('li').filter({ hasText: 'Bookkeeping' }).innerText(), /customer\.erased/, 'the events chosen');
  t.ok(await fits(page), 'nothing wider than the screen');
  t.same(await axeViolations(page), [], 'no axe violation with an endpoint and its secret');
  await page.getByRole('button', { name: 'I have copied it' }).click();

  const booked = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: inDays(4), time: '09:00' }) });
  t.equal(booked.statusCode, 201, booked.body);
  await app.webhooks.sendDue();
  t.equal(received, 1, 'delivered');

  await page.getByRole('button', { name: 'Deliveries' }).click();
  const row = page.locator('tbody tr').first();
  await row.waitFor();
  t.match(await row.innerText(), /booking\.created[\s\S]*Delivered, 1 attempt[\s\S]*204/);
  const resent = page.waitForResponse((res) => res.url().endsWith('/resend'));
  await row.getByRole('button', { name: /^Resend/ }).click();
  t.equal((await resent).status(), 200, 'resent');
  t.ok(await fits(page), 'nothing wider than the screen with the deliveries');
  t.same(await axeViolations(page), [], 'no axe violation with the deliveries');

  await page.getByRole('button', { name: 'Turn off' }).click();
  await page.getByText(/^Off: Turned off by the owner/).waitFor();
  t.same(problems.consoleErrors, []);
  t.same(problems.cspViolations, []);
  await page.context().close();
});
