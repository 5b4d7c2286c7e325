/**
 * Issue 41 in the wizard without JavaScript: "Add another vehicle" and "Remove" are submit buttons
 * that keep everything entered; a later vehicle's controls are named `vehicles[1][service]`; step
 * 1 leaves with the add-ons that fit; the summary lists the lines and the time; the booking stores
 * both vehicles and the add-on. A service page's Book Now opens the wizard with its add-on chosen.
 */
import t from 'tap';
import { buildTestApp, forEachBackend } from './helper.ts';
import { bayDay } from './support/payloads.ts';
import { manageLinkFor } from '../src/db/manage-link.repository.ts';

const hydrationState = (html: string) => JSON.parse(/<script type="application\/json" id="__DATA__">([\s\S]*?)<\/script>/.exec(html)![1]!).state;
const form = (fields: [string, string][]) => new URLSearchParams(fields).toString();
/** Every control of a server-rendered form (hidden fields included) as it would post, ticked boxes and checked radios only. */
function formFields(html: string): [string, string][] {
  const body = html.slice(html.indexOf('<form class="card form wizard"'), html.indexOf('</form>'));
  return [...body.matchAll(/<input ([^>]*)\/?>/g)]
    .map((m) => m[1]!)
    .filter((attrs) => !/type="(radio|checkbox)"/.test(attrs) || /checked=""/.test(attrs))
    .filter((attrs) => / name="/.test(attrs))
    .map((attrs) => [/ name="([^"]*)"/.exec(attrs)![1]!.replaceAll('&amp;', '&'), (/ value="([^"]*)"/.exec(attrs)?.[1] ?? '').replaceAll('&amp;', '&')]);
}

await forEachBackend(t, async (t, backend) => {
  const app = await buildTestApp(t, { backend });
  const post = (fields: [string, string][]) =>
    app.inject({ method: 'POST', url: '/booking', payload: form(fields), headers: { 'content-type': 'application/x-www-form-urlencoded' } });

  t.test('two vehicles and an add-on without JavaScript: add, remove, the summary lines, booking it', async (t) => {
    const first: [string, string][] = [['step', '1'], ['service', 'Quick Clean'], ['selectedVehicleType', 'sm'], ['addOns', 'pet-hair'], ['make', ''], ['model', ''], ['colour', ''], ['plate', 'abc 123']];
    const added = await post([...first, ['action', 'add-vehicle']]);
    t.equal(added.statusCode, 200);
    let state = hydrationState(added.body);
    t.match(state, { step: 1, errors: [], values: { vehicles: [{ service: 'Quick Clean', addOns: ['pet-hair'], plate: 'abc 123' }, { service: '' }] } }, 'the first vehicle is kept');
    t.match(added.body, /<button type="submit" value="remove-1"[^>]*name="action"[^>]*>Remove<\/button>/, 'the second can be removed');
    t.match(added.body, /<input [^>]*id="v1-service-deluxe-clean"[^>]*>/, "the second vehicle's packages");
    t.match(added.body, /\+\$45\.00, \+30 min/, "an add-on's price and minutes for the small car");

    const third = await post([...formFields(added.body), ['vehicles[1][service]', 'Express Clean'], ['vehicles[1][selectedVehicleType]', 'suv'], ['action', 'add-vehicle']]);
    state = hydrationState(third.body);
    t.equal(state.values.vehicles.length, 3);
    const removed = await post([...formFields(third.body), ['action', 'remove-2']]);
    state = hydrationState(removed.body);
    t.match(state.values.vehicles, [{ service: 'Quick Clean' }, { service: 'Express Clean', selectedVehicleType: 'suv' }], 'Remove takes out that vehicle and keeps the others');
    t.equal(state.values.vehicles.length, 2);

    const missingSize = await post([...formFields(removed.body).filter(([name]) => name !== 'vehicles[1][selectedVehicleType]'), ['action', 'next']]);
    t.equal(missingSize.statusCode, 400);
    t.match(hydrationState(missingSize.body).errors, [{ field: 'vehicles[1].vehicleType', message: 'Please select your vehicle size' }], "the second vehicle's error names it");

    const step2 = await post([...formFields(removed.body), ['action', 'next']]);
    t.equal(step2.statusCode, 200);
    t.match(hydrationState(step2.body), { step: 2, values: { vehicles: [{ vehicleType: 'sm', addOns: ['pet-hair'] }, { vehicleType: 'suv', addOns: [] }] } });
    t.match(step2.body, /<input type="hidden" name="vehicles\[1\]\[service\]" value="Express Clean"\/>/, 'the vehicles ride along');

    const date = bayDay(6);
    const schedule = [...formFields(step2.body).filter(([name]) => !['date', 'time', 'serviceType'].includes(name)), ['serviceType', 'dropoff'], ['date', date], ['time', '09:00']] as [string, string][];
    const step3 = await post([...schedule, ['action', 'next']]);
    t.equal(step3.statusCode, 200, 'step 3');
    const quote = hydrationState(step3.body).quote;
    t.same(
      quote.lines.map((l: { description: string; totalCents: number }) => [l.description, l.totalCents]),
      [['ABC123: Quick Clean, Small Car', 6900], ['ABC123: Pet hair removal', 4500], ['Vehicle 2: Express Clean, SUV/UTE', 12500]],
    );
    t.match(step3.body, /<dt>ABC123: Pet hair removal<\/dt><dd>\$45\.00<\/dd>/, 'the summary lists the lines');
    t.match(step3.body, /<dt>Time<\/dt><dd>about \d[^<]* hours<\/dd>/, 'and the time');

    const details = [...formFields(step3.body).filter(([name]) => !['name', 'email', 'phone'].includes(name)), ['name', 'Two Cars'], ['email', 'two@example.com'], ['phone', '021 123 4567']] as [string, string][];
    const booked = await post([...details, ['action', 'next']]);
    t.equal(booked.statusCode, 303, booked.body.slice(0, 300));
    const row = await app.db.selectFrom('bookings').selectAll().where('email', '=', 'two@example.com').executeTakeFirstOrThrow();
    t.match(row.vehicles, [{ service: 'Quick Clean', addOns: ['pet-hair'], plate: 'ABC123' }, { service: 'Express Clean', vehicleType: 'suv' }], 'both vehicles and the add-on are stored');
    t.equal(row.list_price_cents, 6900 + 4500 + 12500);

    const manage = await app.inject(new URL((await manageLinkFor(app.db, row.id, 'http://x'))!).pathname);
    t.equal(manage.statusCode, 200);
    t.match(manage.body, /<dt>Vehicles<\/dt><dd>2 vehicles<\/dd>/, 'the manage page counts the vehicles');
    t.notMatch(manage.body, /<dt>Package<\/dt>/, 'instead of one package');
    t.match(manage.body, /<dt>ABC123: Quick Clean, Small Car<\/dt><dd>\$69\.00<\/dd><\/div><div><dt>ABC123: Pet hair removal<\/dt><dd>\$45\.00<\/dd><\/div><div><dt>Vehicle 2: Express Clean, SUV\/UTE<\/dt><dd>\$125\.00<\/dd>/, 'and lists its lines');
    t.notMatch(manage.body, /List price/);
    t.match(manage.body, /<dt>First-service discount 15%<\/dt><dd>−\$35\.85<\/dd><\/div><div class="fact-total"><dt>Total \(pay on completion\)<\/dt><dd>\$203\.15<\/dd>/, 'then the discount and the total');
  });

  t.test("a service page's Book Now opens the wizard with its add-on and a package it fits", async (t) => {
    const page = await app.inject('/services/headlight');
    t.match(page.body, /href="\/booking\?addOn=headlight-restoration"/);
    const wizard = await app.inject('/booking?addOn=headlight-restoration');
    t.match(hydrationState(wizard.body).values.vehicles, [{ service: 'Quick Clean', addOns: ['headlight-restoration'] }]);
    t.match(wizard.body, /<input type="checkbox" name="addOns" checked="" value="headlight-restoration"\/>/, 'ticked in the markup, for readers without JavaScript');
    t.match((await app.inject('/services/engine-bay')).body, /href="\/booking\?addOn=engine-bay"/);
  });
});
