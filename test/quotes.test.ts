/**
 * Booking references and server quotes (issue 10): the reference generator, POST /v1/quote, the
 * first-service discount, the quote stored with each booking, the reference on the no-JavaScript
 * thank-you page and step 3's quote without JavaScript, and migration 004 on existing bookings.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { sql } from 'kysely';
import t from 'tap';
import { isBookingReference, REFERENCE_ALPHABET } from '../src/domain/booking-reference.ts';
import { CERAMIC_COATING, COATING_TYPES, PACKAGES, VEHICLE_TYPES } from '../src/domain/catalogue.ts';
import { formatNzd, percentOf, quoteFor } from '../src/domain/pricing.ts';
import { MIGRATIONS_DIR } from '../src/paths.ts';
import { newBookingReference } from '../src/services/booking-reference.ts';
import { createBooking } from '../src/services/booking.service.ts';
import { hasActiveBookingQuery } from '../src/db/bookings.repository.ts';
import { emptyBooking } from '../src/domain/booking-rules.ts';
import { buildTestApp, forEachBackend, login } from './helper.ts';
import { inDays, originalClientPayload, testNow } from './support/payloads.ts';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const hydrationState = (html: string) => JSON.parse(/<script type="application\/json" id="__DATA__">([\s\S]*?)<\/script>/.exec(html)![1]!).state;

const FIRST_SERVICE = { kind: 'first-service', percent: 15 };
/** A quote's money, without its lines and minutes (test/job-41.test.ts checks those). */
const money = ({ lines: _lines, durationMinutes: _minutes, ...rest }: Record<string, unknown>) => rest;
const noDiscount = (listPriceCents: number) => ({ currency: 'NZD', listPriceCents, discountCents: 0, travelFeeCents: 0, totalCents: listPriceCents, discount: null });

t.test('references: 8 characters without look-alikes, unique over 10,000, no modulo bias', async (t) => {
  t.equal(REFERENCE_ALPHABET.length, 31);
  t.notMatch(REFERENCE_ALPHABET, /[01OIL]/, 'no 0/O, 1/I/L');
  const references = Array.from({ length: 10_000 }, () => newBookingReference());
  t.ok(references.every(isBookingReference), 'every one well-formed');
  t.ok(references.every((reference) => /^[2-9A-HJKMNP-Z]{8}$/.test(reference)), 'and matches the database CHECK');
  t.equal(new Set(references).size, references.length, 'no two alike');
  const used = new Set(references.join(''));
  t.equal(used.size, 31, 'every symbol appears');

  // Low five bits 31 (0x1f, 0xff) are rejected, not folded onto another symbol.
  const bytes = [[0x1f, 0xff, 0x00, 0x01, 0x1e, 0x3f, 0x20, 0x02], [0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a]];
  t.equal(newBookingReference(() => Uint8Array.from(bytes.shift()!)), '23Z24567');
  t.notOk(isBookingReference('0OIL2345'));
  t.notOk(isBookingReference('abcd2345'), 'upper case only');
});

t.test('pricing: integer cents, the discount rounded to the nearest cent (halves up), lines that add up', async (t) => {
  t.same(quoteFor(19900, true), { currency: 'NZD', listPriceCents: 19900, discountCents: 2985, travelFeeCents: 0, totalCents: 16915, discount: FIRST_SERVICE });
  t.same(quoteFor(19900, false), noDiscount(19900));
  t.equal(percentOf(1010, 15), 152, '151.5 cents rounds up');
  t.equal(percentOf(1003, 15), 150, '150.45 cents rounds down');
  t.equal(formatNzd(16915), '$169.15');
  t.equal(formatNzd(99900), '$999.00');
  t.equal(formatNzd(123456789), '$1,234,567.89');
  t.equal(formatNzd(-2985), '-$29.85');
  // Exactly what the platform's currency formatter writes, for any whole number of cents.
  const intl = new Intl.NumberFormat('en-NZ', { style: 'currency', currency: 'NZD' });
  fc.assert(
    fc.property(fc.oneof(fc.integer({ min: -100_000, max: 100_000 }), fc.integer({ min: -(2 ** 45), max: 2 ** 45 })), (cents) => formatNzd(cents) === intl.format(cents / 100)),
    { numRuns: 5000 },
  );
});

forEachBackend(t, async (t, backend) => {
  const app = await buildTestApp(t, { backend, env: { BOOKING_SLOT_CAPACITY: '50' } });
  const quote = (payload: object) => app.inject({ method: 'POST', url: '/v1/quote', payload });
  const book = (payload: object) => app.inject({ method: 'POST', url: '/v1/create-booking', payload });
  const count = async () => Number((await app.db.selectFrom('bookings').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  let hour = 7;
  /** A booking of `email` in a slot of its own. */
  const bookAs = (email: string, overrides: Record<string, unknown> = {}) =>
    book(originalClientPayload({ email, date: inDays(10), time: `${String(hour++).padStart(2, '0')}:00`, ...overrides }));

  t.test('POST /v1/quote prices every package and size, and Ceramic Coating by term', async (t) => {
    for (const pkg of PACKAGES) {
      for (const vehicleType of VEHICLE_TYPES) {
        if (pkg.coatingPrices) {
          for (const coatingType of COATING_TYPES) {
            const res = await quote({ service: pkg.name, vehicleType, coatingType });
            t.equal(res.statusCode, 200, `${pkg.name} ${coatingType} ${vehicleType}`);
            t.same(money(res.json()), noDiscount(pkg.coatingPrices[coatingType][vehicleType] * 100));
          }
        } else {
          const res = await quote({ service: pkg.name, vehicleType });
          t.equal(res.statusCode, 200, `${pkg.name} ${vehicleType}`);
          t.same(money(res.json()), noDiscount(pkg.prices[vehicleType] * 100));
        }
      }
    }
    const bySize = await quote({ service: CERAMIC_COATING, coatingType: 'coat2', selectedVehicleType: 'Suv' });
    t.same(money(bySize.json()), noDiscount(99900), "the vehicle type follows the body style when it is not sent");
    const whole = await quote(originalClientPayload({ email: '' }));
    t.same(money(whole.json()), noDiscount(19900), 'the whole create-booking payload is accepted');
  });

  t.test('POST /v1/quote needs the service choice; a malformed e-mail, a price or a quote field is a 400', async (t) => {
    const nothing = await quote({});
    t.equal(nothing.statusCode, 400);
    t.same(nothing.json().errors.map((e: { field: string }) => e.field), ['service', 'vehicleType'], 'the service choice is required');
    const cases: Array<[object, string, string]> = [
      [{ service: 'Deluxe Clean' }, 'vehicleType', 'Please select your vehicle size'],
      [{ service: 'Cerimic Coating', vehicleType: 'sm' }, 'service', 'Please select one of our service packages'],
      [{ service: CERAMIC_COATING, vehicleType: 'sm' }, 'coatingType', 'Please select a coating type (1 Year or 3 Year)'],
      [{ service: 'Quick Clean', vehicleType: 'sm', email: 'mere@' }, 'email', 'Please enter a valid email address'],
    ];
    for (const [payload, field, message] of cases) {
      const res = await quote(payload);
      t.equal(res.statusCode, 400, JSON.stringify(payload));
      t.same(res.json(), { message, errors: [{ field, message }] });
    }
    for (const key of ['price', 'quote', 'listPriceCents', 'discountCents', 'totalCents', 'discount', 'currency']) {
      const forged = { [key]: key === 'quote' ? { totalCents: 1 } : key === 'currency' ? 'NZD' : 1 };
      const res = await quote({ service: 'Quick Clean', vehicleType: 'sm', ...forged });
      t.equal(res.statusCode, 400, `quote: ${key} refused`);
      t.match(res.json(), { message: String, errors: [{ field: key }] });
      const before = await count();
      const booking = await book(originalClientPayload(forged));
      t.equal(booking.statusCode, 400, `create-booking: ${key} refused`);
      t.match(booking.json(), { errors: [{ field: key }] });
      t.equal(await count(), before, 'nothing stored');
    }
    t.equal((await app.inject({ method: 'POST', url: '/v1/quote', payload: 'service=Quick+Clean', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).statusCode, 415);
  });

  t.test('first booking discounted, the second not, the first again once the earlier one is cancelled', async (t) => {
    const email = 'hemi.first@example.co.nz';
    t.same(money((await quote({ service: 'Deluxe Clean', vehicleType: 'mid', email })).json()), {
      currency: 'NZD', listPriceCents: 19900, discountCents: 2985, travelFeeCents: 0, totalCents: 16915, discount: FIRST_SERVICE,
    }, 'a new e-mail is quoted the discount');

    const first = await bookAs(email);
    t.equal(first.statusCode, 201);
    const body = first.json();
    t.same(money(body.quote), { currency: 'NZD', listPriceCents: 19900, discountCents: 2985, travelFeeCents: 0, totalCents: 16915, discount: FIRST_SERVICE });
    t.match(body, { reference: /^[2-9A-HJKMNP-Z]{8}$/, message: `Thank you! Your booking has been received. Your booking reference is ${body.reference}. We will contact you shortly to confirm it.` });
    t.same(body.booking.quote, body.quote, 'the DTO carries the same quote');
    t.equal(body.booking.reference, body.reference);
    const row = await app.db.selectFrom('bookings').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow();
    t.match(row, { reference: body.reference, list_price_cents: 19900, discount_cents: 2985, total_cents: 16915, discount_kind: 'first-service', discount_percent: 15 });

    t.same(money((await quote({ service: 'Deluxe Clean', vehicleType: 'mid', email })).json()), noDiscount(19900), 'the quote now has no discount');
    const second = await bookAs(email);
    t.same(money(second.json().quote), noDiscount(19900), 'the second booking is not discounted');
    const secondRow = await app.db.selectFrom('bookings').selectAll().where('id', '=', second.json().id).executeTakeFirstOrThrow();
    t.match(secondRow, { list_price_cents: 19900, discount_cents: 0, total_cents: 19900, discount_kind: null, discount_percent: null });

    // Staff cancel both: the e-mail has no booking left that is not cancelled.
    const cookie = await login(app);
    for (const id of [body.id, second.json().id]) {
      const cancelled = await app.inject({ method: 'POST', url: `/v1/bookings/${id}/status`, payload: { status: 'cancelled', version: 1 }, headers: { cookie } });
      t.equal(cancelled.statusCode, 200);
    }
    t.same((await quote({ service: 'Deluxe Clean', vehicleType: 'mid', email })).json().discount, FIRST_SERVICE);
    const again = await bookAs(email);
    t.same(again.json().quote.discount, FIRST_SERVICE, 'a first booking again');
    t.same((await app.db.selectFrom('bookings').select(['discount_cents']).where('id', '=', body.id).executeTakeFirstOrThrow()), { discount_cents: 2985 }, 'a stored quote never changes');
  });

  t.test('the e-mail is compared trimmed and case-insensitively', async (t) => {
    t.equal((await bookAs('Kiri.Case@Example.com')).json().quote.discount.kind, 'first-service');
    t.same(money((await quote({ service: 'Quick Clean', vehicleType: 'sm', email: '  kiri.case@EXAMPLE.COM  ' })).json()), noDiscount(6900));
    const again = await bookAs('  KIRI.CASE@example.com ');
    t.equal(again.statusCode, 201);
    t.same(money(again.json().quote), noDiscount(19900));
  });

  t.test('the discount lookup probes the partial indexes on the canonical e-mail and phone', async (t) => {
    // A table this small is read whole anyway; forbidding that shows which index the planner would use.
    const plan = await app.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const { rows } = await sql<{ 'QUERY PLAN': string }>`explain ${hasActiveBookingQuery({ email: 'x@example.com', phone: '021 555 0101' })}`.execute(trx);
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    t.match(plan, /bookings_uncancelled_email_canonical_idx/);
    t.match(plan, /bookings_uncancelled_phone_canonical_idx/);
  });

  t.test('concurrent first bookings of one e-mail: exactly one gets the discount', async (t) => {
    const email = 'racer.quote@example.com';
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => book(originalClientPayload({ email, date: inDays(11), time: `${String(8 + i).padStart(2, '0')}:00` }))));
    t.same(answers.map((a) => a.statusCode), [201, 201, 201, 201, 201, 201]);
    t.equal(answers.filter((a) => a.json().quote.discount !== null).length, 1, 'one first-service discount');
    const references = answers.map((a) => a.json().reference);
    t.equal(new Set(references).size, 6, 'six references');
  });

  t.test('a reference already taken is drawn again inside the same transaction', async (t) => {
    const taken = (await bookAs('taken.ref@example.com')).json().reference;
    const drawn = [taken, taken, 'ZZZZ2222'];
    const before = await count();
    const booking = await createBooking(
      app.db,
      { ...emptyBooking(), ...originalClientPayload({ email: 'second.ref@example.com', date: inDays(12), time: '09:00' }) },
      { now: testNow, maxActivePerEmail: 3, newReference: () => drawn.shift()!, mail: app.mail },
    );
    t.equal(booking.reference, 'ZZZZ2222');
    t.equal(drawn.length, 0, 'two collisions, then a free one');
    t.equal(await count(), before + 1, 'one booking stored');
    await t.rejects(
      createBooking(app.db, { ...emptyBooking(), ...originalClientPayload({ date: inDays(12), time: '10:00' }) }, { now: testNow, maxActivePerEmail: 3, newReference: () => taken, mail: app.mail }),
      /No free booking reference/,
    );
    t.equal(await count(), before + 1, 'nothing half-written');
  });

  t.test('without JavaScript: step 3 shows the quote for the e-mail entered, the thank-you page the reference', async (t) => {
    const post = (fields: Record<string, string>) =>
      app.inject({ method: 'POST', url: '/booking', payload: form(fields), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    // saveAddress unticked: a form sends nothing for it.
    const { saveAddress: _unticked, ...fields } = originalClientPayload({ date: inDays(13), time: '09:00' });

    const listOnly = await post({ ...fields, email: '', step: '2', action: 'next' });
    t.equal(listOnly.statusCode, 200);
    t.same(money(hydrationState(listOnly.body).quote), noDiscount(19900), 'the list price before an e-mail is entered');
    t.match(listOnly.body, /List price<\/dt><dd>\$199\.00/);

    const newcomer = await post({ ...fields, email: 'no.js@example.com', step: '2', action: 'next' });
    t.same(money(hydrationState(newcomer.body).quote), { currency: 'NZD', listPriceCents: 19900, discountCents: 2985, travelFeeCents: 0, totalCents: 16915, discount: FIRST_SERVICE });
    t.match(newcomer.body, /First-service discount 15%<\/dt><dd>−\$29\.85/);
    t.match(newcomer.body, /Total<\/dt><dd>\$169\.15/);

    const invalid = await post({ ...fields, email: 'no.js@example.com', phone: '12', step: '3', action: 'next' });
    t.equal(invalid.statusCode, 400);
    t.equal(hydrationState(invalid.body).quote.discountCents, 2985, 'kept when step 3 comes back with errors');

    const done = await post({ ...fields, email: 'no.js@example.com', step: '3', action: 'next' });
    t.equal(done.statusCode, 303);
    const reference = new URL(done.headers.location as string, 'http://x').searchParams.get('ref')!;
    t.ok(isBookingReference(reference));
    t.match(await app.db.selectFrom('bookings').selectAll().where('reference', '=', reference).executeTakeFirstOrThrow(), { email: 'no.js@example.com', total_cents: 16915 });
    const thanks = await app.inject(done.headers.location as string);
    t.match(thanks.body, `Your booking reference is ${reference}.`);
    t.equal(thanks.headers['cache-control'], 'no-store');

    const forged = await app.inject('/?booking=received&ref=0OIL%3Cb%3E');
    t.equal(forged.statusCode, 200);
    t.notMatch(forged.body, /reference is/, 'a malformed reference is not echoed');
    t.match(forged.body, /Thank you! Your booking has been received/);
    t.equal(forged.headers['cache-control'], 'no-cache', 'the generic confirmation stays cached');
  });

  t.test('POST /v1/quote is in the OpenAPI document', async (t) => {
    const doc = (await app.inject('/v1/openapi.json')).json();
    t.ok(doc.paths['/v1/quote']?.post, 'documented');
    t.ok(doc.paths['/v1/quote'].post.responses['200'], 'with its answer');
    t.ok(doc.paths['/v1/quote'].post.responses['429'], 'and its rate limit');
  });

  t.test('migration 004 gives existing bookings a reference and their price in cents', async (t) => {
    // 001 and 002 in a schema of their own, rows the way the original stored them, then 004; all
    // in one transaction on one connection (search_path), dropped at the end.
    const migration = (file: string) => readFile(path.join(MIGRATIONS_DIR, file), 'utf8');
    await app.db.transaction().execute(async (trx) => {
      await sql`create schema before_004`.execute(trx);
      await sql`set local search_path to before_004, public`.execute(trx);
      for (const file of ['001_initial.sql', '002_staff_tools.sql']) await sql.raw(await migration(file)).execute(trx);
      await sql`
        insert into bookings (service, vehicle_type, date, time, service_type, name, email, phone, price_nzd)
        select 'Quick Clean', 'sm', date '2026-12-01', '09:00', 'dropoff', 'Old ' || i, 'old' || i || '@example.com', '021 555 0000', 60 + i
        from generate_series(1, 300) as i`.execute(trx);
      await sql.raw(await migration('004_references_quotes.sql')).execute(trx);

      const rows = await trx.selectFrom('bookings').selectAll().orderBy('name').execute();
      t.equal(rows.length, 300);
      t.ok(rows.every((row) => isBookingReference(row.reference)), 'every reference well-formed');
      t.equal(new Set(rows.map((row) => row.reference)).size, 300, 'and unique');
      const old1 = rows.find((row) => row.name === 'Old 1')!;
      t.match(old1, { list_price_cents: 6100, discount_cents: 0, total_cents: 6100, discount_kind: null, discount_percent: null });
      t.notOk('price_nzd' in old1, 'the dollar column is gone');
      const found = await trx.selectFrom('bookings').select('name').where('search_text', 'like', `%${old1.reference.toLowerCase()}%`).execute();
      t.same(found, [{ name: 'Old 1' }], 'the search text includes the reference');
      await sql`savepoint format_check`.execute(trx);
      await t.rejects(sql`update bookings set reference = 'OIL01234' where name = 'Old 2'`.execute(trx), /bookings_reference_format/, 'look-alikes refused by the database');
      await sql`rollback to savepoint format_check`.execute(trx);
      await sql`drop schema before_004 cascade`.execute(trx);
    });
  });
});

t.test('POST /v1/quote has a rate limit of its own', async (t) => {
  const app = await buildTestApp(t, { env: { RATE_LIMIT_QUOTE_MAX: '3', RATE_LIMIT_FORMS_MAX: '2' } });
  const quote = () => app.inject({ method: 'POST', url: '/v1/quote', payload: { service: 'Quick Clean', vehicleType: 'sm', email: 'probe@example.com' } });
  for (let i = 0; i < 3; i++) t.equal((await quote()).statusCode, 200);
  const limited = await quote();
  t.equal(limited.statusCode, 429);
  t.match(limited.json(), { message: /Too many requests/, errors: [] });
  t.ok(limited.headers['retry-after']);
  const booking = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload() });
  t.equal(booking.statusCode, 201, 'quotes do not use up the booking allowance');
});
