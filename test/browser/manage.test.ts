/** Issue 11 in Chromium: a customer moves and then cancels their booking on its manage page, with JavaScript and without, and axe finds nothing on any step. */
import t from 'tap';
import { format, parseISO } from 'date-fns';
import { baseUrl, buildTestApp } from '../helper.ts';
import { axeViolations, launchBrowser, openPage, waitForHydration, signIn } from '../support/browser.ts';
import { inDays, originalClientPayload } from '../support/payloads.ts';
import { manageLinkFor } from '../../src/db/manage-link.repository.ts';
import { MANAGE_MESSAGES } from '../../src/domain/manage-rules.ts';

t.test('the manage page in Chromium', async (t) => {
  const app = await buildTestApp(t, { listen: true, env: { BOOKING_SLOT_CAPACITY: '1' } });
  const browser = await launchBrowser(t);
  const row = (id: string) => app.db.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  for (const javaScript of [true, false]) {
    t.test(`move, then cancel, ${javaScript ? 'with' : 'without'} JavaScript`, async (t) => {
      const day = javaScript ? 8 : 9;
      const created = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: inDays(day), time: '09:00' }) });
      const { id } = created.json();
      // Another customer's Deluxe Clean holds the one van from 10:00 to 14:00 (13:30 and travel) on the day the booking moves to.
      await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: inDays(day + 2), time: '10:00', email: 'other@example.com' }) });
      const link = (await manageLinkFor(app.db, id, baseUrl(app)))!;

      const { page, problems } = await openPage(browser, javaScript ? 390 : 1280, { javaScript });
      const ready = async () => {
        if (javaScript) await waitForHydration(page);
      };
      // axe runs in the page, so only where scripts may run; the markup is the server's either way.
      const noAxeViolations = async (where: string) => {
        if (javaScript) t.same(await axeViolations(page), [], `no axe violation on ${where}`);
      };
      await page.goto(link);
      await ready();
      t.equal(await page.title(), 'Manage Your Booking | Auckland Valet Co.');
      t.ok(await page.getByText(created.json().reference).first().isVisible(), 'the reference is shown');
      await noAxeViolations('the booking');

      await page.getByRole('link', { name: 'Move booking' }).click();
      await ready();
      await page.getByLabel('New date').fill(inDays(day + 2));
      await page.getByRole('button', { name: 'Show times' }).click();
      await page.getByRole('group', { name: `Times on ${format(parseISO(inDays(day + 2)), 'EEEE d MMMM yyyy')}` }).waitFor();
      await ready();
      t.ok(await page.getByLabel('10:00 – 13:30 — Full').isDisabled(), 'a full time cannot be chosen, and says when the job would end');
      t.ok(await page.getByLabel('13:00 – 16:30 — Full').isDisabled(), 'nor one whose job would run into the other');
      t.ok(await page.getByLabel('18:00 – 21:30 — Ends after closing').isDisabled(), 'nor one ending after closing');
      t.ok(await page.getByText('Your booking takes about 3½ hours: each time shows when it would end.').isVisible());
      await noAxeViolations('the times');
      await page.getByLabel('14:00 – 17:30', { exact: true }).check();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('button', { name: 'Yes, move my booking' }).waitFor();
      await ready();
      await noAxeViolations('the confirmation');
      t.match(await row(id), { date: inDays(day), time: '09:00' }, 'nothing changes before the confirmation');
      await page.getByRole('button', { name: 'Yes, move my booking' }).click();
      await page.getByText(MANAGE_MESSAGES.moved).waitFor();
      await ready();
      t.match(await row(id), { date: inDays(day + 2), time: '14:00', version: 2 });
      t.match(await page.locator('.manage-facts').innerText(), /2:00 pm/);

      await page.getByRole('link', { name: 'Cancel booking' }).click();
      await page.getByRole('button', { name: 'Yes, cancel my booking' }).waitFor();
      await ready();
      await noAxeViolations('the cancel confirmation');
      t.equal((await row(id)).status, 'pending');
      await page.getByRole('button', { name: 'Yes, cancel my booking' }).click();
      await page.getByText(MANAGE_MESSAGES.cancelled).waitFor();
      await ready();
      t.match(await row(id), { status: 'cancelled', version: 3 });
      t.equal(await page.getByRole('link', { name: 'Cancel booking' }).count(), 0, 'a cancelled booking has no actions');
      await noAxeViolations('the cancelled booking');
      if (process.env.SCREENSHOTS) await page.screenshot({ path: `${process.env.SCREENSHOTS}/manage-${javaScript ? 'js' : 'nojs'}.png`, fullPage: true });
      // Without JavaScript Chromium reports each module script it does not run as blocked ('csp').
      const failed = javaScript ? problems.failedRequests : problems.failedRequests.filter((request) => !/\.js csp$/.test(request));
      t.same({ ...problems, failedRequests: failed }, { consoleErrors: [], failedRequests: [], cspViolations: [] });
      await page.context().close();
    });
  }

  t.test('past MANAGE_MAX_CHANGES moves the page gives the phone number instead of Move, and axe finds nothing', async (t) => {
    const created = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: inDays(20), time: '08:00', email: 'mover@example.com' }) });
    const { id } = created.json();
    const link = (await manageLinkFor(app.db, id, baseUrl(app)))!;
    const path = new URL(link).pathname;
    for (let move = 1; move <= 3; move++) {
      const res = await app.inject({
        method: 'POST',
        url: `${path}/move`,
        payload: new URLSearchParams({ version: String(move), date: inDays(20 + move), time: '08:00', confirm: 'yes' }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:80' },
      });
      t.equal(res.statusCode, 303, `move ${move}`);
    }
    const { page, problems } = await openPage(browser, 390);
    await page.goto(link);
    await waitForHydration(page);
    t.equal(await page.getByRole('link', { name: 'Move booking' }).count(), 0, 'no Move');
    t.ok(await page.getByRole('link', { name: 'Cancel booking' }).isVisible(), 'cancelling stays open');
    const phone = app.config.business.phone;
    t.ok(await page.locator('.manage-move-limit').getByRole('link', { name: `Call ${phone}` }).isVisible(), 'the phone number to call');
    t.same(await axeViolations(page), [], 'no axe violation on the limit state');
    t.same(problems, { consoleErrors: [], failedRequests: [], cspViolations: [] });
    await page.context().close();
  });

  t.test('staff see the customer’s changes in the booking modal', async (t) => {
    const { page, problems } = await openPage(browser, 1280);
    await signIn(page, baseUrl(app));
    await page.locator('.booking-card').first().waitFor();
    const moved = await app.db.selectFrom('bookings').select('id').where('date', '=', inDays(10)).where('time', '=', '14:00').executeTakeFirstOrThrow();
    const card = page.locator('.booking-card').filter({ hasText: (await row(moved.id)).reference });
    await card.getByRole('button', { name: /View Details/ }).click();
    const modal = page.getByRole('dialog', { name: 'Booking Details' });
    await modal.locator('.history li').nth(1).waitFor();
    const lines = await modal.locator('.history li').allInnerTexts();
    t.match(lines[0], new RegExp(`Moved by Customer from [A-Z][a-z]+ \\d{2}, \\d{4} 09:00 to [A-Z][a-z]+ \\d{2}, \\d{4} 14:00$`));
    t.match(lines[1], /Customer changed pending → cancelled$/);
    t.same(await axeViolations(page), [], 'no axe violation with the customer’s changes listed');
    t.same(problems, { consoleErrors: [], failedRequests: [], cspViolations: [] });
    await page.context().close();
  });
});
