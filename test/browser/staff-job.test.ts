/**
 * Issue 41 in the dashboard, in Chromium at 390 and 1280 px: a job of two vehicles says so on its
 * card, and its details list both vehicles (plate, or make and model; size, package, add-ons) and
 * the lines; the edit of a late job shows each add-on's price and minutes, previews the new total
 * and time of one that fits, and an add-on that makes the job end after closing is refused with
 * the engine's reason, nothing saved. axe on each state; screenshots at 390 px in /tmp/wt41s-*.png.
 */
import t from 'tap';
import { SLOT_MESSAGES } from '../../src/domain/messages.ts';
import { baseUrl, buildTestApp, login } from '../helper.ts';
import { axeViolations, launchBrowser, openPage, signIn } from '../support/browser.ts';
import { inDays, originalClientPayload } from '../support/payloads.ts';

t.test('two vehicles in the details, and an add-on refused with the reason', async (t) => {
  const browser = await launchBrowser(t);
  const app = await buildTestApp(t, { listen: true });
  const base = baseUrl(app);
  const cookie = await login(app);
  const book = async (name: string, time: string, date: string, vehicles: object[]) => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/bookings',
      headers: { cookie },
      payload: { ...originalClientPayload({ name, email: '', phone: '021 555 4100', service: '', vehicleType: '', selectedVehicleType: '', date, time }), vehicles },
    });
    if (res.statusCode !== 201) throw new Error(res.body);
    return res.json().booking as { _id: string; version: number };
  };
  for (const width of [390, 1280]) {
    await t.test(`${width} px`, async (t) => {
      const phone = width === 390;
      const shot = async (name: string) => {
        if (phone) await page.screenshot({ path: `/tmp/wt41s-${name}.png` });
      };
      const date = inDays(phone ? 5 : 6);
      const pair = `Two Cars ${width}`;
      const late = `Late Job ${width}`;
      await book(pair, '10:00', date, [
        { service: 'Quick Clean', selectedVehicleType: 'sm', plate: 'TWO111', addOns: ['pet-hair'] },
        { service: 'Express Clean', selectedVehicleType: 'mid', make: 'Toyota', model: 'Corolla', colour: 'Silver' },
      ]);
      const lateJob = await book(late, '19:00', date, [{ service: 'Quick Clean', selectedVehicleType: 'sm', plate: 'LATE1' }]);

      const { page, problems } = await openPage(browser, width);
      await signIn(page, base, 'Sam');
      const card = page.locator('.booking-card').filter({ hasText: pair });
      t.match(await card.getByRole('heading').innerText(), 'Quick Clean · 2 vehicles', 'the card says how many vehicles');

      await page.getByRole('button', { name: new RegExp(`View Details.*${pair}`) }).click();
      const details = page.getByRole('dialog', { name: 'Booking Details' });
      await details.waitFor();
      const vehicles = details.locator('.modal-vehicles > li');
      t.equal(await vehicles.count(), 2, 'both vehicles listed');
      t.match(await vehicles.nth(0).innerText(), /TWO111[\s\S]*SM[\s\S]*Quick Clean[\s\S]*Add-ons\s*Pet hair removal/);
      t.match(await vehicles.nth(1).innerText(), /Toyota Corolla[\s\S]*MID[\s\S]*Silver[\s\S]*Express Clean/);
      t.match(await details.locator('.modal-lines').innerText(), /TWO111: Quick Clean, Small Car \(60 min\)\s*\$69\.00[\s\S]*TWO111: Pet hair removal \(30 min\)\s*\$45\.00[\s\S]*Toyota Corolla: Express Clean, Medium Car[\s\S]*Time/);
      t.same(await axeViolations(page), [], 'no axe violation on the details of two vehicles');
      await shot('modal-two-vehicles');
      // Closed before the next booking's details are opened in the same dialog.
      await page.keyboard.press('Escape');
      await details.waitFor({ state: 'hidden' });

      await page.getByRole('button', { name: new RegExp(`View Details.*${late}`) }).click();
      await details.getByRole('button', { name: 'Edit booking' }).click();
      const editor = page.getByRole('dialog', { name: /Edit booking/ });
      await editor.waitFor();
      const addOns = editor.getByRole('group', { name: 'Add-ons' });
      t.match(await addOns.innerText(), /Pet hair removal \(\$45\.00, 30 min\)/, 'each add-on with its price and minutes');
      // Only the add-ons that fit the package: Window Tinting takes the headlights alone.
      await editor.getByLabel('Package').selectOption('Window Tinting');
      t.same(await addOns.getByRole('checkbox').allInnerTexts(), [''], 'one add-on fits Window Tinting');
      t.match(await addOns.innerText(), /^Add-ons\s*Headlight restoration \(pair\)/);
      await editor.getByLabel('Package').selectOption('Quick Clean');

      await addOns.getByLabel(/Pet hair removal/).check();
      await editor.getByRole('button', { name: 'Preview' }).click();
      await editor.getByRole('heading', { name: 'What will change' }).waitFor();
      t.match(await editor.locator('.change-lines').innerText(), /Vehicles[\s\S]*LATE1 \(Small Car\): Quick Clean → LATE1 \(Small Car\): Quick Clean \+ Pet hair removal/);
      t.match(await editor.locator('.quote-lines').innerText(), /Pet hair removal \(30 min\)\s*\$45\.00\s*Time\s*90 min[\s\S]*Total\s*\$114\.00/, 'the new total and minutes');

      await addOns.getByLabel(/Headlight restoration/).check();
      await editor.getByRole('button', { name: 'Save changes' }).click();
      await editor.getByText(SLOT_MESSAGES.endsAfterClosing).waitFor();
      t.same(await axeViolations(page), [], 'no axe violation on the refusal');
      await shot('edit-refused');
      const row = await app.db.selectFrom('bookings').selectAll().where('id', '=', lateJob._id).executeTakeFirstOrThrow();
      t.match(row, { version: lateJob.version, list_price_cents: 6900 }, 'nothing saved');
      t.same(row.vehicles[0]!.addOns, []);
      t.same(problems.failedRequests.filter((r) => !r.endsWith(' 409')), [], 'no failed request but the refusal');
      t.same(problems.consoleErrors.filter((e) => !e.includes('409')), []);
      await page.close();
    });
  }
});
