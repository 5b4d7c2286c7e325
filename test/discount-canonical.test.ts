/**
 * Issue 23, "the first-service discount is taken again": the customer is compared by a canonical
 * form computed in the database (migrations/013): the e-mail in lower case, trimmed, without its
 * +tag, gmail's dots ignored and googlemail.com taken as gmail.com; the phone in New Zealand's
 * national form. Variants get no second discount on POST /v1/quote, POST /v1/create-booking or
 * the no-JavaScript wizard; the cap of upcoming bookings per address counts variants together
 * (also when they race); "served before" (the hourly brake) knows the customer by either; and
 * canonical_email agrees with a small reference model on generated addresses.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import t from 'tap';
import { tooManyActiveBookings } from '../src/domain/messages.ts';
import { hasActiveBookingQuery, newBookingFactsQuery } from '../src/db/bookings.repository.ts';
import { placementSpan } from '../src/services/scheduling.service.ts';
import { buildTestApp, forEachBackend } from './helper.ts';
import { bookingRow, inDays, originalClientPayload } from './support/payloads.ts';

const FIRST_SERVICE = { kind: 'first-service', percent: 15 };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const hydrationState = (html: string) => JSON.parse(/<script type="application\/json" id="__DATA__">([\s\S]*?)<\/script>/.exec(html)![1]!).state;

/** The rule of canonical_email, written out plainly for the property test. */
function canonicalEmailModel(address: string): string | null {
  const a = address.trim().toLowerCase();
  if (a === '') return null;
  const at = a.lastIndexOf('@');
  if (at < 0) return a;
  let local = a.slice(0, at);
  let domain = a.slice(at + 1);
  const plus = local.indexOf('+', 1);
  if (plus > 0) local = local.slice(0, plus);
  if (domain === 'googlemail.com') domain = 'gmail.com';
  if (domain === 'gmail.com') local = local.replaceAll('.', '');
  return `${local}@${domain}`;
}

forEachBackend(t, async (t, backend) => {
  const app = await buildTestApp(t, { backend, env: { BOOKING_SLOT_CAPACITY: '50' } });
  const quote = (email: string, phone?: string) =>
    app.inject({ method: 'POST', url: '/v1/quote', payload: { service: 'Deluxe Clean', vehicleType: 'mid', email, ...(phone === undefined ? {} : { phone }) } });
  let slot = 0;
  /** A booking of `email` with `phone` in a slot of its own. */
  const bookAs = (email: string, phone: string) => {
    const n = slot++;
    return app.inject({
      method: 'POST',
      url: '/v1/create-booking',
      payload: originalClientPayload({ email, phone, date: inDays(3 + Math.floor(n / 8)), time: `${String(8 + (n % 8)).padStart(2, '0')}:00` }),
    });
  };

  t.test('variants of an e-mail address get no second discount', async (t) => {
    const first = await bookAs('bob@example.com', '021 700 0001');
    t.equal(first.statusCode, 201);
    t.same(first.json().quote.discount, FIRST_SERVICE, 'the first booking is discounted');
    for (const variant of ['Bob+1@example.com', '  BOB+promo@Example.COM ', 'bob+@example.com', 'bob+a+b@example.com']) {
      const quoted = await quote(variant);
      t.equal(quoted.statusCode, 200);
      t.equal(quoted.json().discount, null, `quote: ${variant}`);
    }
    const again = await bookAs('bob+2@example.com', '021 700 0002');
    t.equal(again.statusCode, 201);
    t.equal(again.json().quote.discount, null, 'create-booking: bob+2@example.com');

    const gmail = await bookAs('bob.smith@gmail.com', '021 700 0003');
    t.same(gmail.json().quote.discount, FIRST_SERVICE);
    for (const variant of ['b.o.b.s.m.i.t.h@gmail.com', 'BobSmith@GMAIL.com', 'bobsmith@googlemail.com', 'Bob.Smith+cars@GoogleMail.com']) {
      t.equal((await quote(variant)).json().discount, null, `quote: ${variant}`);
    }
    const dotted = await bookAs('b.o.b.smith@gmail.com', '021 700 0004');
    t.equal(dotted.json().quote.discount, null, 'create-booking: gmail dots');
    const google = await bookAs('BOBSMITH+x@googlemail.com', '021 700 0005');
    t.equal(google.json().quote.discount, null, 'create-booking: googlemail.com and upper case');

    // Dots count elsewhere, and sub-domains are other domains (see migrations/013).
    t.same((await quote('b.ob@example.com')).json().discount, FIRST_SERVICE, 'dots are kept outside gmail');
    t.same((await quote('bob@mail.example.com')).json().discount, FIRST_SERVICE, 'a sub-domain is another domain');
    t.same((await quote('bobsmith@gmail.com.au')).json().discount, FIRST_SERVICE, 'gmail.com.au is not gmail.com');

    const rows = await app.db.selectFrom('bookings').select(['email', 'email_canonical', 'phone_canonical']).where('id', '=', google.json().id).executeTakeFirstOrThrow();
    t.same(rows, { email: 'BOBSMITH+x@googlemail.com', email_canonical: 'bobsmith@gmail.com', phone_canonical: '0217000005' }, 'stored as typed, compared canonically');
  });

  t.test('the same phone number, however written, is the same customer', async (t) => {
    const first = await bookAs('aroha@example.com', '+64 21 123 4567');
    t.same(first.json().quote.discount, FIRST_SERVICE);
    for (const phone of ['021-123 4567', '(021) 1234567', '0064 21 123 4567', '+64 (0)21 123 4567', '6421 123 4567']) {
      t.equal((await quote('someone.else@example.net', phone)).json().discount, null, `quote with ${phone}`);
    }
    t.same((await quote('someone.else@example.net')).json().discount, FIRST_SERVICE, 'a quote without the phone knows only the address');
    t.same((await quote('someone.else@example.net', '021 123 4568')).json().discount, FIRST_SERVICE, 'another number is another customer');

    const other = await bookAs('someone.else@example.net', '(021) 1234567');
    t.equal(other.statusCode, 201);
    t.equal(other.json().quote.discount, null, 'create-booking: same phone, other address');

    // Cancelled bookings do not count, as for the e-mail.
    const cancelled = await bookAs('kahu@example.com', '09 555 7000');
    t.same(cancelled.json().quote.discount, FIRST_SERVICE);
    await app.db.updateTable('bookings').set({ status: 'cancelled' }).where('id', '=', cancelled.json().id).execute();
    t.same((await bookAs('kahu.again@example.com', '+64 9 555 7000')).json().quote.discount, FIRST_SERVICE, 'only a cancelled booking under that number');

    // The no-JavaScript wizard's step 3 quotes with the phone entered too.
    const { saveAddress: _unticked, ...fields } = originalClientPayload({ date: inDays(20), time: '09:00' });
    const shown = await app.inject({
      method: 'POST',
      url: '/booking',
      payload: form({ ...fields, email: 'nojs.new@example.com', phone: '021 123 4567', step: '2', action: 'next' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    t.equal(shown.statusCode, 200);
    t.equal(hydrationState(shown.body).quote.discount, null, 'no discount shown for a known phone');
  });

  t.test('concurrent first bookings under variants or one phone: exactly one discount', async (t) => {
    const variants = ['race.me@gmail.com', 'Race.Me@googlemail.com', 'r.a.c.e.m.e+1@gmail.com', 'raceme+2@GMAIL.COM'];
    const byAddress = await Promise.all(variants.map((email, i) => bookAs(email, `021 710 000${i}`)));
    t.same(byAddress.map((a) => a.statusCode), [201, 201, 201, 201]);
    t.equal(byAddress.filter((a) => a.json().quote.discount !== null).length, 1, 'one discount among address variants');

    const phones = ['+64 22 333 4444', '022 333 4444', '(022) 3334444', '0064223334444'];
    const byPhone = await Promise.all(phones.map((phone, i) => bookAs(`phone.racer${i}@example.org`, phone)));
    t.same(byPhone.map((a) => a.statusCode), [201, 201, 201, 201]);
    t.equal(byPhone.filter((a) => a.json().quote.discount !== null).length, 1, 'one discount among addresses sharing a phone');
  });

  t.test('the discount and the cap are index probes of the canonical columns', async (t) => {
    const explain = (query: ReturnType<typeof hasActiveBookingQuery> | ReturnType<typeof newBookingFactsQuery>) =>
      app.db.transaction().execute(async (trx) => {
        // A table this small is read whole anyway; forbidding that shows which index the planner would use.
        await sql`set local enable_seqscan = off`.execute(trx);
        const { rows } = await sql<{ 'QUERY PLAN': string }>`explain ${query}`.execute(trx);
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      });
    const quotePlan = await explain(hasActiveBookingQuery({ email: 'X+y@GoogleMail.com', phone: '021 555 0101' }));
    t.match(quotePlan, /bookings_uncancelled_email_canonical_idx/);
    t.match(quotePlan, /bookings_uncancelled_phone_canonical_idx/);
    // What a booking reads under its locks, the customer's part among the rest (one statement).
    const date = inDays(3);
    const factsPlan = await explain(
      newBookingFactsQuery({ email: 'x@example.com', phone: '021 555 0101' }, inDays(0), { date, span: placementSpan(date), now: new Date(), countNewCustomers: true }),
    );
    t.match(factsPlan, /bookings_active_email_canonical_idx/);
    t.match(factsPlan, /bookings_uncancelled_email_canonical_idx/);
    t.match(factsPlan, /bookings_uncancelled_phone_canonical_idx/);
    t.notMatch(factsPlan, /Seq Scan on bookings/, 'its other parts (the brake\'s count, the lapse, the schedule) probe indexes too');
  });

  t.test('canonical_email in SQL agrees with the reference model', async (t) => {
    const localChar = fc.constantFrom(...'abcxyzABCXYZ019.+-_'.split(''));
    const local = fc.array(localChar, { minLength: 1, maxLength: 12 }).map((chars) => chars.join(''));
    const domain = fc.oneof(
      fc.constantFrom('gmail.com', 'GMail.com', 'googlemail.com', 'GOOGLEMAIL.COM', 'gmail.com.au', 'mail.gmail.com', 'example.com', 'Mail.Example.com', 'xn--kwa.nz'),
      fc.array(fc.constantFrom(...'abz09-'.split('')), { minLength: 1, maxLength: 8 }).map((chars) => `${chars.join('')}.co.nz`),
    );
    const padding = fc.constantFrom('', ' ', '  ', '\t', ' \t');
    const address = fc.tuple(padding, local, domain, padding).map(([before, l, d, after]) => `${before}${l}@${d}${after}`);
    await fc.assert(
      fc.asyncProperty(fc.array(address, { minLength: 1, maxLength: 40 }), async (addresses) => {
        const { rows } = await sql<{ canonical: string | null }>`
          select canonical_email(a) as canonical from unnest(${addresses}::text[]) with ordinality as given(a, n) order by n`.execute(app.db);
        t.same(rows.map((r) => r.canonical), addresses.map(canonicalEmailModel));
        return rows.every((r, i) => r.canonical === canonicalEmailModel(addresses[i]!));
      }),
      { numRuns: 40 },
    );
    const { rows } = await sql<{ empty: string | null; bare: string | null }>`select canonical_email('  ') as empty, canonical_email('') as bare`.execute(app.db);
    t.same(rows[0], { empty: null, bare: null }, 'no address is no identity');
  });

  t.test('canonical_phone: one NZ number in any of its written forms is one value', async (t) => {
    // A national number: 0, then a mobile prefix and 6 to 8 digits, an area code and 7, or 800 and 6.
    const digits = (length: number) => fc.array(fc.constantFrom(...'0123456789'.split('')), { minLength: length, maxLength: length }).map((d) => d.join(''));
    const national = fc.oneof(
      fc.tuple(fc.constantFrom('21', '22', '27'), fc.integer({ min: 6, max: 8 }).chain(digits)).map(([p, d]) => `0${p}${d}`),
      fc.tuple(fc.constantFrom('3', '4', '6', '7', '9'), digits(7)).map(([p, d]) => `0${p}${d}`),
      digits(6).map((d) => `0800${d}`),
    );
    const separator = fc.constantFrom('', ' ', '-', '  ');
    const written = fc.tuple(national, fc.constantFrom('national', 'bracketed', '+64', '0064', '64', '+64 (0)'), separator).map(([n, form, sep]) => {
      const rest = n.slice(1);
      const grouped = `${rest.slice(0, 2)}${sep}${rest.slice(2, 5)}${sep}${rest.slice(5)}`;
      const text = form === 'national' ? `0${grouped}` : form === 'bracketed' ? `(0${rest.slice(0, 2)}) ${rest.slice(2)}` : form === '+64 (0)' ? `+64 (0)${grouped}` : `${form} ${grouped}`;
      return { n, text };
    });
    await fc.assert(
      fc.asyncProperty(fc.array(written, { minLength: 1, maxLength: 40 }), async (numbers) => {
        const { rows } = await sql<{ canonical: string | null }>`
          select canonical_phone(p) as canonical from unnest(${numbers.map((x) => x.text)}::text[]) with ordinality as given(p, n) order by n`.execute(app.db);
        t.same(rows.map((r) => r.canonical), numbers.map((x) => x.n));
        return rows.every((r, i) => r.canonical === numbers[i]!.n);
      }),
      { numRuns: 40 },
    );
    const { rows } = await sql<{ short: string | null; local: string | null }>`select canonical_phone('(-) 12') as short, canonical_phone('641 2345') as local`.execute(app.db);
    t.same(rows[0], { short: null, local: '6412345' }, 'under 7 digits: no identity; a 7-digit local number keeps its 64');
  });

  t.test('the canonical forms and a held range\'s end are inlined into the statements that use them (migrations/028)', async (t) => {
    // Run as functions, each planned its body again in every statement: a quarter of a booking's time in PostgreSQL.
    const { rows: plan } = await sql<{ 'QUERY PLAN': string }>`
      explain (verbose) select canonical_email(email), canonical_phone(phone), valet_add_minutes(ends_at, buffer_minutes) from bookings`.execute(app.db);
    const text = plan.map((row) => row['QUERY PLAN']).join('\n');
    t.match(text, /lower\(btrim\(/, 'the e-mail rule is in the plan');
    t.notMatch(text, /canonical_|valet_add_minutes/, 'no function left to call');
    const { rows } = await sql<Record<string, unknown>>`
      select canonical_email(null) as email, canonical_phone(null) as phone, valet_add_minutes(null, 30) as no_end,
             valet_add_minutes('2027-04-03T12:30:00Z', 90) as over_the_change`.execute(app.db);
    t.same(rows[0], { email: null, phone: null, no_end: null, over_the_change: new Date('2027-04-03T14:00:00Z') }, 'no value gives none; minutes are minutes across the end of daylight saving');
  });
});

forEachBackend(t, async (t, backend) => {
  t.test('the cap of upcoming bookings counts the variants of an address together, also when they race', async (t) => {
    const app = await buildTestApp(t, { backend, env: { BOOKING_SLOT_CAPACITY: '50', BOOKING_MAX_ACTIVE_PER_EMAIL: '2' } });
    let slot = 0;
    const bookAs = (email: string, phone: string) => {
      const n = slot++;
      return app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ email, phone, date: inDays(3 + n), time: '09:00' }) });
    };
    t.equal((await bookAs('cap.me@gmail.com', '021 720 0001')).statusCode, 201);
    t.equal((await bookAs('Cap.Me+1@googlemail.com', '021 720 0002')).statusCode, 201);
    const third = await bookAs('c.a.p.m.e+2@GMAIL.com', '021 720 0003');
    t.equal(third.statusCode, 409, 'a third variant is over the cap');
    t.same(third.json().errors, [{ field: 'email', message: tooManyActiveBookings(2) }]);
    t.equal((await bookAs('cap.me@mail.gmail.com', '021 720 0004')).statusCode, 201, 'another domain is another address');

    const racers = ['rush.hour@example.com', 'Rush.Hour+a@example.com', 'RUSH.HOUR+b@EXAMPLE.COM', ' rush.hour+c@example.com', 'rush.hour+d@Example.com', 'rush.hour+e@example.com'];
    const answers = await Promise.all(racers.map((email, i) => bookAs(email, `021 730 000${i}`)));
    t.same(answers.map((a) => a.statusCode).sort(), [201, 201, 409, 409, 409, 409], 'the canonical address is locked: exactly two booked');
    const stored = await app.db.selectFrom('bookings').select('id').where('email_canonical', '=', 'rush.hour@example.com').execute();
    t.equal(stored.length, 2);
  });

  t.test('"served before" (the hourly brake) knows the customer by canonical e-mail or phone', async (t) => {
    const app = await buildTestApp(t, { backend, env: { BOOKING_SLOT_CAPACITY: '50', ONLINE_NEW_BOOKINGS_PER_HOUR: '1' } });
    await app.db.insertInto('bookings').values(bookingRow({ email: 'served.one@gmail.com', phone: '09 555 0000', status: 'completed', date: inDays(-20) })).execute();
    let slot = 0;
    const bookAs = (email: string, phone: string) =>
      app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ email, phone, date: inDays(3 + slot++), time: '09:00' }) });

    t.equal((await bookAs('first.new@example.com', '021 740 0001')).statusCode, 201, 'the hour takes one new customer');
    const byEmail = await bookAs('Served.One+van@googlemail.com', '021 740 0002');
    t.equal(byEmail.statusCode, 201, 'an e-mail variant of a served customer is not braked');
    const byPhone = await bookAs('stranger@example.com', '+64 9 555 0000');
    t.equal(byPhone.statusCode, 201, 'the phone of a served customer is not braked');
    const flags = await app.db.selectFrom('bookings').select(['email', 'new_customer']).where('status', '=', 'pending').execute();
    t.same(Object.fromEntries(flags.map((f) => [f.email, f.new_customer])), {
      'Served.One+van@googlemail.com': false,
      'first.new@example.com': true,
      'stranger@example.com': false,
    }, 'only the new customer is counted');
    t.equal((await bookAs('second.new@example.com', '021 740 0003')).statusCode, 429, 'a new customer is braked');
  });
});
