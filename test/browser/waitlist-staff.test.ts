/**
 * Issue 43, the waitlist in the staff day view, in Chromium on a phone (390 px, as in a van): a
 * full date with two customers waiting says so in its heading and lists them in its Waitlist
 * section (the part of the day, the job, the phone and e-mail as links); staff offer one a start
 * by hand and see it offered, held until the hour its hold ends, and the count go down. Nothing is
 * wider than the screen, and axe finds no violation before or after.
 *
 * One van (BOOKING_SLOT_CAPACITY=1) and a date whose edges are closed, so that one job at 10:00
 * fills it (as in test/waitlist-43.test.ts); staff then reopen the afternoon. The customers wait
 * for the morning, which stays full, so the engine's own pass never offers them the afternoon:
 * the offer on screen is the one made by hand.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import type { Page } from 'playwright-core';
import { addDaysToDay, aucklandTime } from '../../src/domain/booking-dates.ts';
import { longDate } from '../../client/staff/components/format.ts';
import { baseUrl, buildTestApp, login } from '../helper.ts';
import { axeViolations, launchBrowser, openPage, openView, signIn } from '../support/browser.ts';
import { nextWeekday, originalClientPayload, testNow } from '../support/payloads.ts';

/** SCREENSHOT_DIR: where to leave pictures of each state, for a person to look at. */
const screenshots = process.env.SCREENSHOT_DIR;
if (screenshots) mkdirSync(screenshots, { recursive: true });
const picture = async (page: Page, name: string) => {
  if (screenshots) await page.screenshot({ path: path.join(screenshots, `${name}.png`), fullPage: true });
};
const fits = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

const HOLD_MINUTES = 60;

t.test('the waitlist in the day view, 390 px', async (t) => {
  const browser = await launchBrowser(t);
  const app = await buildTestApp(t, { listen: true, env: { BOOKING_SLOT_CAPACITY: '1', WAITLIST_HOLD_MINUTES: String(HOLD_MINUTES) } });
  const cookie = await login(app);
  const date = nextWeekday(3, 12);
  let afternoon = '';
  for (const [from, to] of [['07:00', '10:00'], ['14:00', '24:00']] as const) {
    const res = await app.inject({ method: 'POST', url: '/v1/closures', headers: { cookie }, payload: { date, from, to, kind: 'onsite', reason: 'Van elsewhere' } });
    t.equal(res.statusCode, 201, 'closed');
    afternoon = res.json().id;
  }
  const holder = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date, time: '10:00', name: 'Hemi Walker', email: 'hemi@example.com' }) });
  t.equal(holder.statusCode, 201, 'the date is full');
  for (const [name, email] of [
    ['Aroha Smith', 'aroha@example.com'],
    ['Ben Jones', 'ben@example.com'],
  ]) {
    const { time: _time, ...body } = originalClientPayload({ date, name, email });
    const joined = await app.inject({ method: 'POST', url: '/v1/waitlist', payload: { ...body, part: 'morning' } });
    t.equal(joined.statusCode, 201, `${name} waits for the morning`);
  }
  t.equal((await app.inject({ method: 'DELETE', url: `/v1/closures/${afternoon}`, headers: { cookie } })).statusCode, 204, 'the afternoon reopened');

  const { page, problems } = await openPage(browser, 390);
  await signIn(page, baseUrl(app), 'Tama');
  await openView(page, 'Day view');
  await page.getByLabel('Date', { exact: true }).fill(date);
  await page.getByRole('link', { name: '2 customers waiting for a place' }).waitFor();
  const section = page.getByRole('region', { name: 'Waitlist' });
  const entry = (name: string) => section.getByRole('listitem').filter({ hasText: name });
  await entry('Aroha Smith').waitFor();
  t.same(
    await section.getByRole('listitem').locator('strong').allInnerTexts(),
    ['Aroha Smith', 'Ben Jones'],
    'in order of joining',
  );
  t.match(await entry('Aroha Smith').innerText(), /Aroha Smith\s*waiting\s*Morning \(a start before 12:00\)\s*Vehicle 1 \(Medium Car\): Deluxe Clean · 3 h 30 min · On-site, Mount Wellington/i);
  t.equal(await entry('Aroha Smith').getByRole('link', { name: 'aroha@example.com' }).getAttribute('href'), 'mailto:aroha@example.com');
  t.match(await entry('Aroha Smith').getByRole('link', { name: /^\+64/ }).getAttribute('href'), /^tel:\+64\d+$/);
  const select = page.getByLabel('Offer a time to Aroha Smith');
  const starts = await select.locator('option').allInnerTexts();
  t.ok(starts.length > 0 && starts.every((start) => /^1\d:00 \(not a morning start\)$/.test(start)), `the afternoon's starts, marked: ${starts.join(', ')}`);
  t.ok(await fits(page), 'nothing wider than the screen');
  t.same(await axeViolations(page), [], 'no axe violation with the waitlist shown');
  await picture(page, 'waitlist-day-390');

  await select.selectOption('14:00');
  await section.getByRole('button', { name: 'Offer 14:00 to Aroha Smith' }).click();
  await section.getByRole('status').getByText('Offered 14:00 to Aroha Smith').waitFor();
  const until = aucklandTime(testNow.getTime() + HOLD_MINUTES * 60_000);
  await entry('Aroha Smith').getByText(`held until ${until}`).waitFor();
  await page.getByRole('link', { name: '1 customer waiting for a place' }).waitFor();
  t.match(await entry('Aroha Smith').innerText(), /offered[\s\S]*Offered 14:00 by Tama · [A-Z0-9]{8}/i);
  t.equal(await entry('Aroha Smith').getByRole('combobox').count(), 0, 'an offered entry has no offer control');
  const stored = await app.db.selectFrom('waitlist_entries').select(['status', 'offered_by', 'booking_id']).where('email', '=', 'aroha@example.com').executeTakeFirstOrThrow();
  t.match(stored, { status: 'offered', offered_by: 'Tama' });
  const offer = await app.db.selectFrom('bookings').select(['status', 'time']).where('id', '=', stored.booking_id!).executeTakeFirstOrThrow();
  t.same(offer, { status: 'offered', time: '14:00' });
  await page.locator('.job-offered').getByText('14:00–17:30').waitFor();
  t.ok(await fits(page), 'nothing wider than the screen after the offer');
  t.same(await axeViolations(page), [], 'no axe violation after the offer');
  await picture(page, 'waitlist-offered-390');

  // The next day has no waitlist: no section, no count. Back again, the list is read afresh, without the offer's message.
  await page.getByRole('button', { name: 'Next day' }).click();
  await page.getByRole('heading', { name: longDate(addDaysToDay(date, 1)) }).waitFor();
  t.equal(await section.count(), 0, 'no Waitlist section on a date without entries');
  t.equal(await page.getByRole('link', { name: /waiting for a place/ }).count(), 0);
  await page.getByRole('button', { name: 'Previous day' }).click();
  await entry('Ben Jones').waitFor();
  t.equal(await section.getByText('Offered 14:00 to Aroha Smith').count(), 0, "the offer's message belongs to the visit before");

  t.same(problems, { consoleErrors: [], failedRequests: [], cspViolations: [] });
  await page.context().close();
});
