/**
 * Completion, payment and receipt (issue 21): the final amount (the total unless changed with a
 * reason), paid or unpaid and paid later, tax-invoice numbers from a gapless counter (20 at once,
 * none taken by a refused completion), the receipt e-mail and page (GST = round(3/23 × total)),
 * the review request (once, after REVIEW_DELAY_HOURS, not for a job reopened before it is due)
 * (the takings: test/takings-21.test.ts).
 */
import t from 'tap';
import { gstOfCents } from '../src/domain/money.ts';
import { formatNzd } from '../src/domain/pricing.ts';
import { todayInAuckland } from '../src/domain/booking-dates.ts';
import { manageLinkFor } from '../src/db/manage-link.repository.ts';
import { forEachBackend } from './helper.ts';
import { inDays, testNow } from './support/payloads.ts';
import { outbox } from './support/mail.ts';
import { composeQueued } from '../src/mail/booking-mail.ts';
import { seed, staffApp } from './support/completion.ts';
import { emptyVehicle, jobLines } from '../src/domain/job.ts';

const GST = '123-456-789';
const REVIEW = 'https://reviews.example.com/auckland-valet';
const today = todayInAuckland(testNow);

t.test('GST is three twenty-thirds of the total, rounded to the cent', async (t) => {
  t.equal(gstOfCents(6900), 900);
  t.equal(gstOfCents(10001), 1304, '1304.478… rounds down');
  t.equal(gstOfCents(16915), 2206, '2206.304… rounds down');
  t.equal(gstOfCents(10005), 1305, '1305.0 exactly');
  t.equal(gstOfCents(1), 0);
  t.equal(gstOfCents(4), 1, '0.52 rounds up');
});

await forEachBackend(t, async (t, backend) => {
  let clock = testNow;
  // A pool as large as the burst below: the 20 completions wait for the invoice counter's row
  // lock, not for a connection (whose wait DB_CONNECT_TIMEOUT_MS bounds).
  const s = await staffApp(t, backend, { GST_NUMBER: GST, REVIEW_URL: REVIEW, REVIEW_DELAY_HOURS: '2', DB_POOL_MAX: '30' }, () => clock);
  const { app, complete, pay, status, payment, counter } = s;

  t.test('completes with the default amount: a numbered tax invoice, the receipt e-mail, one review request', async (t) => {
    const id = await seed(app, { email: 'done@example.com' });
    const before = await counter();
    const res = await complete(id, {});
    t.equal(res.statusCode, 200, res.body);
    const body = res.json();
    t.equal(body.booking.status, 'completed');
    t.equal(body.booking.version, 2);
    t.equal(body.history.at(-1).to, 'completed', 'the status history row as for any status change');
    t.match(body.receipt, { kind: 'tax-invoice', title: 'Tax invoice', invoiceNumber: before + 1, amountCents: 6900, quotedCents: 6900, gstCents: 900, paid: true, paymentMethod: 'cash', reason: null });
    t.equal(body.receipt.business.gstNumber, GST);
    t.equal(body.receipt.date, today);
    t.match(await payment(id), { amount_cents: 6900, payment_method: 'cash', invoice_number: before + 1, gst_cents: 900, gst_number: GST });
    // As the sender composes them (queued with their snapshot, issue 24).
    const mails = (await outbox(app, id)).map((m) => composeQueued(m, app.mail));
    const receipt = mails.find((m) => m.kind === 'booking-receipt');
    t.ok(receipt, 'the receipt is in the outbox');
    t.equal(receipt!.to_address, 'done@example.com');
    t.match(receipt!.subject, `Tax invoice ${before + 1}`);
    t.match(receipt!.text_body, /GST number: 123-456-789/);
    t.match(receipt!.text_body, /GST included: \$9\.00/);
    t.match(receipt!.text_body, /\/booking\/receipt\//);
    const reviews = mails.filter((m) => m.kind === 'review-request');
    t.equal(reviews.length, 1, 'one review request');
    t.equal(reviews[0]!.next_attempt_at.getTime(), clock.getTime() + 2 * 3_600_000, 'due REVIEW_DELAY_HOURS after completion');
    t.match(reviews[0]!.text_body, REVIEW);
    t.equal((await complete(id, { version: 2 })).statusCode, 409, 'a completed job cannot be completed again');
  });

  t.test('a changed amount needs a reason; a refused completion writes nothing and takes no number', async (t) => {
    const id = await seed(app);
    const before = await counter();
    const refused = await complete(id, { amountCents: 8000 });
    t.equal(refused.statusCode, 400);
    t.match(refused.json(), { errors: [{ field: 'reason' }] });
    t.equal((await complete(id, { amountCents: 8000, reason: '   ' })).statusCode, 400, 'a reason that says something');
    t.equal((await complete(id, { paid: true, paymentMethod: null })).statusCode, 400, 'paid needs a method');
    t.equal((await complete(id, { paid: false, paymentMethod: 'card' })).statusCode, 400, 'unpaid has no method');
    t.equal((await complete(id, { amountCents: -1, reason: 'x' })).statusCode, 400, 'no negative amount');
    t.equal((await complete(id, { amountCents: 10.5, reason: 'x' })).statusCode, 400, 'whole cents');
    t.equal((await complete(id, { paymentMethod: 'cheque' })).statusCode, 400, 'a known method');
    t.equal((await complete(id, { paidAt: new Date(clock.getTime() + 3_600_000).toISOString() })).statusCode, 400, 'not paid in the future');
    t.equal((await complete(id, { version: 7 })).statusCode, 409, 'a stale version');
    t.equal((await app.db.selectFrom('bookings').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status, 'confirmed');
    t.equal(await payment(id), undefined);
    t.equal(await counter(), before, 'no invoice number taken');
    t.equal((await outbox(app, id)).length, 0, 'no e-mail');

    const res = await complete(id, { amountCents: 10001, reason: 'Heavy pet hair', paid: true, paymentMethod: 'card' });
    t.equal(res.statusCode, 200, res.body);
    t.match(res.json().receipt, { amountCents: 10001, quotedCents: 6900, reason: 'Heavy pet hair', gstCents: 1304, invoiceNumber: before + 1 });
    t.match(await payment(id), { amount_cents: 10001, amount_reason: 'Heavy pet hair', gst_cents: 1304 });
  });

  t.test('a cancelled or no-show booking is not completed and gets no review request', async (t) => {
    const cancelled = await seed(app, { status: 'cancelled' });
    const before = await counter();
    t.equal((await complete(cancelled, {})).statusCode, 409);
    const noShow = await seed(app, { date: inDays(-2), status: 'no-show' });
    t.equal((await complete(noShow, {})).statusCode, 409);
    t.equal(await counter(), before);
    t.equal((await outbox(app, cancelled)).length + (await outbox(app, noShow)).length, 0);
  });

  t.test('completed unpaid, then paid later; the payment cannot be recorded twice', async (t) => {
    const id = await seed(app);
    const res = await complete(id, { paid: false, paymentMethod: undefined });
    t.equal(res.statusCode, 200, res.body);
    t.match(res.json().receipt, { paid: false, paymentMethod: null, paidAt: null });
    t.match(await payment(id), { payment_method: null, paid_at: null });
    t.equal((await pay(id, { version: 1, paymentMethod: 'bank-transfer' })).statusCode, 409, 'compare-and-set on the version');
    const paidAt = new Date(clock.getTime() - 60_000).toISOString();
    const paid = await pay(id, { version: 2, paymentMethod: 'bank-transfer', paidAt });
    t.equal(paid.statusCode, 200, paid.body);
    t.match(paid.json().receipt, { paid: true, paymentMethod: 'bank-transfer', paidAt });
    t.equal(paid.json().booking.version, 3);
    t.equal((await payment(id))!.paid_at!.toISOString(), paidAt);
    t.equal((await pay(id, { version: 3, paymentMethod: 'cash' })).statusCode, 409, 'already paid');
    t.equal((await outbox(app, id)).filter((m) => m.kind === 'booking-receipt').length, 2, 'the receipt again, paid');
    const pending = await seed(app);
    t.equal((await pay(pending, { version: 1, paymentMethod: 'cash' })).statusCode, 409, 'not completed');
  });

  t.test('invoice numbers stay gapless under 20 concurrent completions and refused ones', async (t) => {
    const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => seed(app, { date: inDays(1 + (i % 5)), time: `${String(8 + (i % 8)).padStart(2, '0')}:00` })));
    const doomed = await Promise.all(Array.from({ length: 5 }, () => seed(app)));
    const before = await counter();
    const answers = await Promise.all([
      ...ids.map((id) => complete(id, {})),
      // Refused inside the transaction (a changed amount without a reason, a stale version).
      ...doomed.map((id, i) => complete(id, i % 2 ? { amountCents: 1 } : { version: 9 })),
    ]);
    t.same(answers.slice(0, 20).map((a) => a.statusCode), Array(20).fill(200));
    t.same(answers.slice(20).map((a) => a.statusCode).sort(), [400, 400, 409, 409, 409]);
    const numbers = answers.slice(0, 20).map((a) => a.json().receipt.invoiceNumber as number).sort((a, b) => a - b);
    t.same(numbers, Array.from({ length: 20 }, (_, i) => before + 1 + i), 'one number each, no gap');
    t.equal(await counter(), before + 20);
    // A database refusal after the number was taken (the CHECK on the amount) gives it back.
    const id = await seed(app);
    await t.rejects(
      app.db.transaction().execute(async (trx) => {
        await trx.updateTable('invoice_counter').set((eb) => ({ last: eb('last', '+', 1) })).execute();
        await trx.insertInto('booking_payments').values({ booking_id: id, quoted_cents: 1, amount_cents: -5, gst_cents: 0, completed_at: new Date(), completed_by: 'x' }).execute();
      }),
    );
    t.equal(await counter(), before + 20, 'rolled back with its transaction');
  });

  t.test('the receipt page: a tax invoice behind the manage token, printable without JavaScript', async (t) => {
    const id = await seed(app, { date: inDays(-1), time: '10:00' });
    const link = (await manageLinkFor(app.db, id, 'http://x'))!;
    const token = link.split('/').at(-1)!;
    t.equal((await app.inject(`/booking/receipt/${token}`)).statusCode, 404, 'no receipt before completion');
    const res = await complete(id, { amountCents: 16915, reason: 'Extra stain removal' });
    t.equal(res.statusCode, 200, res.body);
    const page = await app.inject(`/booking/receipt/${token}`);
    t.equal(page.statusCode, 200);
    t.equal(page.headers['cache-control'], 'no-store');
    t.equal(page.headers['referrer-policy'], 'same-origin');
    const html = page.body;
    t.match(html, `Tax invoice ${res.json().receipt.invoiceNumber}`);
    t.match(html, 'Auckland Valet Co.');
    t.match(html, GST);
    t.match(html, formatNzd(16915));
    t.match(html, formatNzd(2206), 'GST = round(16915 × 3 / 23) = $22.06');
    t.match(html, 'Extra stain removal');
    t.match(html, 'Quick Clean');
    // The page's stylesheets are inlined in its one style block (issue 24).
    const css = /<style>([^<]*)<\/style>/.exec(html)?.[1] ?? '';
    t.match(css, /@media print\{[^}]*\.site-header/, 'the print style leaves out the site header');
    t.equal((await app.inject(`/booking/manage/${token}/receipt`)).statusCode, 200, 'also under the manage link');
    t.equal((await app.inject(`/booking/receipt/${'A'.repeat(43)}`)).statusCode, 404);
  });

  t.test('a visit of two vehicles with an add-on (issue 41): a line each on the receipt, its e-mail and the API', async (t) => {
    const vehicles = [
      { ...emptyVehicle(), service: 'Quick Clean', vehicleType: 'sm', selectedVehicleType: 'sm', addOns: ['pet-hair'], plate: 'ABC123' },
      { ...emptyVehicle(), service: 'Express Clean', vehicleType: 'suv', selectedVehicleType: 'suv' },
    ];
    const lines = jobLines(vehicles)!;
    const id = await seed(app, {
      date: inDays(-1),
      vehicles: JSON.stringify(vehicles),
      lines: JSON.stringify(lines),
      list_price_cents: 23900,
      discount_cents: 3585,
      discount_kind: 'first-service',
      discount_percent: 15,
      travel_fee_cents: 1500,
      total_cents: 21815,
    });
    const res = await complete(id, {});
    t.equal(res.statusCode, 200, res.body);
    const { receipt } = res.json();
    t.match(receipt.description, /^2 vehicles, at your address, /);
    t.same(receipt.lines, [
      { description: 'ABC123: Quick Clean, Small Car', quantity: 1, amountCents: 6900 },
      { description: 'ABC123: Pet hair removal', quantity: 1, amountCents: 4500 },
      { description: 'Vehicle 2: Express Clean, SUV/UTE', quantity: 1, amountCents: 12500 },
      { description: 'First-service discount 15%', quantity: 1, amountCents: -3585 },
    ]);
    t.equal(receipt.lines.reduce((sum: number, l: { amountCents: number }) => sum + l.amountCents, 0) + receipt.travelFeeCents, receipt.quotedCents, 'with the travel fee the lines add up to the quote');
    t.match(receipt, { amountCents: 21815, gstCents: gstOfCents(21815) });

    const html = (await app.inject(`/booking/receipt/${(await manageLinkFor(app.db, id, 'http://x'))!.split('/').at(-1)}`)).body;
    t.match(html, /<dt>ABC123: Pet hair removal<\/dt><dd>\$45\.00<\/dd><\/div><div><dt>Vehicle 2: Express Clean, SUV\/UTE<\/dt><dd>\$125\.00<\/dd>/, 'the page lists the lines');
    t.match(html, /<dt>Travel fee<\/dt><dd>\$15\.00<\/dd>/);
    t.match(html, `<dt>GST included</dt><dd>${formatNzd(gstOfCents(21815))}</dd>`, 'and the GST in the total');
    const mail = (await outbox(app, id)).map((m) => composeQueued(m, app.mail)).find((m) => m.kind === 'booking-receipt')!;
    t.match(mail.text_body, /ABC123: Quick Clean, Small Car: \$69\.00/, 'and so does the e-mail');
    t.match(mail.text_body, /First-service discount 15%: -\$35\.85/);
  });

  t.test('the review request: never twice, and skipped when the job is reopened before it is due', async (t) => {
    const id = await seed(app, { email: 'again@example.com' });
    t.equal((await complete(id, {})).statusCode, 200);
    t.equal((await status(id, 'pending', 2)).statusCode, 200);
    t.equal((await status(id, 'confirmed', 3)).statusCode, 200);
    t.equal((await complete(id, { version: 4 })).statusCode, 200, 'completed again');
    t.equal((await outbox(app, id)).filter((m) => m.kind === 'review-request').length, 1, 'one review request, ever');
    t.equal((await payment(id))!.invoice_number, (await payment(id))!.invoice_number, 'the same invoice number');

    const reopened = await seed(app, { email: 'reopened@example.com' });
    t.equal((await complete(reopened, {})).statusCode, 200);
    t.equal((await status(reopened, 'pending', 2)).statusCode, 200);
    clock = new Date(clock.getTime() + 2 * 3_600_000 + 1000);
    await app.mailer.wake();
    const review = (await outbox(app, reopened)).find((m) => m.kind === 'review-request')!;
    t.equal(review.status, 'skipped', 'the job is no longer completed');
    const kept = (await outbox(app, id)).find((m) => m.kind === 'review-request')!;
    t.equal(kept.status, 'unsent', 'a completed job’s request falls due (no SMTP here: unsent)');
    // The database itself refuses a second one.
    await t.rejects(app.db.insertInto('outbox_emails').values({ ...kept, id: undefined, created_at: undefined } as never).execute());
    clock = testNow;
  });

  t.test('the status route completes with the total, unpaid, with its receipt', async (t) => {
    const id = await seed(app);
    t.equal((await status(id, 'completed', 1)).statusCode, 200);
    t.match(await payment(id), { amount_cents: 6900, payment_method: null, paid_at: null, gst_number: GST });
    t.equal((await outbox(app, id)).filter((m) => m.kind === 'booking-receipt').length, 1);
  });

  t.test('a booking without an e-mail address gets no e-mail', async (t) => {
    const id = await seed(app, { email: '' }).catch(() => undefined);
    if (id === undefined) return t.pass('the schema requires an e-mail address here');
    t.equal((await complete(id, {})).statusCode, 200);
    t.equal((await outbox(app, id)).length, 0);
  });
});
