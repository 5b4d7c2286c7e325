/**
 * Issue 22 in Chromium: the owner's Staff view (invite, the list, disable and enable) at 390 and
 * 1280 px, and an invited member's first sign-in on a phone (390 px): the invitation page (its
 * form without JavaScript, a refused password, the confirmation), the sign-in with e-mail and
 * password, a dashboard without the Staff view, and the page a used link gets. Nothing wider
 * than the screen, and axe finds no violation in any of these states.
 */
import t from 'tap';
import type { Page } from 'playwright-core';
import { baseUrl, buildTestApp, login } from '../helper.ts';
import { axeViolations, launchBrowser, openPage, openView, signIn, waitForHydration } from '../support/browser.ts';

const PASSWORD = 'silver fern lagoon 2026';

const fits = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

async function shoot(page: Page, name: string): Promise<void> {
  if (process.env.SCREENSHOTS) await page.screenshot({ path: `${process.env.SCREENSHOTS}/${name}.png`, fullPage: true });
}

t.test('staff accounts in Chromium', async (t) => {
  const browser = await launchBrowser(t);
  const app = await buildTestApp(t, { listen: true });
  const base = baseUrl(app);

  async function tokenFor(email: string): Promise<string> {
    const row = await app.db.selectFrom('outbox_emails').select('text_body').where('kind', '=', 'staff-invitation').where('to_address', '=', email).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    return /\/dashboard\/invitation\/([A-Za-z0-9_-]{43})/.exec(row.text_body ?? '')![1]!;
  }

  for (const width of [1280, 390]) {
    t.test(`the owner invites, disables and enables at ${width} px`, async (t) => {
      const email = `hemi${width}@valet.test`;
      const { page, problems } = await openPage(browser, width);
      await signIn(page, base);
      await openView(page, 'Staff');
      await page.getByRole('heading', { name: 'Staff', level: 2 }).waitFor();
      await page.getByLabel('Name').fill(`Hemi Walker ${width}`);
      await page.getByLabel('E-mail').fill(email);
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await page.getByText(`An invitation is on its way to ${email}.`).waitFor();
      const card = page.locator('.staff-member').filter({ hasText: `Hemi Walker ${width}` });
      t.match(await card.innerText(), /Invited[\s\S]*Invitation open until/);
      t.ok(await fits(page), 'nothing wider than the screen');
      t.same(await axeViolations(page), [], 'no axe violation on the Staff view');
      await shoot(page, `staff-view-${width}`);

      await page.getByLabel('E-mail').fill(email.toUpperCase());
      await page.getByLabel('Name').fill('Copy');
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await page.getByText('A member of staff already has this e-mail address').waitFor();
      t.same(await axeViolations(page), [], 'no axe violation with the error');

      await card.getByRole('button', { name: /^Disable/ }).click();
      await card.getByText('Disabled', { exact: true }).waitFor();
      await card.getByRole('button', { name: /^Enable/ }).click();
      await card.getByText('Invited', { exact: true }).waitFor();
      t.same(problems.consoleErrors.filter((e) => !/status of 409/.test(e)), [], 'no console error but the refused duplicate (409)');
      t.same(problems.cspViolations, []);
      await page.context().close();
    });
  }

  t.test("an invited member's first sign-in at 390 px", async (t) => {
    const invited = await app.inject({
      method: 'POST',
      url: '/v1/staff-members',
      headers: { cookie: await login(app) },
      payload: { name: 'Ana Lealaiauloto', email: 'ana@valet.test', role: 'staff' },
    });
    t.equal(invited.statusCode, 201);
    const token = await tokenFor('ana@valet.test');

    // The invitation form without JavaScript: a refused password comes back with its message.
    const plain = await openPage(browser, 390, { javaScript: false });
    await plain.page.goto(`${base}/dashboard/invitation/${token}`);
    t.ok(await plain.page.getByRole('heading', { name: 'Set your password' }).isVisible());
    t.match(await plain.page.locator('form').innerText(), /ana@valet\.test/);
    await plain.page.getByLabel('New password', { exact: true }).fill(PASSWORD);
    await plain.page.getByLabel('New password again').fill(`${PASSWORD}x`);
    await plain.page.getByRole('button', { name: 'Set password' }).click();
    await plain.page.getByText('The two passwords are not the same').waitFor();
    t.ok(await fits(plain.page));
    await plain.page.context().close();

    // The same page with JavaScript (axe needs it): the form, a refused password, the confirmation.
    const form = await openPage(browser, 390);
    await form.page.goto(`${base}/dashboard/invitation/${token}`);
    await waitForHydration(form.page);
    t.same(await axeViolations(form.page), [], 'no axe violation on the invitation form');
    await shoot(form.page, 'invitation-form-390');
    await form.page.getByLabel('New password', { exact: true }).fill('short');
    await form.page.getByLabel('New password again').fill('short');
    // The browser's own check (minlength) would stop the post: let the server's answer show.
    await form.page.locator('form').evaluate((element) => element.setAttribute('novalidate', ''));
    await form.page.getByRole('button', { name: 'Set password' }).click();
    await form.page.getByText('The password must be at least 12 characters').waitFor();
    t.same(await axeViolations(form.page), [], 'no axe violation with a refused password');
    await shoot(form.page, 'invitation-error-390');
    await form.page.getByLabel('New password', { exact: true }).fill(PASSWORD);
    await form.page.getByLabel('New password again').fill(PASSWORD);
    await form.page.getByRole('button', { name: 'Set password' }).click();
    await form.page.getByRole('heading', { name: 'Your password is set' }).waitFor();
    t.ok(await fits(form.page));
    t.same(await axeViolations(form.page), [], 'no axe violation on the confirmation');
    await shoot(form.page, 'invitation-done-390');
    await form.page.getByRole('link', { name: 'Sign in' }).click();
    await form.page.getByRole('heading', { name: 'Staff sign-in' }).waitFor();
    t.equal(await form.page.getByLabel('E-mail').inputValue(), 'ana@valet.test', 'the address is filled in');
    t.same(form.problems.consoleErrors.filter((e) => !/status of 400/.test(e)), []);
    await form.page.context().close();

    // With JavaScript: the link again is refused clearly; the sign-in takes the e-mail and password.
    const { page, problems } = await openPage(browser, 390);
    await page.goto(`${base}/dashboard/invitation/${token}`);
    await page.getByRole('heading', { name: 'This link no longer works' }).waitFor();
    t.match(await page.getByRole('alert').innerText(), /expired or has already been used/);
    t.same(await axeViolations(page), [], 'no axe violation on the used link');
    await shoot(page, 'invitation-gone-390');

    await page.goto(`${base}/dashboard?email=ana%40valet.test`);
    await waitForHydration(page);
    t.equal(await page.getByLabel('E-mail').inputValue(), 'ana@valet.test', 'the address is filled in');
    t.same(await axeViolations(page), [], 'no axe violation on the sign-in form');
    await shoot(page, 'staff-sign-in-390');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Booking Dashboard' }).waitFor();
    await waitForHydration(page);
    t.equal(await page.getByRole('button', { name: 'Staff', exact: true }).count(), 0, 'a member of staff has no Staff view');
    t.ok(await page.getByRole('button', { name: 'Bookings', exact: true }).isVisible());
    t.ok(await fits(page));
    t.same(await axeViolations(page), [], 'no axe violation on the member’s dashboard');
    await shoot(page, 'staff-member-dashboard-390');
    const session = await app.db.selectFrom('staff_sessions').select('member_id').where('member_id', 'is not', null).execute();
    t.equal(session.length, 1, 'the session is the member’s');
    t.same(problems.consoleErrors.filter((e) => !/status of 410/.test(e)), []);
    t.same(problems.cspViolations, []);
    t.same(
      problems.failedRequests.filter((r) => !r.includes('/dashboard/invitation/')),
      [],
      'nothing failed but the used link (410)',
    );
    await page.context().close();
  });
});
