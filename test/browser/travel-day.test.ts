/**
 * Issue 40 in Chromium at 390 px (a phone in a van): the day view shows between a van's jobs the
 * drive each gap needs, a gap made too short by a later change of travel times says so in words;
 * the Today view gives each stop's zone and directions, and the van's day of driving. axe finds
 * nothing in either.
 */
import t from 'tap';
import { aucklandInstant } from '../../src/domain/booking-dates.ts';
import { baseUrl, buildTestApp, login } from '../helper.ts';
import { axeViolations, launchBrowser, openPage, openView, signIn } from '../support/browser.ts';
import { nextWeekday, originalClientPayload, testNow } from '../support/payloads.ts';

t.test('driving between jobs, in the day view and the Today view', async (t) => {
  const browser = await launchBrowser(t);
  let clock = testNow;
  const app = await buildTestApp(t, { listen: true, now: () => clock });
  const cookie = await login(app);
  const headers = { cookie, origin: baseUrl(app) };
  const day = nextWeekday(3);
  // Quick Clean, mid-size: 75 minutes, so 09:00 and 11:00 leave a 45-minute gap.
  const ids: string[] = [];
  for (const [name, time, postalCode, suburb] of [
    ['Aroha Drive', '09:00', '1010', 'Auckland Central'],
    ['Ben Drive', '11:00', '0622', 'Takapuna'],
  ] as const) {
    const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ service: 'Quick Clean', name, email: `${name.split(' ')[0]!.toLowerCase()}@example.com`, date: day, time, postalCode, suburb }) });
    t.equal(res.statusCode, 201);
    ids.push(res.json().id);
  }
  const van = (await app.inject({ url: `/v1/bookings/${ids[0]}`, headers })).json().booking.resourceId as string;
  const second = (await app.inject({ url: `/v1/bookings/${ids[1]}`, headers })).json().booking;
  if (second.resourceId !== van) {
    const moved = await app.inject({ method: 'POST', url: `/v1/bookings/${ids[1]}/move`, headers, payload: { version: second.version, date: day, time: '11:00', resourceId: van } });
    t.equal(moved.statusCode, 200, 'both on one van');
  }
  clock = new Date(aucklandInstant(day, '07:30'));
  const { page, problems } = await openPage(browser, 390);
  await signIn(page, baseUrl(app));

  await t.test('the day view: the drive of the gap, then a gap made too short', async (t) => {
    await openView(page, 'Day view');
    const gap = page.locator('.lane-gap').first();
    await gap.waitFor();
    t.equal((await gap.innerText()).replace(/\s+/g, ' '), '40 min drive, Central Auckland → to North Shore · 45 min gap', 'the drive, between named zones');
    t.ok(await page.locator('.job', { hasText: 'Aroha Drive' }).getByText('Central Auckland').isVisible(), "the job's zone");
    t.same(await axeViolations(page), [], 'no axe violation');
    await page.screenshot({ path: '/tmp/wt-day-dayview-390.png', fullPage: true });

    const [a, b] = (await app.db.selectFrom('service_zones').select('id').where('name', 'in', ['Central Auckland', 'North Shore']).execute()).map((z) => z.id).sort();
    await app.db.insertInto('zone_travel').values({ zone_a: a!, zone_b: b!, minutes: 120 }).execute();
    await page.getByRole('button', { name: /Next/ }).click();
    await page.getByRole('button', { name: /Previous/ }).click();
    const short = page.locator('.lane-gap-short');
    await short.waitFor();
    t.match(await short.innerText(), /^Too short: 2 h drive, Central Auckland/, 'said in words, not in colour alone');
    t.same(await axeViolations(page), [], 'no axe violation with a short gap');
    await page.screenshot({ path: '/tmp/wt-day-dayview-short-390.png', fullPage: true });
  });

  await t.test('the Today view: zones, directions and the driving', async (t) => {
    await openView(page, 'Today');
    const job = page.locator('.today-job', { hasText: 'Ben Drive' });
    await job.waitFor();
    const link = job.getByRole('link', { name: 'Directions to 7 Ellerslie-Panmure Highway, Takapuna, Auckland, 0622 (opens in a new tab)' });
    t.equal(await link.getAttribute('href'), 'https://www.google.com/maps/dir/?api=1&destination=7%20Ellerslie-Panmure%20Highway%2C%20Takapuna%2C%20Auckland%2C%200622');
    t.equal(await link.getAttribute('target'), '_blank');
    t.equal(await link.getAttribute('rel'), 'noopener noreferrer');
    t.ok(await job.getByText('North Shore', { exact: true }).isVisible(), "the stop's zone");
    // 15 out to Central Auckland, 120 (the pair's minutes now) to the North Shore, 25 back.
    t.match(await page.locator('.today-driving').first().innerText(), 'About 2 h 40 min driving today, from the service centre and back');
    t.same(await axeViolations(page), [], 'no axe violation');
    await page.screenshot({ path: '/tmp/wt-day-today-390.png', fullPage: true });
  });
  t.same(problems.consoleErrors, [], 'no console errors');
});
