/** The contact form and the booking wizard posted as plain HTML forms, as a browser without JavaScript does. */
import t from 'tap';
import { buildTestApp, forEachBackend } from './helper.ts';
import { EMPTY_SCHEDULE_MESSAGES, inDays, originalClientPayload } from './support/payloads.ts';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const hydrationState = (html: string) => JSON.parse(/<script type="application\/json" id="__DATA__">([\s\S]*?)<\/script>/.exec(html)![1]!).state;

forEachBackend(t, async (t, backend) => {
  const app = await buildTestApp(t, { backend, env: { BOOKING_SLOT_CAPACITY: '1' } });
  const post = (url: string, fields: Record<string, string>) =>
    app.inject({ method: 'POST', url, payload: form(fields), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  const bookings = () => app.db.selectFrom('bookings').selectAll().execute();

  t.test('contact: errors come back beside the fields with the values kept, and nothing is stored', async (t) => {
    const res = await post('/contact', { name: 'Tane <b>', email: 'not-an-email', phone: '021 555 1234', message: '' });
    t.equal(res.statusCode, 400);
    t.equal(res.headers['cache-control'], 'no-store');
    const state = hydrationState(res.body);
    t.same(state.errors, [
      { field: 'email', message: 'Please enter a valid email address' },
      { field: 'message', message: 'Please enter your message' },
    ]);
    t.match(res.body, /<p class="field-error" id="contact-email-error" role="alert">Please enter a valid email address<\/p>/);
    t.match(res.body, /value="Tane &lt;b&gt;"/, 'the value is kept, escaped');
    t.equal((await app.db.selectFrom('contact_messages').selectAll().execute()).length, 0);
  });

  t.test('contact: a valid post is stored and redirected to the thank-you view', async (t) => {
    const res = await post('/contact', { name: 'Tane Walker', email: 'tane@example.com', phone: '021 555 1234', message: 'Fleet quote please' });
    t.equal(res.statusCode, 303);
    t.equal(res.headers.location, '/contact?sent=1#send-message');
    const rows = await app.db.selectFrom('contact_messages').selectAll().execute();
    t.match(rows, [{ name: 'Tane Walker', message: 'Fleet quote please' }]);
    const thanks = await app.inject('/contact?sent=1');
    t.equal(thanks.statusCode, 200);
    t.match(thanks.body, /role="status"[^>]*>.*Thank you for your message/);
  });

  t.test('booking: each step is checked with the shared rules and the values ride along', async (t) => {
    const step1 = await post('/booking', { step: '1', action: 'next', service: 'Ceramic Coating' });
    t.equal(step1.statusCode, 400, 'no size chosen');
    t.match(hydrationState(step1.body), { step: 1, errors: [{ field: 'vehicleType', message: 'Please select your vehicle size' }], values: { coatingType: 'coat1' } });

    const step2 = await post('/booking', { step: '1', action: 'next', service: 'Ceramic Coating', selectedVehicleType: 'Sedan' });
    t.equal(step2.statusCode, 200);
    t.match(hydrationState(step2.body), { step: 2, errors: [], values: { service: 'Ceramic Coating', coatingType: 'coat1', vehicleType: 'mid', selectedVehicleType: 'Sedan' } });
    t.match(step2.body, /<input type="hidden" name="vehicleType" value="mid"\/>/);

    const missing = await post('/booking', { step: '2', action: 'next', service: 'Ceramic Coating', coatingType: 'coat1', vehicleType: 'mid', selectedVehicleType: 'Sedan', serviceType: 'onsite' });
    t.equal(missing.statusCode, 400);
    t.same(hydrationState(missing.body).errors.map((e: { message: string }) => e.message), EMPTY_SCHEDULE_MESSAGES);

    const back = await post('/booking', { step: '2', action: 'back', service: 'Ceramic Coating', selectedVehicleType: 'Sedan', date: inDays(2) });
    t.match(hydrationState(back.body), { step: 1, errors: [], values: { date: inDays(2) } }, 'Previous Step goes back without checking and keeps the values');
    t.same(await bookings(), []);
  });

  t.test('booking: the last step books, redirects home and shows the confirmation', async (t) => {
    const fields = { ...originalClientPayload({ service: 'Quick Clean', selectedVehicleType: 'suv', vehicleType: 'suv', serviceType: 'dropoff', houseNumber: '', streetAddress: '', suburb: '', city: '', postalCode: '', region: '', date: inDays(5), time: '08:00' }), saveAddress: '' } as Record<string, string>;
    delete fields.saveAddress;
    const details = await post('/booking', { ...fields, step: '3', action: 'next', name: '', email: 'x', phone: '12' });
    t.equal(details.statusCode, 400);
    t.same(hydrationState(details.body).errors.map((e: { field: string }) => e.field), ['name', 'email', 'phone']);
    t.match(details.body, /Please correct the following errors:/);
    t.same(await bookings(), [], 'step 3 errors block the booking');

    const done = await post('/booking', { ...fields, step: '3', action: 'next' });
    t.equal(done.statusCode, 303);
    const [stored] = await bookings();
    t.match(stored, { service: 'Quick Clean', vehicle_type: 'suv', service_type: 'dropoff', date: inDays(5), time: '08:00', name: 'Mere Ngata', save_address: false });
    t.equal(done.headers.location, `/?booking=received&ref=${stored!.reference}`, 'the redirect names the booking by its reference');
    const home = await app.inject(done.headers.location as string);
    t.match(home.body, new RegExp(`role="status"[^>]*>.*Thank you! Your booking has been received. Your booking reference is ${stored!.reference}.`));
    t.equal(home.headers['cache-control'], 'no-store', 'rendered for this request, not cached per reference');

    const full = await post('/booking', { ...fields, step: '3', action: 'next', name: 'Someone Else' });
    t.equal(full.statusCode, 409, 'the slot is full (capacity 1)');
    t.match(hydrationState(full.body), { step: 2, formError: /fully booked/, errors: [{ field: 'time' }] });
    t.equal((await bookings()).length, 1);
  });

  t.test('a forged or oversized form post is a 400 in the error shape', async (t) => {
    const unknown = await post('/booking', { step: '9', service: 'Quick Clean' });
    t.equal(unknown.statusCode, 400);
    t.match(unknown.json(), { message: String, errors: [{ field: 'step' }] });
    const long = await post('/contact', { name: 'x'.repeat(500), email: 'a@b.co', phone: '021 555 1234', message: 'hi' });
    t.equal(long.statusCode, 400);
    t.equal((await app.db.selectFrom('contact_messages').selectAll().execute()).length, 1, 'still only the one message');
  });
});
