/**
 * Issue 23, the hourly brake: at most ONLINE_NEW_BOOKINGS_PER_HOUR online bookings by customers
 * the business has never served (no completed booking for the e-mail), across all clients in any
 * rolling hour; above it the API and the no-JavaScript wizard answer 429 with the phone number.
 * Customers with a completed booking are neither counted nor braked; 0 turns the brake off.
 */
import t from 'tap';
import { sql } from 'kysely';
import { buildTestApp, forEachBackend } from './helper.ts';
import { bookingRow, inDays, originalClientPayload } from './support/payloads.ts';

const PHONE = '09 555 0123';
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

forEachBackend(t, async (t, backend) => {
  t.test('the (N+1)th new customer in the hour is refused with the phone; a served customer is not', async (t) => {
    const app = await buildTestApp(t, { backend, env: { ONLINE_NEW_BOOKINGS_PER_HOUR: '3', BUSINESS_PHONE: PHONE } });
    const book = (i: number, email: string) =>
      app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: inDays(3 + i), time: '09:00', email }) });

    // A customer served before (a completed booking, in another case and with spaces).
    await app.db.insertInto('bookings').values(bookingRow({ email: 'Regular@Example.com', status: 'completed', date: inDays(-20) })).execute();

    for (let i = 0; i < 3; i++) t.equal((await book(i, `new${i}@example.com`)).statusCode, 201, `new customer ${i + 1} booked`);
    const refused = await book(3, 'new3@example.com');
    t.equal(refused.statusCode, 429);
    t.match(refused.json().message, PHONE, 'the message gives the phone number');
    t.equal(refused.headers['retry-after'], '600');

    const regular = await book(4, '  regular@example.COM ');
    t.equal(regular.statusCode, 201, 'a customer with a completed booking is not braked');
    const counted = await app.db.selectFrom('bookings').select(['email', 'new_customer']).where('status', '=', 'pending').execute();
    t.equal(counted.filter((b) => b.new_customer).length, 3, 'only the new customers are counted');
    t.notOk(counted.find((b) => b.email === 'regular@example.COM')?.new_customer, 'the served customer is recorded as not new');

    // The no-JavaScript wizard: step 3 shown again, with the message.
    const { saveAddress: _unticked, ...fields } = originalClientPayload({ date: inDays(9), time: '09:00', email: 'nojs@example.com' });
    const page = await app.inject({
      method: 'POST',
      url: '/booking',
      payload: form({ ...fields, step: '3', action: 'next' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    t.equal(page.statusCode, 429);
    t.match(page.body, PHONE);
    t.equal(await app.db.selectFrom('bookings').select('id').where('email', '=', 'nojs@example.com').executeTakeFirst(), undefined, 'nothing booked');

    // An hour later the window has rolled on: the earlier bookings age out.
    await sql`update bookings set created_at = created_at - interval '61 minutes'`.execute(app.db);
    t.equal((await book(5, 'new5@example.com')).statusCode, 201, 'the rolling hour has passed');
  });

  t.test('0 turns the brake off', async (t) => {
    const app = await buildTestApp(t, { backend, env: { ONLINE_NEW_BOOKINGS_PER_HOUR: '0' } });
    for (let i = 0; i < 5; i++) {
      const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: inDays(3 + i), time: '11:00', email: `off${i}@example.com` }) });
      t.equal(res.statusCode, 201);
    }
  });

  t.test('10 simultaneous new customers with a limit of 3: exactly 3 are booked', async (t) => {
    const app = await buildTestApp(t, { backend, env: { ONLINE_NEW_BOOKINGS_PER_HOUR: '3', BUSINESS_PHONE: PHONE } });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: inDays(3 + i), time: i % 2 ? '09:00' : '13:00', email: `rush${i}@example.com` }) }),
      ),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    t.same(codes, [201, 201, 201, 429, 429, 429, 429, 429, 429, 429]);
    const stored = await app.db.selectFrom('bookings').select('id').execute();
    t.equal(stored.length, 3);
  });
});
