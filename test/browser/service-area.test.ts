/**
 * Issue 40 in Chromium, the staff half: the Schedule view's service area at 390 and 1280 px. Add a
 * zone, change a fee, see the list; an overlap is refused with the other zone named next to the
 * postcodes; the drive between two zones set and reset; the days to re-plan listed. Axe finds no
 * violation.
 */
import t from 'tap';
import { baseUrl, buildTestApp, login } from '../helper.ts';
import { axeViolations, launchBrowser, openPage, openView, signIn } from '../support/browser.ts';
import { nextWeekday, originalClientPayload } from '../support/payloads.ts';

t.test('the service area in Chromium', async (t) => {
  const browser = await launchBrowser(t);
  const app = await buildTestApp(t, { listen: true });
  const cookie = await login(app);
  const zoneId = async (name: string) => (await app.db.selectFrom('service_zones').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;

  // Two jobs of one van, Central then North Shore, and a drive between them longer than their gap.
  const date = nextWeekday(3, 3);
  const book = async (time: string, postalCode: string, email: string) => {
    const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date, time, postalCode, email, service: 'Quick Clean' }) });
    if (res.statusCode !== 201) throw new Error(`booking: ${res.statusCode} ${res.body}`);
    return res.json().booking as { _id: string; reference: string; resourceId: string; version: number };
  };
  const first = await book('09:00', '1010', 'first@example.com');
  const second = await book('13:00', '0622', 'second@example.com');
  if (second.resourceId !== first.resourceId) {
    const moved = await app.inject({ method: 'POST', url: `/v1/bookings/${second._id}/move`, headers: { cookie }, payload: { version: second.version, date, time: '13:00', resourceId: first.resourceId } });
    t.equal(moved.statusCode, 200, 'both jobs on one van');
  }
  const raised = await app.inject({ method: 'PUT', url: '/v1/zone-travel', headers: { cookie }, payload: { zoneA: await zoneId('Central Auckland'), zoneB: await zoneId('North Shore'), minutes: 240 } });
  t.equal(raised.statusCode, 200);

  for (const width of [390, 1280]) {
    t.test(`zones, travel and the days to re-plan at ${width} px`, async (t) => {
      const { page, problems } = await openPage(browser, width);
      await signIn(page, baseUrl(app), 'Sam');
      await openView(page, 'Schedule');
      const panel = page.getByRole('region', { name: 'Service area' });
      await panel.getByRole('listitem').filter({ hasText: 'Hibiscus Coast' }).waitFor();
      t.match(await panel.getByRole('listitem').filter({ hasText: 'Hibiscus Coast' }).innerText(), /0930-0933[\s\S]*Travel fee \$25\.00 · 45 min from the centre/);

      const replan = panel.getByRole('list', { name: 'Days to re-plan' });
      t.match(await replan.innerText(), new RegExp(`${first.reference} at 09:00 \\(Central Auckland\\) then ${second.reference} at 13:00 \\(North Shore\\)[\\s\\S]*240 min drive`));

      const name = `Waiheke ${width}`;
      const add = panel.getByRole('form', { name: 'Add a zone' });
      await add.getByLabel('Name').fill(name);
      await add.getByLabel('Postcodes').fill('0625');
      await add.getByLabel('Travel fee ($, GST incl.)').fill('60');
      await add.getByLabel('Minutes from the centre').fill('90');
      await add.getByRole('button', { name: 'Add zone' }).click();
      await add.getByText('Those postcodes are already in North Shore').waitFor();
      t.equal(await add.getByLabel('Postcodes').getAttribute('aria-invalid'), 'true', 'the error is on the postcodes');
      t.same(await axeViolations(page), [], 'no axe violation with the refusal shown');

      await add.getByLabel('Postcodes').fill(width === 390 ? '1081' : '1971');
      await add.getByRole('button', { name: 'Add zone' }).click();
      await panel.getByText(`Added ${name}`).waitFor();
      // The list is read again after the answer: wait for the row itself.
      const row = panel.getByRole('listitem').filter({ hasText: name });
      await row.filter({ hasText: 'Travel fee $60.00 · 90 min from the centre' }).waitFor();

      await panel.getByRole('button', { name: `Edit ${name}` }).click();
      const edit = panel.getByRole('form', { name: `Edit ${name}` });
      await edit.getByLabel('Travel fee ($, GST incl.)').fill('65.50');
      await edit.getByRole('button', { name: 'Save zone' }).click();
      await panel.getByText(`Saved ${name}.`).waitFor();
      await row.filter({ hasText: 'Travel fee $65.50' }).waitFor();
      t.equal((await app.db.selectFrom('service_zones').select('travel_fee_cents').where('name', '=', name).executeTakeFirstOrThrow()).travel_fee_cents, 6550);

      const travel = panel.getByRole('form', { name: 'Driving between zones' });
      await travel.getByLabel('From zone').selectOption({ label: 'Central Auckland' });
      await travel.getByLabel('To zone').selectOption({ label: 'East Auckland' });
      await travel.getByText('Now: 35 minutes (the default)').waitFor();
      await travel.getByLabel('Driving minutes (0 to 240)').fill('25');
      await travel.getByRole('button', { name: 'Save minutes' }).click();
      await travel.getByText('The drive between Central Auckland and East Auckland is now 25 minutes.').waitFor();
      await travel.getByText('Now: 25 minutes (set by staff)').waitFor();
      if (width === 390) await panel.screenshot({ path: '/tmp/wt-zones-390.png' });
      t.same(await axeViolations(page), [], `no axe violation at ${width} px`);
      await travel.getByRole('button', { name: 'Reset to default' }).click();
      await travel.getByText('Now: 35 minutes (the default)').waitFor();

      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      t.equal(overflow, 0, 'nothing runs off the side');
      t.same(problems.consoleErrors.filter((e) => !e.includes('409')), []);
      await page.context().close();
    });
  }
});
