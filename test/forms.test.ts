/** The contact form and the booking wizard posted as plain HTML forms, as a browser without JavaScript does. */
import { brotliDecompressSync } from 'node:zlib';
import t from 'tap';
import { buildTestApp, forEachBackend } from './helper.ts';
import { weekdayOf } from '../src/domain/availability.ts';
import { EMPTY_SCHEDULE_MESSAGES, inDays, originalClientPayload } from './support/payloads.ts';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** A Quick Clean drop-off as the wizard's last step posts it (an unticked box is not sent). */
function dropOffFields(overrides: Record<string, string>): Record<string, string> {
  const { saveAddress: _unticked, ...fields } = originalClientPayload({ service: 'Quick Clean', serviceType: 'dropoff', houseNumber: '', streetAddress: '', suburb: '', city: '', postalCode: '', region: '', ...overrides });
  return fields as Record<string, string>;
}

/** The first date at least `n` days ahead, Monday to Friday, when the drop-off bays work 08:00-18:00. */
function weekday(n: number): string {
  for (; ; n++) if (!['saturday', 'sunday'].includes(weekdayOf(inDays(n)))) return inDays(n);
}

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
    t.match(hydrationState(step1.body), { step: 1, errors: [{ field: 'vehicleType', message: 'Please select your vehicle size' }], values: { vehicles: [{ coatingType: 'coat1' }] } });

    const step2 = await post('/booking', { step: '1', action: 'next', service: 'Ceramic Coating', selectedVehicleType: 'Sedan' });
    t.equal(step2.statusCode, 200);
    t.match(hydrationState(step2.body), { step: 2, errors: [], values: { vehicles: [{ service: 'Ceramic Coating', coatingType: 'coat1', vehicleType: 'mid', selectedVehicleType: 'Sedan' }] } });
    t.match(step2.body, /<input type="hidden" name="vehicleType" value="mid"\/>/);

    const missing = await post('/booking', { step: '2', action: 'next', service: 'Ceramic Coating', coatingType: 'coat1', vehicleType: 'mid', selectedVehicleType: 'Sedan', serviceType: 'onsite' });
    t.equal(missing.statusCode, 400);
    t.same(hydrationState(missing.body).errors.map((e: { message: string }) => e.message), EMPTY_SCHEDULE_MESSAGES);

    const back = await post('/booking', { step: '2', action: 'back', service: 'Ceramic Coating', selectedVehicleType: 'Sedan', date: inDays(2) });
    t.match(hydrationState(back.body), { step: 1, errors: [], values: { date: inDays(2) } }, 'Previous Step goes back without checking and keeps the values');
    t.same(await bookings(), []);
  });

  t.test('booking: the last step books, redirects home and shows the confirmation', async (t) => {
    const date = weekday(5);
    const fields = dropOffFields({ selectedVehicleType: 'suv', vehicleType: 'suv', date, time: '08:00' });
    const details = await post('/booking', { ...fields, step: '3', action: 'next', name: '', email: 'x', phone: '12' });
    t.equal(details.statusCode, 400);
    t.same(hydrationState(details.body).errors.map((e: { field: string }) => e.field), ['name', 'email', 'phone']);
    t.match(details.body, /Please correct the following errors:/);
    t.same(await bookings(), [], 'step 3 errors block the booking');

    const done = await post('/booking', { ...fields, step: '3', action: 'next' });
    t.equal(done.statusCode, 303);
    const [stored] = await bookings();
    t.match(stored, { service: 'Quick Clean', vehicle_type: 'suv', service_type: 'dropoff', date, time: '08:00', name: 'Mere Ngata', save_address: false });
    t.ok(stored!.resource_id, 'on the one bay (capacity 1), from 08:00…');
    t.equal(new Date(stored!.ends_at).getTime() - new Date(stored!.starts_at).getTime(), 90 * 60_000, '…for the 90 minutes an SUV takes');
    t.equal(done.headers.location, `/?booking=received&ref=${stored!.reference}`, 'the redirect names the booking by its reference');
    const home = await app.inject(done.headers.location as string);
    t.match(home.body, new RegExp(`role="status"[^>]*>.*Thank you! Your booking has been received. Your booking reference is ${stored!.reference}.`));
    t.equal(home.headers['cache-control'], 'no-store', 'rendered for this request, not cached per reference');

    const full = await post('/booking', { ...fields, step: '3', action: 'next', name: 'Someone Else' });
    t.equal(full.statusCode, 409, 'the one bay is taken (capacity 1)');
    t.match(hydrationState(full.body), { step: 2, formError: /fully booked/, errors: [{ field: 'time' }] });
    t.match(full.body, /<option value="08:00" selected="">08:00 – 09:30 — Full<\/option>/, 'step 2 shows the time full, with its end');
    t.match(full.body, /<option value="09:00">09:00 – 10:30 — Full<\/option>/, 'and the next hour too: the job runs to 09:30');
    t.match(full.body, /<option value="10:00">10:00 – 11:30<\/option>/);
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

  t.test('booking: step 3 carries its own submission token; the form posted twice makes one booking and the same redirect', async (t) => {
    const fields = dropOffFields({ selectedVehicleType: 'sm', vehicleType: 'sm', date: weekday(11), time: '10:00', name: 'Double Poster' });
    t.equal(hydrationState((await app.inject('/booking')).body).submission, null, 'the cached first step has no token');
    const step3 = await post('/booking', { ...fields, step: '2', action: 'next' });
    t.equal(step3.headers['cache-control'], 'no-store');
    const token = hydrationState(step3.body).submission;
    t.match(token, /^[0-9a-f-]{36}$/);
    t.match(step3.body, `<input type="hidden" name="submission" value="${token}"/>`);
    t.not(hydrationState((await post('/booking', { ...fields, step: '2', action: 'next' })).body).submission, token, 'every step 3 gets a new token');

    const invalid = await post('/booking', { ...fields, step: '3', action: 'next', phone: '12', submission: token });
    t.equal(invalid.statusCode, 400);
    t.equal(hydrationState(invalid.body).submission, token, 'a step 3 with errors keeps its token');

    const posts = await Promise.all([1, 2, 3].map(() => post('/booking', { ...fields, step: '3', action: 'next', submission: token })));
    const [booked] = (await bookings()).filter((b) => b.name === 'Double Poster');
    const thanks = `/?booking=received&ref=${booked!.reference}`;
    t.same(posts.map((p) => [p.statusCode, p.headers.location]), Array(3).fill([303, thanks]), 'the same redirect, with the one booking\'s reference, for each post');
    const again = await post('/booking', { ...fields, step: '3', action: 'next', submission: token });
    t.same([again.statusCode, again.headers.location], [303, thanks], 'and for a later resubmission');
    t.equal((await bookings()).filter((b) => b.name === 'Double Poster').length, 1, 'one booking');

    const changed = await post('/booking', { ...fields, step: '3', action: 'next', name: 'Changed Name', submission: token });
    t.equal(changed.statusCode, 422, 'the token was used for other details');
    const state = hydrationState(changed.body);
    t.match(state, { step: 3, formError: /already sent with different details/, values: { name: 'Changed Name' } });
    t.not(state.submission, token, 'a new token to send them with');
    t.same((await bookings()).filter((b) => b.name === 'Changed Name'), [], 'nothing booked');
  });

  t.test('contact: the page is the same for everyone, each view gets its own token in a cookie; the form posted twice stores one message', async (t) => {
    const views = await Promise.all(['/contact', '/contact', '/contact?sent=1'].map((url) => app.inject(url)));
    const cookies = views.map((view) => view.cookies.find((c) => c.name === 'form_started')?.value);
    t.equal(new Set(cookies).size, 3, 'a new cookie for each view, the thank-you view included');
    for (const cookie of cookies) t.match(cookie, /^\d+\.[0-9a-f]{32}\.[\w-]+$/, 'the time served, a token and their signature');
    t.equal(views[1]!.body, views[0]!.body, 'the same page for everyone');
    for (const view of views) {
      t.equal(view.headers['cache-control'], 'no-cache', 'cached and revalidated like any page');
      t.equal(hydrationState(view.body).submission, null);
      t.notMatch(view.body, /name="submission"/, 'no token in the page');
    }
    const compressed = await app.inject({ url: '/contact', headers: { 'accept-encoding': 'br' } });
    t.equal(compressed.headers['content-encoding'], 'br');
    t.equal(brotliDecompressSync(compressed.rawPayload).toString(), views[0]!.body, 'compressed, the same page');

    const fields = { name: 'Twice Sent', email: 'twice@example.com', phone: '021 555 1234', message: 'Hello twice' };
    const withCookie = (cookie: string, fields: Record<string, string>) =>
      app.inject({ method: 'POST', url: '/contact', payload: form(fields), headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `form_started=${cookie}` } });
    const posts = await Promise.all([1, 2, 3].map(() => withCookie(cookies[0]!, fields)));
    t.same(posts.map((p) => [p.statusCode, p.headers.location]), Array(3).fill([303, '/contact?sent=1#send-message']));
    const stored = () => app.db.selectFrom('contact_messages').selectAll().where('name', '=', 'Twice Sent').execute();
    t.equal((await stored()).length, 1, 'one message');

    const changed = await withCookie(cookies[0]!, { ...fields, message: 'A second thought' });
    t.equal(changed.statusCode, 422);
    t.match(hydrationState(changed.body), { formError: /already sent with different details/, values: { message: 'A second thought' }, submission: null });
    const renewed = changed.cookies.find((c) => c.name === 'form_started')?.value;
    t.ok(renewed && renewed !== cookies[0], 'a new cookie, with a new token, to send them with');
    t.equal((await stored()).length, 1);
    t.equal((await withCookie(renewed!, { ...fields, message: 'A second thought' })).statusCode, 303, 'sent again, it is stored');
    t.equal((await stored()).length, 2);
    t.equal((await withCookie(cookies[1]!, fields)).statusCode, 303, 'another view of the page sends the same words as a message of its own');
    t.equal((await stored()).length, 3);

    // A page served before the token moved to the cookie posts it as a field: it still counts.
    const legacy = { ...fields, name: 'Field Token', submission: 'a-token-from-an-older-page' };
    const legacyPosts = await Promise.all([1, 2].map(() => post('/contact', legacy)));
    t.same(legacyPosts.map((p) => p.statusCode), [303, 303]);
    t.equal((await app.db.selectFrom('contact_messages').selectAll().where('name', '=', 'Field Token').execute()).length, 1);

    const forged = await post('/contact', { ...fields, submission: 'not a token' });
    t.equal(forged.statusCode, 400);
    t.match(forged.json(), { errors: [{ field: 'submission', message: /visible ASCII/ }] });
  });
});
