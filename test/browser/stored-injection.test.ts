/**
 * Stored script injection (issue 12's battery): a booking and a contact message sent through the
 * public API with `<script>`, `<img onerror>`, `javascript:` and spreadsheet-formula payloads in
 * every text field that takes them (as long as each field allows), and a staff member signed in
 * under such a name, are shown as plain text in every staff view and neutralised in the CSV.
 * Chromium: no dialog, no payload run, no element made from them, no CSP violation.
 *
 * Each staff view is one entry of VIEWS; a new view is one more entry.
 */
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import type { Page } from 'playwright-core';
import t from 'tap';
import type { Test } from 'tap';
import { BOOKING_LIMITS } from '../../src/domain/booking-rules.ts';
import { CONTACT_LIMITS } from '../../src/domain/contact-rules.ts';
import { BOOT_SCRIPT } from '../../src/render/document.ts';
import { baseUrl, buildTestApp } from '../helper.ts';
import { launchBrowser, openPage, openView, signIn } from '../support/browser.ts';
import { inDays, originalClientPayload } from '../support/payloads.ts';

/** What a payload run in the page would do: a flag nobody else sets. */
const RUN = 'window.__pwned=1';
/** A tag the application never uses: one in the page means a payload became markup. */
const MARKER = 'x-m';

/** Payloads from longest to shortest; each field gets the longest its limit allows, after a formula prefix. */
const PAYLOADS = [
  `<script>${RUN}</script><img src=x onerror="${RUN}"><a href="javascript:${RUN}">link</a><svg onload="${RUN}"></svg><${MARKER}>`,
  `<script>${RUN}</script><img src=x onerror="${RUN}"><${MARKER}>`,
  `<img src=x onerror=${RUN}><${MARKER}>`,
  `<${MARKER}>javascript:1`,
  `<${MARKER}/>`,
];
const FORMULA_PREFIXES = ['=', '+', '-', '@'];

let used = 0;
/** The longest payload that fits `max` characters, behind a spreadsheet formula's first character. */
function payload(max: number): string {
  const prefix = FORMULA_PREFIXES[used++ % FORMULA_PREFIXES.length]!;
  const fitting = PAYLOADS.find((p) => prefix.length + p.length <= max);
  if (!fitting) throw new Error(`no payload fits ${max} characters`);
  return prefix + fitting;
}

const bookingText = {
  houseNumber: payload(BOOKING_LIMITS.houseNumber),
  streetAddress: payload(BOOKING_LIMITS.streetAddress),
  suburb: payload(BOOKING_LIMITS.suburb),
  city: payload(BOOKING_LIMITS.city),
  postalCode: '1010',
  landmark: payload(BOOKING_LIMITS.landmark),
  name: payload(BOOKING_LIMITS.name),
  // What the e-mail rule (WHATWG's) lets through: quotes, =, /, &, braces, no angle brackets.
  email: `=x'/onfocus='${RUN}'&{{constructor}}@example.com`,
  notes: `${payload(BOOKING_LIMITS.notes)}\n=HYPERLINK("javascript:${RUN}","click")`,
};
// The service, size, date, time, region, on-site postcode (four digits in the service area, issue
// 40) and phone only take listed values or digits.

const messageText = {
  name: payload(CONTACT_LIMITS.name),
  email: `+x'/onmouseover='${RUN}'?cc=all#&{x}@example.com`,
  message: `${payload(CONTACT_LIMITS.message)}\n<iframe src="javascript:${RUN}"></iframe>`,
};

/** Who signs in: shown in the booking's status history. */
const staffName = payload(60);

interface View {
  name: string;
  /** Opens the view from the signed-in dashboard and waits until it shows the stored records. */
  open(page: Page): Promise<void>;
  /** The texts it must show literally. */
  shows: string[];
  /** Where they are read from (default: the main element as shown). */
  text?(page: Page): Promise<string>;
  /** Leaves the view as the next one expects the dashboard. */
  close?(page: Page): Promise<void>;
}

/** Texts as the page shows them: runs of white space (the notes' line break) are one space in innerText checks. */
const lines = (value: string) => value.split('\n');

const VIEWS: View[] = [
  {
    name: 'the bookings list',
    open: async (page) => {
      await page.getByRole('button', { name: /^Bookings/ }).click();
      await page.locator('.booking-card').first().waitFor();
    },
    shows: [bookingText.name, bookingText.email, `${bookingText.houseNumber} ${bookingText.streetAddress}`],
  },
  {
    name: 'the booking modal, with a status change by the staff member',
    open: async (page) => {
      await page.getByRole('button', { name: /^Bookings/ }).click();
      await page.locator('.booking-card').first().getByRole('button', { name: /View Details/ }).click();
      const modal = page.getByRole('dialog', { name: 'Booking Details' });
      await modal.getByRole('button', { name: /^Confirm/ }).click();
      await modal.getByText(/changed pending → confirmed/).waitFor();
    },
    shows: [bookingText.name, bookingText.email, bookingText.suburb, bookingText.city, bookingText.postalCode, bookingText.landmark, ...lines(bookingText.notes), staffName],
    close: async (page) => {
      await page.getByRole('dialog', { name: 'Booking Details' }).getByRole('button', { name: 'Close', exact: true }).click();
    },
  },
  {
    name: 'the day view',
    open: async (page) => {
      await page.getByRole('button', { name: /^Bookings/ }).click();
      await openView(page, 'Day view');
      await page.getByRole('button', { name: 'Tomorrow' }).click();
      await page.locator('.day').filter({ hasText: bookingText.name }).waitFor();
    },
    shows: [bookingText.name],
  },
  {
    name: 'the inbox',
    open: async (page) => {
      await openView(page, /^Messages/);
      await page.locator('.message').first().waitFor();
    },
    shows: [messageText.name, messageText.email, ...lines(messageText.message)],
  },
  {
    name: 'the E-mails view, with the preview of the message sent to staff',
    open: async (page) => {
      await page.getByRole('button', { name: /^E-mails/ }).click();
      const email = page.locator('.email').filter({ hasText: 'Contact message (staff)' });
      await email.getByRole('button', { name: /^Preview/ }).click();
      await page.locator('.email-text').waitFor({ state: 'attached' });
      await page.frameLocator('.email-frame').locator('body').waitFor();
    },
    // The text part is folded away: read as text, not as shown.
    text: async (page) => (await page.locator('.email-preview').textContent()) ?? '',
    shows: [messageText.name, messageText.email, ...lines(messageText.message)],
  },
];

/**
 * Everything in the page, and in its frames (the e-mail preview's sandboxed one), that a payload
 * would have made, if one had become markup.
 */
const madeByPayload = async (page: Page) =>
  (
    await Promise.all(
      page.frames().map((frame) =>
        frame.evaluate(
          ([marker, boot]) =>
            [
              ...document.querySelectorAll(
                `${marker}, img[src="x"], svg[onload], iframe:not(.email-frame), [onerror], [onload], [onfocus], [onmouseover], a[href^="javascript:" i], script:not([src]):not([type="application/json"]):not([type="application/ld+json"])`,
              ),
            ]
              // The page's own boot script (the one inline script the policy allows, by its hash).
              .filter((el) => !(el.tagName === 'SCRIPT' && el.textContent === boot))
              .map((el) => el.outerHTML.slice(0, 120)),
          [MARKER, BOOT_SCRIPT] as const,
        ),
      ),
    )
  ).flat();

t.test('stored script injection is inert in every staff view and in the CSV', async (t: Test) => {
  const browser = await launchBrowser(t);
  const app = await buildTestApp(t, { listen: true });

  const booked = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ ...bookingText, date: inDays(1), time: '07:00' }) });
  t.equal(booked.statusCode, 201, 'the booking is accepted: the payloads are within the rules');
  const sent = await app.inject({ method: 'POST', url: '/v1/contact-us-form', payload: { ...messageText, phone: '021 555 1234' } });
  t.equal(sent.statusCode, 201, 'the message is accepted');

  const { page, problems } = await openPage(browser, 1280);
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await signIn(page, baseUrl(app), staffName);

  for (const view of VIEWS) {
    await view.open(page);
    const text = view.text ? await view.text(page) : await page.locator('main').innerText();
    for (const expected of view.shows) t.ok(text.includes(expected), `${view.name} shows ${JSON.stringify(expected.slice(0, 40))}… as text`);
    t.same(await madeByPayload(page), [], `${view.name}: no element made from a payload`);
    t.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined, `${view.name}: no payload ran`);
    await view.close?.(page);
  }

  await openView(page, /^Messages/);
  const mailto = await page.locator('.message a[href^="mailto:"]').getAttribute('href');
  t.notMatch(mailto, /[<>"\s?#&]/, 'the mailto link holds the address encoded');
  t.equal(decodeURIComponent(mailto!.slice('mailto:'.length)), messageText.email);

  await page.getByRole('button', { name: /^Bookings/ }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const csv = await readFile((await (await download).path())!, 'utf8');
  const [header, ...rows] = parse(csv) as string[][];
  t.equal(rows.length, 1);
  const cell = (column: string) => rows[0]![header!.indexOf(column)]!;
  const columns: [string, string][] = [
    ['Name', bookingText.name],
    ['Email', bookingText.email],
    ['House number', bookingText.houseNumber],
    ['Street', bookingText.streetAddress],
    ['Suburb', bookingText.suburb],
    ['City', bookingText.city],
    ['Postal code', bookingText.postalCode],
    ['Landmark', bookingText.landmark],
    ['Notes', bookingText.notes],
  ];
  for (const [column, stored] of columns) {
    t.equal(cell(column), /^[=+\-@]/.test(stored) ? `'${stored}` : stored, `CSV ${column}: the text as stored, a formula made plain text`);
  }
  t.same(rows[0]!.filter((value) => /^[=+\-@\t\r]/.test(value)), [], 'no cell a spreadsheet would run');

  t.same(dialogs, [], 'no dialog opened');
  t.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined, 'no payload ran');
  t.same(problems.cspViolations, [], 'no CSP violation');
  t.same(problems.consoleErrors, [], 'no console error');
  await page.context().close();
});
