/**
 * `npm run screenshots`: the pictures of docs/images/, taken from the running app so that the
 * README and docs/staff-guide.md show the site as it is. The real app (the browser tests' test
 * app: the production client build, an in-memory embedded database) with a day of demo jobs, and
 * the browser tests' Chromium; each picture at device scale 1. Not part of `npm test`.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { Test } from 'tap';
import { addDaysToDay, aucklandInstant } from '../../src/domain/booking-dates.ts';
import { ROOT_DIR } from '../../src/paths.ts';
import { baseUrl, buildTestApp, login } from '../helper.ts';
import { openPage, openView, signIn, waitForHydration } from './browser.ts';
import { launchChromium } from './chromium.ts';
import { nextWeekday, originalClientPayload, testNow } from './payloads.ts';

const IMAGES_DIR = path.join(ROOT_DIR, 'docs', 'images');
const PHONE = 390;
const DESKTOP = 1280;

/** The day shown: a Wednesday a few days ahead, so that every job can be booked online. */
const day = nextWeekday(3);

/** The demo day's jobs: on site across the service area's zones, and drop-offs at the centre. */
const JOBS: Record<string, unknown>[] = [
  { name: 'Aroha Smith', time: '08:00', service: 'Deluxe Clean', vehicleType: 'mid', postalCode: '1050', suburb: 'Remuera', streetAddress: 'Victoria Avenue', houseNumber: '14', notes: 'Gate code 1234' },
  { name: 'Ben Jones', time: '08:00', service: 'Express Clean', vehicleType: 'suv', postalCode: '0627', suburb: 'Takapuna', streetAddress: 'Hurstmere Road', houseNumber: '88' },
  { name: 'Cara Lee', time: '09:00', service: 'Ultimate Clean', vehicleType: 'sm', serviceType: 'dropoff' },
  { name: 'Dan Wong', time: '12:00', service: 'Quick Clean', vehicleType: 'sm', postalCode: '2014', suburb: 'Howick', streetAddress: 'Picton Street', houseNumber: '3' },
  { name: 'Eve Tane', time: '10:00', service: 'Window Tinting', vehicleType: 'mid', serviceType: 'dropoff' },
  { name: 'Finn Brown', time: '14:00', service: 'Express Clean', vehicleType: 'mid', postalCode: '1025', suburb: 'Mount Albert', streetAddress: 'New North Road', houseNumber: '210' },
  { name: 'Grace Kim', time: '15:00', service: 'Quick Clean', vehicleType: 'suv', postalCode: '0630', suburb: 'Glenfield', streetAddress: 'Glenfield Road', houseNumber: '45' },
];

/** Teardowns of what the test helpers start, run at the end as tap would run them. */
const cleanups: (() => unknown)[] = [];
const scope = { teardown: (fn: () => unknown) => void cleanups.push(fn) } as unknown as Test;

async function seed(app: Awaited<ReturnType<typeof buildTestApp>>, setClock: (at: Date) => void) {
  const ids: Record<string, { id: string; version: number }> = {};
  for (const [i, job] of JOBS.entries()) {
    const email = `${String(job.name).split(' ')[0]!.toLowerCase()}@example.co.nz`;
    const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: day, email, selectedVehicleType: job.vehicleType, ...job }) });
    if (res.statusCode !== 201) throw new Error(`booking ${i + 1}: ${res.statusCode} ${res.body}`);
    const { id, booking } = res.json() as { id: string; booking: { version: number } };
    ids[String(job.name)] = { id, version: booking.version };
  }
  await app.inject({
    method: 'POST',
    url: '/v1/contact-us-form',
    payload: { name: 'Hemi Walker', email: 'hemi@example.co.nz', phone: '021 555 1234', message: 'Do you clean boat trailers as well? Ours is very sandy after summer.' },
  });
  const cookie = await login(app);
  const staff = async (url: string, payload: object) => {
    const res = await app.inject({ method: 'POST', url, headers: { cookie }, payload });
    if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return (res.json() as { booking: { version: number } }).booking;
  };
  // The morning of the day: most jobs confirmed, the first two done or under way.
  for (const name of ['Aroha Smith', 'Ben Jones', 'Cara Lee', 'Dan Wong', 'Finn Brown']) {
    const entry = ids[name]!;
    entry.version = (await staff(`/v1/bookings/${entry.id}/status`, { status: 'confirmed', version: entry.version })).version;
  }
  setClock(new Date(aucklandInstant(day, '11:40')));
  const aroha = ids['Aroha Smith']!;
  await staff(`/v1/bookings/${aroha.id}/completion`, { version: aroha.version, paid: true, paymentMethod: 'card' });
  const ben = ids['Ben Jones']!;
  await staff(`/v1/bookings/${ben.id}/started`, { version: ben.version });
  const dan = ids['Dan Wong']!;
  await staff(`/v1/bookings/${dan.id}/on-the-way`, { version: dan.version, minutes: 20 });
}

async function shoot(page: Page, name: string, fullPage = false): Promise<void> {
  // A transition still running (a tab's colour) would be caught halfway.
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
  const file = path.join(IMAGES_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage });
  console.log(path.relative(ROOT_DIR, file));
}

async function main(): Promise<void> {
  mkdirSync(IMAGES_DIR, { recursive: true });
  let clock = testNow;
  const app = await buildTestApp(scope, { listen: true, now: () => clock });
  await seed(app, (at) => (clock = at));
  const base = baseUrl(app);
  const browser = await launchChromium();
  cleanups.push(() => browser.close());

  // The booking wizard on a phone: a package chosen from the pricing page.
  {
    const { page, problems } = await openPage(browser, PHONE);
    await page.setViewportSize({ width: PHONE, height: 844 });
    await page.goto(`${base}/booking?package=deluxe-clean`);
    await waitForHydration(page);
    await shoot(page, 'wizard-phone');
    if (problems.consoleErrors.length) throw new Error(`the wizard: ${problems.consoleErrors.join('; ')}`);
    await page.context().close();
  }

  // The staff's day on a desktop.
  {
    const { page, problems } = await openPage(browser, DESKTOP);
    await page.setViewportSize({ width: DESKTOP, height: 900 });
    await signIn(page, base, 'Mere');
    await openView(page, 'Day view');
    await page.locator('.day-view, [class*="lane"]').first().waitFor();
    await page.getByText('Aroha Smith').first().waitFor();
    await shoot(page, 'day-desktop');
    if (problems.consoleErrors.length) throw new Error(`the day view: ${problems.consoleErrors.join('; ')}`);
    await page.context().close();
  }

  // Each dashboard view on a phone, for the staff guide.
  {
    const { page, problems } = await openPage(browser, PHONE);
    await page.setViewportSize({ width: PHONE, height: 844 });
    await signIn(page, base, 'Mere');
    await page.getByText('Aroha Smith').first().waitFor();
    await shoot(page, 'staff-bookings');
    const views: { tab: string | RegExp; name: string; shown: string; prepare?: () => Promise<void> }[] = [
      { tab: 'Today', name: 'staff-today', shown: 'Ben Jones' },
      { tab: 'Day view', name: 'staff-day', shown: 'Aroha Smith' },
      { tab: /^Messages/, name: 'staff-messages', shown: 'Hemi Walker' },
      { tab: 'Schedule', name: 'staff-schedule', shown: 'Close a date or a time' },
      { tab: 'E-mails', name: 'staff-emails', shown: 'aroha@example.co.nz' },
      { tab: 'Customers', name: 'staff-customers', shown: 'Aroha Smith' },
      {
        tab: 'Takings',
        name: 'staff-takings',
        shown: '1 job completed',
        // The browser's own today is the real one; the demo day is the app's.
        prepare: async () => {
          await page.getByLabel('From').fill(day);
          await page.getByLabel('To').fill(day);
          await page.getByRole('button', { name: 'Show', exact: true }).click();
        },
      },
    ];
    for (const view of views) {
      await openView(page, view.tab);
      await view.prepare?.();
      await page.getByText(view.shown).filter({ visible: true }).first().waitFor();
      // The tabs at the top of the picture, so that it shows the view rather than the frame.
      await page.getByRole('navigation', { name: 'Dashboard views' }).evaluate((nav) => nav.scrollIntoView({ block: 'start', behavior: 'instant' }));
      await shoot(page, view.name);
    }
    // The owner's Insights, a page of their own, over the four weeks up to the demo day.
    await page.goto(`${base}/dashboard/insights?range=custom&from=${addDaysToDay(day, -27)}&to=${day}`);
    await waitForHydration(page);
    await page.getByRole('heading', { name: 'Revenue taken by week' }).waitFor();
    await shoot(page, 'staff-insights');
    if (problems.consoleErrors.length) throw new Error(`the dashboard: ${problems.consoleErrors.join('; ')}`);
  }
}

try {
  await main();
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup();
}
