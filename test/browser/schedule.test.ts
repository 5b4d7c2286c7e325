/**
 * Issue 20 in Chromium, the staff half: the day timeline shows two vans with their jobs (columns
 * on a desktop, stacked at 390 px) and the jobs that need a van; a staff move refused for overlap
 * shows why, and one that fits is saved; the week's booked hours; the Schedule view's vans and
 * bays (deactivation refused while one holds jobs, with the jobs listed), hours and closures.
 * Axe finds no violation in any of these states.
 */
import t from 'tap';
import { RESOURCE_MESSAGES } from '../../src/services/resources.service.ts';
import { RESOURCE_BUSY_MESSAGE } from '../../src/services/scheduling.service.ts';
import { baseUrl, buildTestApp, forEachBackend } from '../helper.ts';
import { axeViolations, launchBrowser, openPage, openView, signIn } from '../support/browser.ts';
import { bookingRow, inDays, originalClientPayload } from '../support/payloads.ts';

t.test('the schedule in Chromium', async (t) => {
  const browser = await launchBrowser(t);

  await forEachBackend(t, async (t, backend) => {
    const app = await buildTestApp(t, { backend, listen: true });
    const date = inDays(3);
    const book = async (overrides: Record<string, unknown>) => {
      const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload(overrides) });
      if (res.statusCode !== 201) throw new Error(`booking: ${res.statusCode} ${res.body}`);
      return res.json().booking as { _id: string; resourceId: string };
    };
    const deluxe = await book({ date, time: '09:00', name: 'Aroha Smith', email: 'aroha@example.com' });
    const quick = await book({ date, time: '09:00', name: 'Ben Jones', email: 'ben@example.com', service: 'Quick Clean', vehicleType: 'sm', selectedVehicleType: 'sm' });
    await app.db.insertInto('bookings').values(bookingRow({ date: inDays(2), time: '10:00', name: 'Old Overbooking' })).execute();
    const resources = await app.db.selectFrom('resources').select(['id', 'name']).orderBy('position').execute();
    const van = (name: string) => resources.find((r) => r.name === name)!.id;
    t.same([deluxe.resourceId, quick.resourceId], [van('Van 1'), van('Van 2')], 'the two 09:00 jobs are on the two vans');

    for (const width of [1280, 390]) {
      t.test(`the timeline shows two vans with their jobs, ${width} px`, async (t) => {
        const { page, problems } = await openPage(browser, width);
        await signIn(page, baseUrl(app), 'Sam');
        await openView(page, 'Day view');
        await page.getByLabel('Date', { exact: true }).fill(date);
        const lane = (name: string) => page.getByRole('region', { name, exact: true });
        await lane('Van 1').locator('.job').filter({ hasText: 'Aroha Smith' }).waitFor();
        t.match(await lane('Van 1').innerText(), /On-site · 07:00–21:00 · 1 job[\s\S]*09:00–12:30[\s\S]*Deluxe Clean · MID · Aroha Smith[\s\S]*\+ 15 min gap, to 12:45/);
        t.match(await lane('Van 2').innerText(), /1 job[\s\S]*09:00–10:00[\s\S]*Quick Clean · SM · Ben Jones[\s\S]*\+ 15 min gap, to 10:15/);
        t.notMatch(await lane('Van 1').innerText(), /Ben Jones/);
        const needs = page.getByRole('region', { name: /Needs a van or bay/ });
        t.match(await needs.innerText(), /Needs a van or bay \(1\)[\s\S]*10:00[\s\S]*Old Overbooking/);
        const [one, two] = await Promise.all([lane('Van 1').boundingBox(), lane('Van 2').boundingBox()]);
        if (width === 1280) t.ok(one!.y === two!.y && two!.x > one!.x, 'columns side by side on a desktop');
        else t.ok(two!.y > one!.y + one!.height - 1 && Math.abs(two!.x - one!.x) < 1, 'stacked lists on a phone');
        const job = lane('Van 1').getByRole('listitem').filter({ hasText: 'Aroha Smith' });
        const buffer = job.locator('.job-buffer');
        if (width === 1280) {
          const [jobBox, laneBody] = await Promise.all([job.boundingBox(), lane('Van 1').locator('.lane-body').boundingBox()]);
          const hour = (laneBody!.height / 14);
          t.ok(Math.abs(jobBox!.y - laneBody!.y - 2 * hour) < 3, 'drawn from 09:00 (two hours after 07:00)');
          t.ok(Math.abs(jobBox!.height - 3.75 * hour) < 4, 'for 3 h 30 min and its 15 min of least gap');
          t.ok((await buffer.boundingBox())!.height > hour / 3, 'the travel buffer is drawn');
        }
        t.same(await axeViolations(page), [], 'no axe violation on the timeline');
        t.equal(await page.evaluate(() => document.documentElement.scrollWidth), width, 'nothing wider than the screen');

        await page.getByRole('button', { name: 'Week' }).click();
        const table = page.getByRole('table', { name: /Booked hours/ });
        await table.waitFor();
        const row = (name: string) => table.getByRole('row', { name: new RegExp(`^${name}`) });
        t.match(await row('Van 1').innerText(), /3 h 30 min[\s\S]*1 job · of 14 h/);
        t.match(await row('Van 2').innerText(), /1 h[\s\S]*1 job · of 14 h/);
        t.same(await axeViolations(page), [], 'no axe violation on the week');
        t.same(problems.consoleErrors, []);
        await page.context().close();
      });
    }

    t.test('a staff move refused for overlap shows why; one that fits is saved', async (t) => {
      const { page, problems } = await openPage(browser, 390);
      await signIn(page, baseUrl(app), 'Sam');
      await openView(page, 'Day view');
      await page.getByLabel('Date', { exact: true }).fill(date);
      await page.getByRole('button', { name: 'Move Ben Jones’s job at 09:00' }).click();
      const dialog = page.getByRole('dialog', { name: 'Move Ben Jones’s job' });
      await dialog.getByLabel('Van', { exact: true }).selectOption({ label: 'Van 1' });
      await dialog.getByRole('button', { name: 'Move job' }).click();
      await dialog.getByRole('alert').filter({ hasText: RESOURCE_BUSY_MESSAGE }).waitFor();
      t.pass('the engine says why: Van 1 is busy then');
      t.same(await axeViolations(page), [], 'no axe violation with the refusal shown');
      const unchanged = await app.db.selectFrom('bookings').select(['time', 'resource_id', 'version']).where('id', '=', quick._id).executeTakeFirstOrThrow();
      t.same(unchanged, { time: '09:00', resource_id: van('Van 2'), version: 1 }, 'nothing changed');

      // Keyboard only: the time and the van by their labels, Enter on the button to send.
      await dialog.getByLabel('Start time').selectOption('15:00');
      await dialog.getByLabel('Van', { exact: true }).selectOption({ label: 'Let the schedule choose' });
      await dialog.getByRole('button', { name: 'Move job' }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('status').filter({ hasText: /Moved Ben Jones’s job to .* at 15:00, Van 1\./ }).waitFor();
      await t.resolves(dialog.waitFor({ state: 'hidden' }), 'the form closes');
      const lane1 = page.getByRole('region', { name: 'Van 1', exact: true });
      await lane1.locator('.job').filter({ hasText: 'Ben Jones' }).waitFor();
      t.match(await lane1.innerText(), /15:00–16:00[\s\S]*Ben Jones/);
      const moved = await app.db.selectFrom('bookings').select(['time', 'resource_id', 'version']).where('id', '=', quick._id).executeTakeFirstOrThrow();
      t.same(moved, { time: '15:00', resource_id: van('Van 1'), version: 2 });

      await page.getByRole('button', { name: 'Move Old Overbooking’s job' }).click();
      await page.getByRole('dialog', { name: 'Move Old Overbooking’s job' }).getByRole('button', { name: 'Move job' }).click();
      await page.getByRole('status').filter({ hasText: /Moved Old Overbooking’s job/ }).waitFor();
      await page.getByRole('region', { name: /Needs a van or bay/ }).waitFor({ state: 'detached' });
      t.pass('the job needing a van got one at its own time');
      t.same(problems.consoleErrors.filter((e) => !e.includes('409')), []);
      await page.context().close();
    });

    t.test('the Schedule view: vans and bays, deactivation refused while one holds jobs, hours, a closure for one van', async (t) => {
      const { page, problems } = await openPage(browser, 1280);
      await signIn(page, baseUrl(app), 'Sam');
      await openView(page, 'Schedule');
      const panel = page.getByRole('region', { name: 'Vans and bays' });
      await panel.getByText('Van 1').first().waitFor();

      await panel.getByRole('button', { name: 'Deactivate Van 1' }).click();
      await panel.getByText(RESOURCE_MESSAGES.holdsJobs).waitFor();
      t.match(await panel.innerText(), /Aroha Smith[\s\S]*Ben Jones/, 'the jobs it holds are listed');
      t.equal((await app.db.selectFrom('resources').select('active').where('id', '=', van('Van 1')).executeTakeFirstOrThrow()).active, true);
      t.same(await axeViolations(page), [], 'no axe violation with the refusal listed');

      await panel.getByLabel('Name').fill('Van 3');
      await panel.getByLabel('Kind').selectOption({ label: 'On-site van' });
      await panel.getByRole('button', { name: 'Add', exact: true }).click();
      await panel.getByText('Added Van 3.').waitFor();
      await panel.getByRole('button', { name: 'Up Van 3' }).click();
      await panel.getByText('Van 3 moved up.').waitFor();
      t.same(
        (await app.db.selectFrom('resources').select('name').orderBy('position').orderBy('created_at').execute()).map((r) => r.name),
        ['Van 1', 'Van 2', 'Bay 1', 'Van 3', 'Bay 2'],
      );
      await panel.getByRole('button', { name: 'Deactivate Van 3' }).click();
      await panel.getByText('Van 3 is deactivated: it takes no new jobs.').waitFor();

      const hours = page.getByRole('form', { name: 'Drop-off hours (bays)' });
      await hours.getByLabel('Saturday open', { exact: true }).uncheck();
      await hours.getByRole('button', { name: 'Save drop-off hours' }).click();
      await hours.getByText(/Saved\./).waitFor();
      t.equal((await app.db.selectFrom('working_hours').selectAll().where('kind', '=', 'dropoff').where('weekday', '=', 6).execute()).length, 0);
      await page.getByLabel('Least gap between two jobs of a van (minutes)').fill('45');
      await page.getByRole('button', { name: 'Save least gap' }).click();
      await page.getByText(/at least 45 minutes before its next job/).waitFor();

      const close = page.getByRole('form', { name: 'Close a date or a time' });
      await close.getByLabel('Date').fill(date);
      await close.getByLabel('From').selectOption('12:00');
      await close.getByLabel('To').selectOption('16:00');
      await close.getByLabel('Closed for').selectOption({ label: 'Van 2' });
      await close.getByLabel('Reason').fill('Van 2 in the workshop');
      await close.getByRole('button', { name: 'Close', exact: true }).click();
      await close.getByText(/Closed .*, 12:00–16:00 for Van 2\./).waitFor();
      const stored = await app.db.selectFrom('closures').selectAll().executeTakeFirstOrThrow();
      t.match(stored, { date, from_time: '12:00', to_time: '16:00', resource_id: van('Van 2'), kind: null, reason: 'Van 2 in the workshop' });
      const listed = page.getByRole('region', { name: 'Closed dates and times' }).getByRole('listitem').filter({ hasText: 'Van 2 in the workshop' });
      await listed.waitFor();
      t.match(await listed.innerText(), /12:00–16:00[\s\S]*Van 2 · Van 2 in the workshop/);
      t.same(await axeViolations(page), [], 'no axe violation on the Schedule view');
      t.same(problems.consoleErrors.filter((e) => !e.includes('409')), []);
      await page.context().close();
    });
  });
});
