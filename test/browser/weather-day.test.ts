/**
 * Issue 21's weather day in Chromium, at 390 and 1280 px: staff open the Weather day panel from
 * the Day view, choose the date (on-site by default), confirm, and see the bookings asked as
 * "awaiting a new time"; moving one with the MoveDialog marks it "chose a new time". The customer's
 * manage page explains the weather move. Axe finds no violation in these states.
 */
import t from 'tap';
import { manageLinkFor } from '../../src/db/manage-link.repository.ts';
import { baseUrl, buildTestApp, login } from '../helper.ts';
import { axeViolations, launchBrowser, openPage, openView, signIn } from '../support/browser.ts';
import { inDays, originalClientPayload } from '../support/payloads.ts';

// Chromium at two widths: more than the default two minutes on a busy machine.
t.setTimeout(300_000);

t.test('the weather day in Chromium', async (t) => {
  const browser = await launchBrowser(t);

  // The browser on one database: the rules are checked on both by test/weather-day-21.test.ts.
  await t.test('on the first backend', async (t) => {
    const app = await buildTestApp(t, { listen: true });
    const book = async (overrides: Record<string, unknown>) => {
      const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload(overrides) });
      if (res.statusCode !== 201) throw new Error(`booking: ${res.statusCode} ${res.body}`);
      return res.json().booking as { _id: string };
    };

    for (const [index, width] of [1280, 390].entries()) {
      t.test(`staff ask, see who has chosen, and move one, ${width} px`, async (t) => {
        const date = inDays(4 + index);
        const aroha = await book({ date, time: '09:00', name: 'Aroha Smith', email: `aroha${width}@example.com` });
        await book({ date, time: '13:00', name: 'Ben Jones', email: `ben${width}@example.com` });
        const { page, problems } = await openPage(browser, width);
        await signIn(page, baseUrl(app), 'Sam');
        await openView(page, 'Day view');
        await page.getByLabel('Date', { exact: true }).fill(date);
        await page.getByRole('button', { name: 'Weather day' }).click();
        const panel = page.getByRole('region', { name: 'Weather day' });
        await panel.getByText(/Nobody has been asked/).waitFor();
        t.equal(await panel.getByLabel('Date').inputValue(), date, 'the panel starts at the day shown');
        t.ok(await panel.getByRole('radio', { name: 'On-site' }).isChecked(), 'on-site bookings by default');
        t.same(await axeViolations(page), [], 'no axe violation with the panel open');

        await panel.getByRole('button', { name: 'Ask customers to reschedule' }).click();
        await panel.getByText(/Ask every customer with an on-site booking on/).waitFor();
        t.equal(await app.db.selectFrom('weather_days').selectAll().where('date', '=', date).execute().then((rows) => rows.length), 0, 'nothing asked before the confirmation');
        await panel.getByRole('button', { name: 'Yes, ask them' }).click();
        await panel.getByRole('status').filter({ hasText: /Asked 2 customers with on-site bookings/ }).waitFor();
        await panel.getByText('On-site: 2 bookings asked, 2 awaiting a new time').waitFor();
        const item = (name: string) => panel.getByRole('listitem').filter({ hasText: name });
        t.match(await item('Aroha Smith').innerText(), /Awaiting a new time/);
        t.same(await axeViolations(page), [], 'no axe violation with the bookings asked');
        t.equal(await page.evaluate(() => document.documentElement.scrollWidth), width, 'nothing wider than the screen');
        const mails = await app.db.selectFrom('outbox_emails').select('kind').where('booking_id', '=', aroha._id).where('kind', '=', 'booking-weather').execute();
        t.equal(mails.length, 1, 'the apology e-mail is in the outbox');

        await item('Aroha Smith').getByRole('button', { name: 'Move Aroha Smith’s booking' }).click();
        const dialog = page.getByRole('dialog', { name: 'Move Aroha Smith’s job' });
        await dialog.getByLabel('Date').fill(inDays(12 + index));
        await dialog.getByRole('button', { name: 'Move job' }).click();
        await panel.getByText('On-site: 2 bookings asked, 1 awaiting a new time').waitFor();
        t.match(await item('Aroha Smith').innerText(), /Chose a new time/);
        t.match(await item('Ben Jones').innerText(), /Awaiting a new time/);
        const moved = await app.db.selectFrom('bookings').select(['date', 'weather_move_until', 'weather_day_id']).where('id', '=', aroha._id).executeTakeFirstOrThrow();
        t.equal(moved.date, inDays(12 + index));
        t.equal(moved.weather_move_until, null, 'no longer awaiting a new time');
        t.not(moved.weather_day_id, null, 'still shows it was asked');
        t.same(await axeViolations(page), [], 'no axe violation after the move');
        t.same(problems.consoleErrors, []);
        await page.context().close();
      });
    }

    t.test('the customer’s manage page explains the weather move, 390 px', async (t) => {
      const date = inDays(8);
      const booking = await book({ date, time: '10:00', name: 'Mere Ngata', email: 'mere-weather@example.com' });
      const asked = await app.inject({ method: 'POST', url: '/v1/weather-days', headers: { cookie: await login(app) }, payload: { date } });
      t.equal(asked.statusCode, 201, asked.body);
      const link = (await manageLinkFor(app.db, booking._id, baseUrl(app)))!;
      const { page, problems } = await openPage(browser, 390);
      await page.goto(link);
      await page.getByText(/We have had to ask you to choose a new time because of the weather/).waitFor();
      t.ok(await page.getByRole('link', { name: 'Move booking' }).isVisible(), 'the move is offered');
      t.same(await axeViolations(page), [], 'no axe violation on the manage page');
      t.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
      t.same(problems.consoleErrors, []);
      await page.context().close();
    });
  });
});
