/**
 * Issue 43 in Chromium, at 390 and 1280 px: when no start of the chosen date fits the job, step 2
 * says so and offers "Tell me if a time opens up" for the morning, the afternoon or any time; it
 * takes the step's fields but the time, then step 3 joins the waitlist (POST /v1/waitlist) instead
 * of booking, and its message replaces the form. Going back to choose a time leaves the waitlist;
 * a second entry for the date gets the 409's message. Without JavaScript the same as plain form
 * posts, through the same service: the offer, a missing e-mail refused with everything kept, the
 * entry stored and its message shown; the same form posted twice stores one entry.
 *
 * One van (BOOKING_SLOT_CAPACITY=1), each test's date closed before 10:00 and from 14:00, and a
 * Deluxe Clean (3½ hours) booked at 10:00: no start is left there for another (as in
 * test/waitlist-43.test.ts). Screenshots go to /tmp/waitlist-wizard-*.png.
 */
import t from 'tap';
import type { Page } from 'playwright-core';
import { HtmlValidate } from 'html-validate';
import { shortDate } from '../../client/lib/availability-api.ts';
import { MESSAGES } from '../../src/domain/messages.ts';
import { PART_LABELS, WAITLIST_MESSAGES, WAITLIST_WIZARD_MESSAGES, type WaitlistPart } from '../../src/domain/waitlist.ts';
import { baseUrl, buildTestApp, login } from '../helper.ts';
import { axeViolations, launchBrowser, openPage, waitForHydration } from '../support/browser.ts';
import { nextWeekday, originalClientPayload } from '../support/payloads.ts';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:80' };
const validator = new HtmlValidate({ extends: ['html-validate:standard'] });

t.test('the waitlist in the wizard', async (t) => {
  const app = await buildTestApp(t, { listen: true, env: { BOOKING_SLOT_CAPACITY: '1' } });
  const browser = await launchBrowser(t);
  const staff = await login(app);
  const url = (path: string) => `${baseUrl(app)}${path}`;

  /** A date on which the Deluxe Clean fits nowhere: the van closed before 10:00 and from 14:00, and booked at 10:00. */
  async function fullDate(date: string) {
    for (const [from, to] of [['07:00', '10:00'], ['14:00', '24:00']] as const) {
      const res = await app.inject({ method: 'POST', url: '/v1/closures', headers: { cookie: staff }, payload: { date, from, to, kind: 'onsite', reason: 'Van elsewhere' } });
      t.equal(res.statusCode, 201, res.body);
    }
    const booked = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date, time: '10:00', email: `holder-${date}@example.co.nz` }) });
    t.equal(booked.statusCode, 201, booked.body);
    return date;
  }
  const entriesOf = (email: string) => app.db.selectFrom('waitlist_entries').select(['date', 'part', 'status', 'email', 'request']).where('email', '=', email).execute();

  /** Step 2 of the wizard for a Deluxe Clean, medium car, on site at 1060. */
  async function stepTwo(page: Page) {
    await page.getByRole('radio', { name: /Medium Car/ }).check();
    await page.getByRole('button', { name: 'Continue to Booking' }).click();
    await page.getByText('Step 2 of 3').waitFor();
    await page.getByRole('textbox', { name: 'Postcode' }).fill('1060');
  }
  const fillAddress = async (page: Page) => {
    await page.getByLabel('House/Unit Number').fill('7');
    await page.getByLabel('Street Address').fill('Ellerslie-Panmure Highway');
    await page.getByLabel('Suburb').fill('Mount Wellington');
    await page.getByLabel('City').fill('Auckland');
    await page.locator('select[name="region"]').selectOption('Auckland');
  };
  const fillDetails = async (page: Page, email: string, phone: string) => {
    await page.getByLabel('Full Name').fill('Aroha Waititi');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
    await page.getByLabel('Phone Number').fill(phone);
  };
  const offer = (page: Page) => page.getByRole('button', { name: WAITLIST_WIZARD_MESSAGES.offerButton });
  const partRadio = (page: Page, part: WaitlistPart) => page.getByRole('radio', { name: PART_LABELS[part] });

  for (const width of [390, 1280]) {
    t.test(`with JavaScript at ${width}px: the offer on a full date, on to step 3, joined`, async (t) => {
      const date = await fullDate(nextWeekday(width === 390 ? 2 : 3, 4));
      const part: WaitlistPart = width === 390 ? 'morning' : 'afternoon';
      const email = `waiter-${width}@example.co.nz`;
      const shot = (name: string) => page.screenshot({ path: `/tmp/waitlist-wizard-${name}-${width}.png`, fullPage: true });
      const { page, problems } = await openPage(browser, width);
      await page.goto(url('/booking?package=deluxe-clean'));
      await waitForHydration(page);
      await stepTwo(page);
      await page.getByText(/^We come to /).waitFor();
      await page.locator('input[name="date"]').fill(date);

      await offer(page).waitFor();
      const status = page.getByRole('status').filter({ hasText: 'No times left' });
      t.equal(await status.innerText(), `No times left on ${shortDate(date)} for this service. Please choose another date.`, 'said once, in the offer');
      t.ok(await partRadio(page, 'any').isChecked(), 'any time until a part is chosen');
      t.ok(await page.getByRole('group', { name: WAITLIST_WIZARD_MESSAGES.offerLegend(shortDate(date)) }).isVisible(), 'the parts are a group with its legend');
      await page.getByRole('list', { name: /dates with times/ }).waitFor();
      t.same(await axeViolations(page), [], 'no axe violation with the offer');
      t.equal(await page.evaluate(() => document.documentElement.scrollWidth), width, 'nothing wider than the window');
      await shot('offer');

      // The step's rules but the time: the address is still asked.
      await partRadio(page, part).check();
      await offer(page).click();
      await page.locator('#booking-houseNumber-error').waitFor();
      t.ok(await page.getByText('Step 2 of 3').isVisible(), 'refused without an address');
      t.equal(await page.locator('#booking-time-error').count(), 0, 'and no word about a time');
      t.ok(await page.locator('#booking-houseNumber').evaluate((el) => el === document.activeElement), 'the first message has the focus');
      await fillAddress(page);
      await offer(page).click();
      await page.getByText('Step 3 of 3').waitFor();
      const joining = page.getByText(WAITLIST_WIZARD_MESSAGES.joining(shortDate(date), part));
      t.ok(await joining.isVisible(), 'step 3 says the waitlist is being joined, for which part of the day');
      const join = page.getByRole('button', { name: WAITLIST_WIZARD_MESSAGES.joinButton });
      t.ok(await join.isVisible());
      t.equal(await page.getByRole('button', { name: 'Complete Booking' }).count(), 0, 'nothing is booked from here');

      if (width === 1280) {
        // Back to choose a time on another date: the booking again, not the waitlist.
        await page.getByRole('button', { name: 'Previous Step' }).click();
        await page.getByText('Step 2 of 3').waitFor();
        await offer(page).waitFor();
        t.ok(await partRadio(page, part).isChecked(), 'the part chosen is kept');
        await page.getByRole('list', { name: /dates with times/ }).getByRole('button').first().click();
        await offer(page).waitFor({ state: 'detached' });
        await page.waitForFunction(() => [...document.querySelectorAll<HTMLOptionElement>('select[name="time"] option')].some((o) => o.value && !o.disabled));
        const free = await page.locator('select[name="time"] option:not([value=""]):not([disabled])').first().getAttribute('value');
        await page.locator('select[name="time"]').selectOption(free!);
        await page.getByRole('button', { name: 'Continue to Your Details' }).click();
        await page.getByText('Step 3 of 3').waitFor();
        t.ok(await page.getByRole('button', { name: 'Complete Booking' }).isVisible(), 'a time chosen: step 3 books');
        t.equal(await joining.count(), 0);
        await page.getByRole('button', { name: 'Previous Step' }).click();
        await page.locator('input[name="date"]').fill(date);
        await partRadio(page, part).check();
        await offer(page).click();
        await page.getByText('Step 3 of 3').waitFor();
        await join.waitFor();
      }

      await fillDetails(page, email, width === 390 ? '021 555 3901' : '021 555 3902');
      t.same(await axeViolations(page), [], 'no axe violation on step 3 for the waitlist');
      await shot('details');
      const answered = page.waitForResponse((response) => response.url().endsWith('/v1/waitlist'));
      await join.click();
      t.equal((await answered).status(), 201);
      const heading = page.getByRole('heading', { name: WAITLIST_WIZARD_MESSAGES.joinedHeading });
      await heading.waitFor();
      t.equal(await page.getByRole('status').filter({ hasText: 'waitlist' }).innerText(), WAITLIST_MESSAGES.joined(date, part), "the answer's message");
      t.ok(await heading.evaluate((el) => el === document.activeElement), 'the focus goes to it');
      t.equal(await page.locator('form.wizard').count(), 0, 'the form is gone');
      t.match(await entriesOf(email), [{ date, part, status: 'waiting', email, request: { service: 'Deluxe Clean', postalCode: '1060', name: 'Aroha Waititi' } }]);
      t.notOk((await entriesOf(email))[0]!.request.time, 'no time stored');
      t.same(await axeViolations(page), [], 'no axe violation once joined');
      await shot('joined');
      t.same(problems, { consoleErrors: [], failedRequests: [], cspViolations: [] });

      if (width === 390) {
        // The same address again for the same date: the 409's message, on the step it belongs to.
        const again = await openPage(browser, width);
        await again.page.goto(url('/booking?package=deluxe-clean'));
        await waitForHydration(again.page);
        await stepTwo(again.page);
        await again.page.getByText(/^We come to /).waitFor();
        await again.page.locator('input[name="date"]').fill(date);
        await fillAddress(again.page);
        await offer(again.page).click();
        await fillDetails(again.page, email, '021 555 3901');
        const refused = again.page.waitForResponse((response) => response.url().endsWith('/v1/waitlist'));
        await again.page.getByRole('button', { name: WAITLIST_WIZARD_MESSAGES.joinButton }).click();
        t.equal((await refused).status(), 409);
        const alert = again.page.locator('.wizard .notice-error');
        await alert.waitFor();
        t.equal(await alert.innerText(), WAITLIST_MESSAGES.alreadyWaiting, 'said above the form');
        t.ok(await again.page.getByText('Step 2 of 3').isVisible(), 'back on the step of the date');
        t.equal(await again.page.locator('#booking-date-error').innerText(), WAITLIST_MESSAGES.alreadyWaiting, 'and beside the date');
        t.same(await axeViolations(again.page), [], 'no axe violation with the 409');
        t.equal((await entriesOf(email)).length, 1, 'still one entry');
        await again.page.context().close();
      }
      await page.context().close();
    });
  }

  t.test('without JavaScript: the offer, an e-mail refused, joined, with plain posts', async (t) => {
    const date = await fullDate(nextWeekday(4, 4));
    const email = 'plain-waiter@example.co.nz';
    const { page, problems } = await openPage(browser, 390, { javaScript: false });
    await page.goto(url('/booking?package=deluxe-clean'));
    await stepTwo(page);
    await page.locator('input[name="date"]').fill(date);
    await page.locator('select[name="time"]').selectOption('10:00');
    await fillAddress(page);
    // Continue: the server answers with the date's times, and the offer.
    await page.getByRole('textbox', { name: 'Postcode' }).press('Enter');
    await offer(page).waitFor();
    t.match(await page.locator('#booking-time-error').innerText(), /fully booked/, 'the time chosen is full');
    t.ok(await page.getByRole('status').filter({ hasText: `No times left on ${shortDate(date)}` }).isVisible());
    await page.screenshot({ path: '/tmp/waitlist-wizard-nojs-offer.png', fullPage: true });
    await page.getByLabel('Street Address').press('Enter');
    await offer(page).waitFor();
    t.ok(await page.getByText('Step 2 of 3').isVisible(), 'Enter in a field continues (refused again): it does not join');

    await partRadio(page, 'afternoon').check();
    await offer(page).click();
    await page.getByText('Step 3 of 3').waitFor();
    t.ok(await page.getByText(WAITLIST_WIZARD_MESSAGES.joining(shortDate(date), 'afternoon')).isVisible());
    await page.getByLabel('Full Name').fill('Plain Waiter');
    await page.getByLabel('Phone Number').fill('021 555 3903');
    // An address the browser's own check lets through (a missing one it would stop): the server's rules refuse it.
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('plain-waiter@example');
    await page.getByRole('button', { name: WAITLIST_WIZARD_MESSAGES.joinButton }).click();
    t.equal(await page.locator('#booking-email-error').innerText(), MESSAGES.emailInvalid);
    t.equal(await page.getByLabel('Full Name').inputValue(), 'Plain Waiter', 'what was typed is kept');
    t.ok(await page.getByRole('button', { name: WAITLIST_WIZARD_MESSAGES.joinButton }).isVisible(), 'still joining the waitlist');
    t.equal(await page.locator('input[type="hidden"][name="part"]').inputValue(), 'afternoon', 'for the afternoon');
    t.same(await entriesOf(email), [], 'nothing stored');

    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
    await page.getByRole('button', { name: WAITLIST_WIZARD_MESSAGES.joinButton }).click();
    await page.getByRole('heading', { name: WAITLIST_WIZARD_MESSAGES.joinedHeading }).waitFor();
    t.ok(await page.getByText(WAITLIST_MESSAGES.joined(date, 'afternoon')).isVisible(), 'the message');
    t.match(await entriesOf(email), [{ date, part: 'afternoon', status: 'waiting', request: { name: 'Plain Waiter', phone: '021 555 3903' } }]);
    await page.screenshot({ path: '/tmp/waitlist-wizard-nojs-joined.png', fullPage: true });
    t.same(problems.cspViolations, []);
    await page.context().close();
  });

  t.test('the form posts: valid markup, a date with a free time refused, the same form twice stores one entry', async (t) => {
    const date = await fullDate(nextWeekday(5, 4));
    const email = 'posted-twice@example.co.nz';
    const { time: _time, email: _email, name: _name, phone: _phone, notes: _notes, saveAddress: _save, ...job } = originalClientPayload({ date });
    const fields: Record<string, string> = { ...job, step: '2', part: 'morning' };
    const post = (body: Record<string, string>) => app.inject({ method: 'POST', url: '/booking', payload: form(body), headers: FORM_HEADERS });
    const valid = async (html: string, name: string) => {
      const report = await validator.validateString(html);
      t.same(report.results.flatMap((r) => r.messages).map((m) => `${m.ruleId} ${m.selector}: ${m.message}`), [], `${name}: html-validate:standard`);
    };

    const offered = await post({ ...fields, time: '10:00', action: 'next' });
    t.equal(offered.statusCode, 400);
    t.ok(offered.body.includes(WAITLIST_WIZARD_MESSAGES.offerButton), 'the full date offers the waitlist');
    t.ok(/<input[^>]*id="waitlist-part-morning"[^>]*checked/.test(offered.body), 'with the part chosen');
    await valid(offered.body, 'step 2 with the offer');

    const other = nextWeekday(5, 12);
    const free = await post({ ...fields, date: other, action: 'waitlist' });
    t.equal(free.statusCode, 400, 'a date with a free time is not for the waitlist');
    t.ok(free.body.includes(WAITLIST_WIZARD_MESSAGES.timeFree), 'said beside the time');

    const details = await post({ ...fields, action: 'waitlist' });
    t.equal(details.statusCode, 200, details.body.slice(0, 200));
    await valid(details.body, 'step 3 joining the waitlist');
    const submission = /name="submission" value="([^"]+)"/.exec(details.body)![1]!;
    const final = { ...fields, step: '3', action: 'next', submission, name: 'Twice Posted', email, phone: '021 555 3904', notes: '' };
    // No e-mail: step 3 again with its message, still joining, with what was sent.
    const missing = await post({ ...final, email: '' });
    t.equal(missing.statusCode, 400);
    t.ok(missing.body.includes(MESSAGES.emailRequired), 'the message');
    t.ok(missing.body.includes(WAITLIST_WIZARD_MESSAGES.joinButton), 'still joining the waitlist');
    t.ok(/<input[^>]*name="name" value="Twice Posted"/.test(missing.body), 'the values kept');
    t.ok(missing.body.includes('<input type="hidden" name="part" value="morning"/>'), 'for the morning');
    t.ok(missing.body.includes(`name="submission" value="${submission}"`), 'with the same token');
    await valid(missing.body, 'step 3 joining the waitlist, with a message');
    const first = await post(final);
    const second = await post(final);
    t.equal(first.statusCode, 200);
    t.equal(second.statusCode, 200, 'the same form again: the same answer');
    const message = WAITLIST_MESSAGES.joined(date, 'morning');
    t.ok(first.body.includes(message), 'the message');
    t.ok(second.body.includes(message));
    await valid(first.body, 'the waitlist joined');
    t.match(await entriesOf(email), [{ date, part: 'morning' }]);
    t.equal((await entriesOf(email)).length, 1, 'one entry');
  });
});
