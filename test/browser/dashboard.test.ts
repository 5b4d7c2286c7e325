/** The staff dashboard in Chromium: both sign-in modes, search, filters, the modal, status changes, CSV, the day view, axe, views opened while their code loads. */
import { readFile } from 'node:fs/promises';
import type { Request } from 'playwright-core';
import { format, parseISO } from 'date-fns';
import t from 'tap';
import { addDaysToDay } from '../../src/domain/booking-dates.ts';
import { baseUrl, buildTestApp, TEST_ADMIN_PASSWORD } from '../helper.ts';
import { axeViolations, launchBrowser, openPage, openView, signIn, waitForHydration } from '../support/browser.ts';
import { bookingRow, inDays, nextWeekday } from '../support/payloads.ts';

t.test('dashboard in Chromium', async (t) => {
  const browser = await launchBrowser(t);

  t.test('session mode: sign-in page, the spec dashboard, modal, status change with history, CSV', async (t) => {
    const app = await buildTestApp(t, { listen: true });
    // Dates by rule, a Monday to Wednesday ahead: fixed ones (December 2026) would be in the past
    // from their first day on, and a past booking offers other actions than Confirm.
    const monday = nextWeekday(1, 6);
    const [arohaDay, benDay, caraDay] = [0, 1, 2].map((n) => addDaysToDay(monday, n)) as [string, string, string];
    await app.db
      .insertInto('bookings')
      .values([
        bookingRow({ name: 'Aroha Smith', email: 'aroha@example.com', service: 'Deluxe Clean', date: arohaDay, time: '08:00', notes: 'Gate code 1234', landmark: 'Blue gate', reference: 'ARQHA234', list_price_cents: 16900, discount_cents: 2535, total_cents: 14365, discount_kind: 'first-service', discount_percent: 15 }),
        bookingRow({ name: 'Ben Jones', email: 'ben@example.com', service: 'Quick Clean', date: benDay, time: '09:00', service_type: 'dropoff', house_number: '', street_address: '', suburb: '', vehicle_type: 'suv', status: 'confirmed' }),
        bookingRow({ name: 'Cara Lee', email: 'cara@example.com', service: 'Ultimate Clean', date: caraDay, time: '10:00', status: 'cancelled' }),
      ])
      .execute();
    await app.db.insertInto('contact_messages').values({ name: 'Gina Hall', email: 'gina@example.com', phone: '021 123 4567', message: 'Do you clean boats?' }).execute();
    const url = `${baseUrl(app)}/dashboard`;
    const { page, problems } = await openPage(browser, 1280);
    await page.goto(url);
    await waitForHydration(page);
    t.ok(await page.getByRole('heading', { name: 'Staff sign-in' }).isVisible());
    t.same(await axeViolations(page), [], 'no axe violation on the sign-in page');

    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Incorrect password').waitFor();
    await page.getByLabel('Your name (shown in booking histories)').fill('Mere');
    await page.getByLabel('Password').fill(TEST_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Booking Dashboard' }).waitFor();
    await waitForHydration(page);
    await page.locator('.booking-card').first().waitFor();
    t.equal(await page.locator('.booking-card').count(), 3);
    t.same(await axeViolations(page), [], 'no axe violation on the dashboard');

    const aroha = page.locator('.booking-card').filter({ hasText: 'Aroha Smith' });
    t.match(
      await aroha.innerText(),
      new RegExp(String.raw`Deluxe Clean[\s\S]*pending[\s\S]*Reference\s+ARQHA234[\s\S]*aroha@example\.com[\s\S]*021 555 0000[\s\S]*${format(parseISO(arohaDay), 'MMM dd, yyyy')}[\s\S]*08:00[\s\S]*1 Queen Street, Auckland Central[\s\S]*Total\s+\$143\.65`, 'i'),
    );
    t.equal(await aroha.locator('.status-badge').evaluate((el) => getComputedStyle(el).backgroundColor), 'rgb(253, 240, 194)', 'pending is yellow');
    t.notMatch(await page.locator('.booking-card').filter({ hasText: 'Ben Jones' }).innerText(), /Address/, 'no address for drop-off');

    await page.getByPlaceholder('Search bookings...').fill('ARO');
    await page.waitForFunction(() => document.querySelectorAll('.booking-card').length === 1);
    t.match(await page.locator('.booking-card').innerText(), /Aroha/);
    await page.getByPlaceholder('Search bookings...').fill('qha23');
    await page.waitForFunction(() => document.querySelectorAll('.booking-card').length === 1 && document.querySelector('.booking-card')!.textContent!.includes('Aroha'));
    t.pass('found by part of the reference');
    await page.getByPlaceholder('Search bookings...').fill('nobody-at-all');
    await page.getByText('No bookings found').waitFor();
    t.ok(await page.getByText('Try adjusting your search or filters').isVisible());
    await page.getByPlaceholder('Search bookings...').fill('');

    await page.getByRole('button', { name: 'Filters' }).click();
    t.same(await page.getByLabel('Service', { exact: true }).locator('option').allInnerTexts(), ['All Services', 'Deluxe Clean', 'Quick Clean', 'Ultimate Clean']);
    t.same(await page.getByLabel('Status', { exact: true }).locator('option').allInnerTexts(), ['All Statuses', 'offered', 'pending', 'confirmed', 'completed', 'no-show', 'cancelled', 'awaiting e-mail confirmation', 'lapsed (never confirmed)']);
    // Each wait names the card the new filter must show: a count alone can be met by the list
    // the previous filter left, before the new answer arrives.
    await page.getByLabel('Status', { exact: true }).selectOption('cancelled');
    await page.waitForFunction(() => document.querySelectorAll('.booking-card').length === 1 && document.querySelector('.booking-card')!.textContent!.includes('Cara Lee'));
    t.match(await page.locator('.booking-card').innerText(), /Cara Lee/);
    await page.getByLabel('Status', { exact: true }).selectOption('');
    await page.getByLabel('Service', { exact: true }).selectOption('Quick Clean');
    await page.waitForFunction(() => document.querySelectorAll('.booking-card').length === 1 && document.querySelector('.booking-card')!.textContent!.includes('Ben Jones'));
    t.match(await page.locator('.booking-card').innerText(), /Ben Jones/);
    await page.getByLabel('Date', { exact: true }).fill(caraDay);
    await page.getByText('No bookings found').waitFor();
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await page.waitForFunction(() => document.querySelectorAll('.booking-card').length === 3);

    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export CSV' }).click();
    const csv = await readFile((await (await download).path())!, 'utf8');
    t.match(csv, /Booking id,Reference,Created,Status,Service/);
    t.match(csv, /ARQHA234,.*,169\.00,25\.35,first-service 15%,143\.65/);
    t.equal(csv.trim().split('\n').length, 4, 'a header and three bookings');

    await page.getByRole('button', { name: /View Details.*Aroha Smith/ }).click();
    const modal = page.getByRole('dialog', { name: 'Booking Details' });
    await modal.getByText('No changes yet.').waitFor();
    const text = await modal.innerText();
    for (const expected of ['Deluxe Clean', `Scheduled for ${format(parseISO(arohaDay), 'MMMM dd, yyyy')} at 08:00`, 'Customer Information', 'aroha@example.com', 'Vehicle Information', 'SM', 'On-site Service', 'Location Details', '1 Queen Street', 'Auckland Central', '1010', 'Blue gate', 'Additional Notes', 'Gate code 1234', 'Reference ARQHA234']) {
      t.ok(text.includes(expected), `modal shows ${expected}`);
    }
    t.match(text, /List Price\s+\$169\.00\s+First-service discount 15%\s+−\$25\.35\s+Total\s+\$143\.65/, 'the price with its discount');
    t.same(await axeViolations(page), [], 'no axe violation with the modal open');
    await page.keyboard.press('Tab');
    t.ok(await page.evaluate(() => Boolean(document.activeElement?.closest('dialog'))), 'focus stays in the modal');

    await modal.getByRole('button', { name: /^Confirm/ }).click();
    await modal.getByText(/Mere changed pending → confirmed/).waitFor();
    t.match(await modal.locator('.status-badge').innerText(), /confirmed/i);
    // Each close is waited for: read at once, the dialog could still be open (a run on a loaded
    // machine found it so), and the next click would land on it.
    await page.keyboard.press('Escape');
    await t.resolves(modal.waitFor({ state: 'hidden' }), 'Escape closes the modal');
    await t.resolves(aroha.locator('.status-badge').filter({ hasText: /confirmed/i }).waitFor(), 'the card follows');

    await page.getByRole('button', { name: /View Details.*Ben Jones/ }).click();
    const ben = await modal.innerText();
    t.ok(ben.includes('In-shop Service'));
    t.ok(ben.includes('SUV'), 'vehicle type upper-cased');
    t.notOk(ben.includes('Location Details'), 'no location for drop-off');
    t.notOk(ben.includes('Additional Notes'), 'no notes section without notes');
    await modal.getByRole('button', { name: 'Close', exact: true }).click();
    await t.resolves(modal.waitFor({ state: 'hidden' }), 'Close closes it');
    // The details are held back until the modal is closed: their late answer must not open it again
    // (it did, and the modal then blocked the next click).
    let releaseDetails = () => {};
    const detailsHeld = new Promise<void>((resolve) => (releaseDetails = resolve));
    const details = /\/v1\/bookings\/[^/?]+$/;
    await page.route(details, async (route) => {
      await detailsHeld;
      await route.continue();
    });
    await page.getByRole('button', { name: /View Details.*Cara Lee/ }).click();
    await modal.getByRole('button', { name: 'Close details' }).click();
    await t.resolves(modal.waitFor({ state: 'hidden' }), 'the X closes it too');
    const lateAnswer = page.waitForResponse(details);
    releaseDetails();
    await (await lateAnswer).finished();
    await page.unroute(details);
    // Two frames after the body arrived: time for React to render what it was given.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    t.notOk(await modal.isVisible(), 'details that come back after the close do not open it again');

    const history = await app.db.selectFrom('booking_status_changes').selectAll().execute();
    t.match(history, [{ from_status: 'pending', to_status: 'confirmed', changed_by: 'Mere' }]);

    await app.db.insertInto('bookings').values(bookingRow({ name: 'Dana Tomorrow', date: inDays(1), time: '07:00', vehicle_type: 'suv' })).execute();
    // The day view is the timeline (issue 20): these rows were written without a van, so they
    // are listed under "Needs a van or bay", from today on, until staff give them one.
    await openView(page, 'Day view');
    const lanes = page.getByRole('region', { name: 'Van 1', exact: true });
    await lanes.getByText('No jobs').waitFor();
    const needs = page.getByRole('region', { name: /Needs a van or bay/ });
    t.match(await needs.innerText(), /07:00[\s\S]*Quick Clean · On-site · Dana Tomorrow · 021 555 0000/);
    t.notMatch(await needs.innerText(), /Cara Lee/, 'not the cancelled booking');
    await page.getByRole('button', { name: 'Next day' }).click();
    await page.getByRole('heading', { name: new RegExp(`^${['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'][Number(inDays(1).slice(5, 7)) - 1]} ${inDays(1).slice(8)}`) }).waitFor();
    await page.getByRole('button', { name: 'Week' }).click();
    await page.getByRole('table', { name: /Booked hours/ }).waitFor();
    t.same(await axeViolations(page), [], 'no axe violation on the day view');
    const messagesTab = page.getByRole('button', { name: /^Messages/ });
    t.equal(await messagesTab.textContent(), 'Messages 1 unread', 'the tab counts the unread message from the start');
    t.equal(await messagesTab.getAttribute('aria-current'), null);
    await messagesTab.click();
    const message = page.locator('.message').filter({ hasText: 'Gina Hall' });
    t.match(await message.innerText(), /Gina Hall[\s\S]*New[\s\S]*gina@example\.com[\s\S]*021 123 4567[\s\S]*Do you clean boats\?/);
    t.same(await axeViolations(page), [], 'no axe violation on the inbox');
    await message.getByRole('button', { name: /^Mark as read.*Gina Hall$/ }).click();
    await message.getByRole('button', { name: /^Mark as unread.*Gina Hall$/ }).waitFor();
    t.equal(await messagesTab.textContent(), 'Messages ', 'no count once everything is read');
    const stored = await app.db.selectFrom('contact_messages').select('read_at').executeTakeFirstOrThrow();
    t.ok(stored.read_at, 'read_at is stored');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Staff sign-in' }).waitFor();
    t.equal((await app.inject({ url: '/v1/getall-booking' })).statusCode, 401);
    t.same(problems.consoleErrors.filter((e) => !e.includes('401')), []);
    await page.context().close();
  });

  t.test('on a phone: a view whose code is on its way, and one whose code cannot be fetched', async (t) => {
    const app = await buildTestApp(t, { listen: true });
    await app.db.insertInto('bookings').values(bookingRow({ name: 'Held Customer', date: inDays(2) })).execute();
    const { page, problems } = await openPage(browser, 390);
    await signIn(page, baseUrl(app));
    const card = page.locator('.booking-card').filter({ hasText: 'Held Customer' });
    await card.waitFor();

    // A chunk's code held back until released, as on a slow connection.
    const holdBack = async (chunk: string) => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(new RegExp(`/${chunk}-[\\w-]+\\.js$`), async (route) => {
        await held;
        await route.continue();
      });
      return release;
    };
    const release = await holdBack('TodayView');
    const isSchedule = (request: Request) => new URL(request.url()).pathname === '/v1/schedule';
    const scheduleRequests: string[] = [];
    page.on('request', (request) => {
      if (isSchedule(request)) scheduleRequests.push(new URL(request.url()).search);
    });
    const todayTab = page.getByRole('button', { name: 'Today', exact: true });
    const asked = page.waitForRequest(isSchedule);
    await todayTab.click();
    await page.waitForFunction(() => document.querySelector('.tabs [aria-busy="true"]')?.textContent?.trim() === 'Today');
    await asked;
    t.pass('today’s schedule is asked for while the view’s code is still on its way');
    t.ok(await card.isVisible(), 'the bookings stay on screen while Today’s code is on its way');
    t.equal(await page.locator('.dashboard .spinner').count(), 0, 'no spinner in their place');
    t.equal(await page.getByRole('button', { name: 'Bookings', exact: true }).getAttribute('aria-current'), 'page');
    release();
    await page.getByText('No jobs today.').waitFor();
    t.equal(await todayTab.getAttribute('aria-current'), 'page', 'Today opens once its code is here');
    t.equal(await todayTab.getAttribute('aria-busy'), null, 'and is no longer marked busy');
    t.equal(await card.count(), 0);
    t.same(scheduleRequests, [''], 'and asked for once');
    // The day view starts on today from the same first answer, without asking for that day again.
    await openView(page, 'Day view');
    await page.getByRole('region', { name: 'Needs a van or bay' }).or(page.getByText('No jobs').first()).first().waitFor();
    t.same(scheduleRequests, ['', ''], 'the day view asks for today once');

    // A dialog likewise: the New booking button is marked busy until the form's code is here.
    const releaseForm = await holdBack('StaffBookingForm');
    // The chunks the form imports are asked for with its own, not once it has arrived (one round
    // trip after another on a phone's connection).
    const formFields = page.waitForRequest(/\/BookingFields-[\w-]+\.js$/);
    const newBooking = page.getByRole('button', { name: 'New booking' });
    await newBooking.click();
    await page.locator('.dashboard-head .button[aria-busy="true"]').waitFor();
    await formFields;
    t.pass('the form’s fields are fetched while the form’s own chunk is still on its way');
    t.equal(await page.getByRole('dialog').count(), 0, 'no dialog before its code is here');
    releaseForm();
    const form = page.getByRole('dialog', { name: 'New booking' });
    await form.waitFor();
    t.equal(await newBooking.getAttribute('aria-busy'), null, 'the button is no longer busy once the form is open');
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });

    // The Messages view's code cannot be fetched (the van lost its signal): that part says so, and
    // the rest of the dashboard stays usable.
    await page.route(/\/Inbox-[\w-]+\.js$/, (route) => route.abort('internetdisconnected'));
    await openView(page, /^Messages/);
    const failure = page.getByRole('alert').filter({ hasText: 'This part of the dashboard could not be loaded' });
    await failure.waitFor();
    t.ok(await failure.getByRole('button', { name: 'Reload the page' }).isVisible(), 'with a way to try again');
    t.ok(await page.getByRole('heading', { name: 'Booking Dashboard' }).isVisible(), 'the dashboard around it stays');
    await openView(page, 'Bookings');
    await card.waitFor();
    t.equal(await failure.count(), 0, 'another view opens as usual');
    t.same(
      problems.failedRequests.filter((request) => !/\/Inbox-[\w-]+\.js /.test(request)),
      [],
      'nothing failed but the refused code',
    );
    await page.context().close();
  });

  t.test('prompt mode: a right answer shows the dashboard; a wrong one alerts and goes home', async (t) => {
    const app = await buildTestApp(t, { listen: true, env: { DASHBOARD_AUTH: 'prompt' } });
    await app.db.insertInto('bookings').values(bookingRow({ name: 'Prompt Customer', date: inDays(2) })).execute();
    const url = `${baseUrl(app)}/dashboard`;

    const { page } = await openPage(browser, 1280);
    page.on('dialog', (dialog) => void (dialog.type() === 'prompt' ? dialog.accept(TEST_ADMIN_PASSWORD) : dialog.dismiss()));
    await page.goto(url);
    await page.locator('.booking-card').filter({ hasText: 'Prompt Customer' }).waitFor();
    t.ok(await page.getByRole('heading', { name: 'Booking Dashboard' }).isVisible());
    await page.context().close();

    const wrong = await openPage(browser, 1280);
    const alerts: string[] = [];
    wrong.page.on('dialog', (dialog) => {
      if (dialog.type() === 'prompt') void dialog.accept('not the password');
      else {
        alerts.push(dialog.message());
        void dialog.accept();
      }
    });
    await wrong.page.goto(url);
    await wrong.page.waitForURL(`${baseUrl(app)}/`);
    t.same(alerts, ['Incorrect password! Redirecting...']);
    t.equal((await app.inject({ url: '/v1/getall-booking' })).statusCode, 401, 'the API stays protected');
    await wrong.page.context().close();
  });
});
