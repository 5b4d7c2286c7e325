/** The dashboard's E-mails view in Chromium: a failed e-mail shows with its error, previews in a sandboxed frame, and Resend delivers it. */
import t from 'tap';
import { baseUrl, buildTestApp } from '../helper.ts';
import { axeViolations, launchBrowser, openPage, openView, signIn } from '../support/browser.ts';
import { book, mailEnv } from '../support/mail.ts';
import { testNow } from '../support/payloads.ts';
import { startSmtp, until } from '../support/smtp.ts';

t.test('the E-mails view shows a failed e-mail and resends it', async (t) => {
  const browser = await launchBrowser(t);
  const smtp = await startSmtp(t);
  smtp.refuse = 'Mailbox unavailable';
  const started = performance.now();
  const app = await buildTestApp(t, {
    listen: true,
    env: mailEnv(smtp, { MAIL_MAX_ATTEMPTS: '1', LOG_LEVEL: 'silent' }),
    now: () => new Date(testNow.getTime() + performance.now() - started),
  });
  const sent = await app.inject({ method: 'POST', url: '/v1/contact-us-form', payload: { name: 'Gina Hall', email: 'gina@example.com', phone: '021 123 4567', message: 'Do you clean boats?' } });
  t.equal(sent.statusCode, 201);
  const status = async () => (await app.db.selectFrom('outbox_emails').select('status').executeTakeFirstOrThrow()).status;
  await until(async () => (await status()) === 'failed', 'the e-mail to fail');

  const { page, problems } = await openPage(browser, 1280);
  await signIn(page, baseUrl(app));
  await openView(page, 'E-mails');
  const item = page.locator('.email').filter({ hasText: 'Contact form: message from Gina Hall' });
  await item.waitFor();
  t.match(await item.innerText(), /Contact message \(staff\)[\s\S]*1 attempt[\s\S]*failed[\s\S]*Mailbox unavailable/i);
  t.same(await axeViolations(page), [], 'no axe violation on the E-mails view');

  await item.getByRole('button', { name: /^Preview/ }).click();
  const frame = item.locator('iframe.email-frame');
  await frame.waitFor();
  t.equal(await frame.getAttribute('sandbox'), '', 'the preview runs nothing');
  await page.frameLocator('iframe.email-frame').getByText('Do you clean boats?').waitFor();
  t.pass('the HTML part shows in the preview');
  t.match(await item.locator('.email-headers').innerText(), /Reply-To\s+Gina Hall <gina@example.com>/);

  smtp.refuse = undefined;
  await item.getByRole('button', { name: /^Resend/ }).click();
  await page.getByText('is queued to be sent again').waitFor();
  await until(() => smtp.received.length === 1, 'the resent e-mail to arrive');
  await until(async () => (await status()) === 'sent', 'the e-mail to be marked sent');
  await page.getByRole('button', { name: 'Refresh' }).click();
  await item.locator('.email-badge', { hasText: 'sent' }).waitFor();
  t.equal(await item.getByRole('button', { name: /^Resend/ }).count(), 0, 'no Resend for a sent e-mail');
  t.equal(smtp.received.length, 1, 'delivered once');

  const booking = (await book(app, { name: 'Mere Ngata', email: 'mere@example.co.nz' })) as { reference: string };
  await until(() => smtp.received.length === 3, 'the confirmation and the staff notification');
  await openView(page, 'Bookings');
  await page.getByRole('button', { name: /View Details.*Mere Ngata/ }).click();
  const modal = page.getByRole('dialog', { name: 'Booking Details' });
  await modal.locator('.booking-emails li').nth(2).waitFor();
  const listed = await modal.locator('.booking-emails').innerText();
  t.match(listed, `Booking received: ${booking.reference}`, "the booking's e-mails are listed in its details");
  t.match(listed, /New booking/);
  t.match(listed, /Reminder/);

  t.same(problems.cspViolations, []);
  t.same(problems.consoleErrors, []);
});
