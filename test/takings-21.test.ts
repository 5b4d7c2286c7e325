/**
 * The takings (issue 21): jobs completed in a range of dates, the amounts taken by payment method
 * (against a model of the sums), the GST, the unpaid jobs and the CSV; and, without GST_NUMBER, a
 * plain receipt with no invoice number.
 */
import t from 'tap';
import fc from 'fast-check';
import { PAYMENT_METHODS, type PaymentMethod } from '../src/domain/completion.ts';
import { todayInAuckland } from '../src/domain/booking-dates.ts';
import { manageLinkFor } from '../src/db/manage-link.repository.ts';
import { forEachBackend } from './helper.ts';
import { inDays, testNow } from './support/payloads.ts';
import { outbox } from './support/mail.ts';
import { seed, staffApp } from './support/completion.ts';

const today = todayInAuckland(testNow);

await forEachBackend(t, async (t, backend) => {
  const { app, cookie, complete, payment, counter } = await staffApp(t, backend, {});

  t.test('without GST_NUMBER: a receipt with no invoice number, no GST, no review request', async (t) => {
    const id = await seed(app);
    const res = await complete(id, {});
    t.equal(res.statusCode, 200, res.body);
    t.match(res.json().receipt, { kind: 'receipt', title: 'Receipt', invoiceNumber: null, gstCents: null });
    t.match(await payment(id), { invoice_number: null, gst_number: null, gst_cents: 0 });
    t.equal(await counter(), 0, 'no number taken');
    const kinds = (await outbox(app, id)).map((m) => m.kind);
    t.same(kinds, ['booking-receipt']);
    const link = (await manageLinkFor(app.db, id, 'http://x'))!;
    const html = (await app.inject(`/booking/receipt/${link.split('/').at(-1)}`)).body;
    t.match(html, 'Receipt');
    t.notMatch(html, 'Tax invoice');
    t.notMatch(html, 'GST');
  });

  t.test('takings: sums by payment method against a model, the unpaid list, the CSV, the range', async (t) => {
    type Job = { amount: number; method: PaymentMethod | null };
    const takings = (from: string, to: string, url = '/v1/takings') => app.inject({ url: `${url}?from=${from}&to=${to}`, headers: { cookie } });
    const before = (await takings(today, today)).json();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ amount: fc.integer({ min: 0, max: 500_000 }), method: fc.constantFrom<PaymentMethod | null>(...PAYMENT_METHODS, null) }), { maxLength: 5 }),
        async (jobs: Job[]) => {
          const start = (await takings(today, today)).json();
          for (const job of jobs) {
            const id = await seed(app);
            const res = await complete(id, { amountCents: job.amount, reason: job.amount === 6900 ? undefined : 'Agreed price', paid: job.method !== null, paymentMethod: job.method ?? undefined });
            if (res.statusCode !== 200) throw new Error(res.body);
          }
          const end = (await takings(today, today)).json();
          const model = Object.fromEntries(PAYMENT_METHODS.map((m) => [m, jobs.filter((j) => j.method === m).reduce((sum, j) => sum + j.amount, 0)]));
          for (const m of PAYMENT_METHODS) if (end.taken.byMethod[m] - start.taken.byMethod[m] !== model[m]) return false;
          const paid = jobs.filter((j) => j.method !== null).reduce((sum, j) => sum + j.amount, 0);
          const unpaid = jobs.filter((j) => j.method === null);
          return (
            end.completed.count - start.completed.count === jobs.length &&
            end.taken.totalCents - start.taken.totalCents === paid &&
            end.taken.gstCents === 0 &&
            end.unpaid.count - start.unpaid.count === unpaid.length &&
            end.unpaid.amountCents - start.unpaid.amountCents === unpaid.reduce((sum, j) => sum + j.amount, 0)
          );
        },
      ),
      { numRuns: 5 },
    );
    const after = (await takings(today, today)).json();
    t.ok(after.completed.count > before.completed.count);
    t.equal(after.unpaid.jobs.length, after.unpaid.count, 'the unpaid jobs are listed');
    t.equal((await takings(inDays(-30), inDays(-1))).json().completed.count, 0, 'nothing completed before today');
    const csv = await takings(today, today, '/v1/takings.csv');
    t.equal(csv.statusCode, 200);
    t.match(csv.headers['content-type'], /text\/csv/);
    t.equal(csv.body.trim().split('\n').length, after.completed.count + 1, 'a header and one row a job');
    t.match(csv.body, 'Amount (NZD),GST (NZD),Payment method,Paid,Paid at,Invoice number');
    t.equal((await takings(today, inDays(-1))).statusCode, 400, 'from after to');
    t.equal((await takings(inDays(-400), today)).statusCode, 400, 'longer than TAKINGS_MAX_DAYS');
    t.equal((await takings('2026-02-30', today)).statusCode, 400, 'not a date');
    t.equal((await app.inject({ url: `/v1/takings?from=${today}&to=${today}` })).statusCode, 401, 'staff only');
  });
});
