/**
 * Issue 40, the customer's side of the service area: an on-site booking outside every zone is
 * refused with the outside message (drop-off is open to every postcode), a zone's travel fee is a
 * line of its own in the quote, the wizard without JavaScript, the manage page and the receipt;
 * GET /v1/service-area answers the wizard as the postcode is typed. Default zones (migrations):
 * Central Auckland 1010-1072 has no fee, Hibiscus Coast 0930-0933 has $25.
 */
import t from 'tap';
import { manageLinkFor } from '../src/db/manage-link.repository.ts';
import { outsideServiceArea } from '../src/domain/messages.ts';
import { buildTestApp, forEachBackend } from './helper.ts';
import { bayDay, inDays, originalClientPayload } from './support/payloads.ts';
import { seed, staffApp } from './support/completion.ts';
import { outbox } from './support/mail.ts';
import { composeQueued } from '../src/mail/booking-mail.ts';

const form = (fields: Record<string, unknown>) => new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])).toString();
const hydrationState = (html: string) => JSON.parse(/<script type="application\/json" id="__DATA__">([\s\S]*?)<\/script>/.exec(html)![1]!).state;

const CHRISTCHURCH = {
  service: 'Quick Clean',
  vehicleType: 'sm',
  selectedVehicleType: 'sm',
  houseNumber: '5',
  streetAddress: 'Cathedral Square',
  suburb: 'Christchurch Central',
  city: 'Christchurch',
  postalCode: '8011',
  region: 'Canterbury',
  serviceType: 'onsite',
};
const HIBISCUS = { ...CHRISTCHURCH, houseNumber: '12', streetAddress: 'Hibiscus Coast Highway', suburb: 'Orewa', city: 'Auckland', postalCode: '0931', region: 'Auckland' };

await forEachBackend(t, async (t, backend) => {
  const app = await buildTestApp(t, { backend });
  const outside = outsideServiceArea(app.config.business);
  const book = (payload: Record<string, unknown>) => app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload(payload) });
  const post = (fields: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/booking', payload: form(fields), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  const bookingsOf = (email: string) => app.db.selectFrom('bookings').selectAll().where('email', '=', email).execute();

  t.test('GET /v1/service-area: the zone and its fee, or not served, in the words the wizard shows', async (t) => {
    const central = await app.inject('/v1/service-area?postalCode=1060');
    t.equal(central.statusCode, 200);
    t.same(central.json(), { served: true, zone: { name: 'Central Auckland', travelFeeCents: 0 }, message: 'We come to Central Auckland — no travel fee' });
    t.equal(central.headers['cache-control'], 'public, max-age=60');
    t.same((await app.inject('/v1/service-area?postalCode=0931')).json(), { served: true, zone: { name: 'Hibiscus Coast', travelFeeCents: 2500 }, message: 'We come to Hibiscus Coast — travel fee $25.00' });
    t.same((await app.inject('/v1/service-area?postalCode=8011')).json(), { served: false, zone: null, message: outside });
    const bad = await app.inject('/v1/service-area?postalCode=10600');
    t.equal(bad.statusCode, 400);
    t.match(bad.json(), { errors: [{ field: 'postalCode', message: 'Please enter your 4-digit postcode' }] });
  });

  t.test('POST /v1/quote: the travel fee on site, never on drop-off, and a postcode in no zone refused', async (t) => {
    const quote = (payload: Record<string, unknown>) => app.inject({ method: 'POST', url: '/v1/quote', payload: { service: 'Quick Clean', vehicleType: 'sm', ...payload } });
    const onsite = await quote({ serviceType: 'onsite', postalCode: '0931' });
    t.equal(onsite.statusCode, 200);
    t.match(onsite.json(), { listPriceCents: 6900, discountCents: 0, travelFeeCents: 2500, totalCents: 9400 });
    const discounted = await quote({ serviceType: 'onsite', postalCode: '0931', email: 'new-hibiscus@example.com' });
    t.match(discounted.json(), { listPriceCents: 6900, discountCents: 1035, travelFeeCents: 2500, totalCents: 8365 }, 'the discount is on the list price only');
    t.match((await quote({ serviceType: 'dropoff', postalCode: '0931' })).json(), { travelFeeCents: 0, totalCents: 6900 });
    const refused = await quote({ serviceType: 'onsite', postalCode: '8011' });
    t.equal(refused.statusCode, 400);
    t.same(refused.json().errors, [{ field: 'postalCode', message: outside }]);
  });

  t.test('the Christchurch booking: refused on site naming postalCode, nothing written; accepted as drop-off', async (t) => {
    const email = 'christchurch@example.com';
    // Booked as a drop-off in the end: a day the bays work.
    const date = bayDay(4);
    const onsite = await book({ ...CHRISTCHURCH, email, date, time: '10:00' });
    t.equal(onsite.statusCode, 400);
    t.same(onsite.json().errors, [{ field: 'postalCode', message: outside }]);
    t.match(outside, /^Sorry, our vans don't come to that postcode yet\. You can drop your car at our Mount Wellington service centre, or call us on .+\.$/);
    t.same(await bookingsOf(email), [], 'nothing is written');

    const dropoff = await book({ ...CHRISTCHURCH, serviceType: 'dropoff', email, date, time: '10:00' });
    t.equal(dropoff.statusCode, 201, dropoff.body);
    t.match(dropoff.json().quote, { travelFeeCents: 0, totalCents: 5865 });
    t.match(await bookingsOf(email), [{ service_type: 'dropoff', travel_fee_cents: 0 }]);
  });

  t.test('a Hibiscus Coast booking on site: the fee in the quote, the total list − discount + fee', async (t) => {
    const email = 'orewa@example.com';
    const res = await book({ ...HIBISCUS, email, date: inDays(5), time: '11:00' });
    t.equal(res.statusCode, 201, res.body);
    const { quote } = res.json();
    t.match(quote, { listPriceCents: 6900, discountCents: 1035, travelFeeCents: 2500, discount: { kind: 'first-service', percent: 15 } });
    t.equal(quote.totalCents, 6900 - 1035 + 2500);
    t.match(await bookingsOf(email), [{ postal_code: '0931', travel_fee_cents: 2500, total_cents: 8365 }]);
  });

  t.test('without JavaScript: a postcode in no zone is an error on it, with the offer to drop off that keeps everything', async (t) => {
    const fields = { ...CHRISTCHURCH, coatingType: '', date: bayDay(6), time: '12:00', landmark: 'By the cathedral', step: '2' };
    const refused = await post({ ...fields, action: 'next' });
    t.equal(refused.statusCode, 400);
    const state = hydrationState(refused.body);
    t.match(state, { step: 2, area: { postalCode: '8011', served: false, zone: null } });
    t.same(state.errors, [{ field: 'postalCode', message: outside }]);
    t.equal(refused.body.split(outside.replaceAll("'", '&#x27;')).length - 1, 1, 'the message is shown once, beside the postcode');
    t.match(refused.body, /<p class="field-error" id="booking-postalCode-error" role="alert">Sorry, our vans/);
    const buttons = refused.body.match(/<button[^>]*>[^<]*<\/button>/g)!;
    const offer = buttons.findIndex((b) => b.endsWith('>Drop off at our service centre instead</button>'));
    t.ok(offer >= 0 && /type="submit"/.test(buttons[offer]!) && /name="action"/.test(buttons[offer]!) && /value="dropoff"/.test(buttons[offer]!), 'a submit button offers drop-off');
    const enter = buttons.findIndex((b) => /value="next"/.test(b));
    t.ok(enter < offer && /hidden=""/.test(buttons[enter]!), 'before it, a hidden Continue: Enter in a field still continues');

    const switched = await post({ ...fields, action: 'dropoff' });
    t.equal(switched.statusCode, 200);
    const after = hydrationState(switched.body);
    const { service, vehicleType, selectedVehicleType, ...place } = CHRISTCHURCH;
    const vehicle = { service, vehicleType, selectedVehicleType };
    t.match(after, { step: 2, errors: [], area: null, values: { ...place, vehicles: [vehicle], serviceType: 'dropoff', landmark: 'By the cathedral', date: bayDay(6), time: '12:00' } });
    t.match(switched.body, /<input type="radio" id="serviceType-dropoff" name="serviceType" checked=""/);
    t.ok(after.availability, "the date's times are shown for drop-off");

    const { saveAddress: _unticked, vehicles: _vehicles, ...kept } = after.values;
    const next = await post({ ...kept, ...vehicle, step: '2', action: 'next' });
    t.equal(next.statusCode, 200);
    t.match(hydrationState(next.body), { step: 3, quote: { travelFeeCents: 0 } });
  });

  t.test('without JavaScript: a served postcode says its zone and fee, the times are for it, and step 3 shows the fee', async (t) => {
    const fields = { ...HIBISCUS, coatingType: '', date: inDays(7), time: '', step: '2' };
    const noTime = await post({ ...fields, action: 'next' });
    t.equal(noTime.statusCode, 400);
    const state = hydrationState(noTime.body);
    t.same(state.errors.map((e: { field: string }) => e.field), ['time']);
    t.match(state.area, { served: true, zone: { name: 'Hibiscus Coast', travelFeeCents: 2500 } });
    t.match(noTime.body, /We come to Hibiscus Coast — travel fee \$25\.00/);
    t.equal(state.availability.slots.length, 14, "the date's times, asked with the postcode");

    const details = await post({ ...fields, time: '09:00', action: 'next' });
    t.equal(details.statusCode, 200);
    t.match(hydrationState(details.body).quote, { listPriceCents: 6900, travelFeeCents: 2500, totalCents: 9400 });
    t.match(details.body, /<dt>Travel fee<\/dt><dd>\$25\.00<\/dd>/);
    t.match(details.body, /<dt>Total<\/dt><dd>\$94\.00<\/dd>/);
  });
});

await forEachBackend(t, async (t, backend) => {
  const { app, complete } = await staffApp(t, backend, { GST_NUMBER: '123-456-789' });

  t.test('the manage page and the tax invoice show the travel fee as a line of its own; the GST is 3/23 of the total', async (t) => {
    const id = await seed(app, { postal_code: '0931', suburb: 'Orewa', travel_fee_cents: 2500, total_cents: 9400 });
    const token = (await manageLinkFor(app.db, id, 'http://x'))!.split('/').at(-1)!;
    const manage = await app.inject(`/booking/manage/${token}`);
    t.equal(manage.statusCode, 200);
    t.match(manage.body, /Travel fee<\/dt><dd[^>]*>\$25\.00</);

    const res = await complete(id, {});
    t.equal(res.statusCode, 200, res.body);
    t.match(res.json().receipt, { kind: 'tax-invoice', quotedCents: 9400, amountCents: 9400, travelFeeCents: 2500, gstCents: 1226 });
    const page = await app.inject(`/booking/receipt/${token}`);
    t.equal(page.statusCode, 200);
    t.match(page.body, /Travel fee<\/dt><dd[^>]*>\$25\.00</);
    t.match(page.body, /Total \(including GST\)<\/dt><dd[^>]*>\$94\.00</);
    t.match(page.body, /GST included<\/dt><dd[^>]*>\$12\.26</);
    const receipt = (await outbox(app, id)).map((m) => composeQueued(m, app.mail)).find((m) => m.kind === 'booking-receipt');
    t.match(receipt?.text_body, /Travel fee: \$25\.00/, 'and so does the receipt e-mail');
    t.match(receipt?.text_body, /GST included: \$12\.26/);
  });
});
