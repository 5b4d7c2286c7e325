/**
 * Privacy requests and retention (issue 22) on both databases: a customer's export (JSON and
 * CSV), correction across their bookings, erasure wherever their details are held (every row of
 * every table read afterwards), the retention job by the app's clock, and the owner-only guard.
 */
import t from 'tap';
import { sql, type Kysely } from 'kysely';
import { addMonths } from 'date-fns';
import type { App } from '../src/app.ts';
import type { Database } from '../src/db/database.ts';
import { forEachBackend } from './helper.ts';
import { BOOKING_LINKS_KIND } from '../src/mail/booking-links.ts';
import { composeQueued } from '../src/mail/booking-mail.ts';
import { deriveManageLink, manageKey } from '../src/db/manage-link.repository.ts';
import { managePath } from '../src/domain/manage-link.ts';
import { staffApp, seed } from './support/completion.ts';
import { mailEnv } from './support/mail.ts';
import { inDays, originalClientPayload, testNow } from './support/payloads.ts';
import { startSmtp, until } from './support/smtp.ts';

interface Person {
  name: string;
  email: string;
  phone: string;
  street: string;
}

/** Every row of every table of the schema, as text (a dump), lower-cased. */
async function dump(db: Kysely<Database>): Promise<string> {
  const { rows: tables } = await sql<{ table_name: string }>`
    SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`.execute(db);
  let text = '';
  for (const { table_name } of tables) {
    const { rows } = await sql<{ row: string }>`SELECT t::text AS row FROM ${sql.table(table_name)} AS t`.execute(db);
    text += `\n[${table_name}]\n${rows.map((r) => r.row).join('\n')}`;
  }
  return text.toLowerCase();
}

/** The tables (in the dump) that still hold any of the person's details. */
function traces(text: string, person: Person): string[] {
  const needles = [person.name, person.email, person.phone, person.phone.replace(/\D/g, ''), person.street].map((n) => n.toLowerCase());
  const found: string[] = [];
  let table = '';
  for (const line of text.split('\n')) {
    const header = /^\[(.+)\]$/.exec(line);
    if (header) table = header[1]!;
    for (const needle of needles) if (line.includes(needle)) found.push(`${table}: ${needle}`);
  }
  return [...new Set(found)];
}

async function waitForOutbox(app: App): Promise<void> {
  await until(async () => (await app.db.selectFrom('outbox_emails').select('id').where('status', '=', 'queued').where('next_attempt_at', '<=', new Date()).execute()).length === 0, 'outbox sent');
}

forEachBackend(t, async (t, backend) => {
  const smtp = await startSmtp(t);
  let clock = testNow;
  const { app, cookie, complete } = await staffApp(
    t,
    backend,
    { ...mailEnv(smtp), LOG_LEVEL: 'silent', GST_NUMBER: '123-456-789', FIND_BOOKING_ANSWER_MS: '0', RETENTION_MONTHS: '24', RETENTION_EMAIL_BODY_DAYS: '90' },
    () => clock,
  );
  const staff = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  const customerOf = async (email: string) => (await staff('GET', `/v1/customers?q=${encodeURIComponent(email)}`)).json().data[0] as { id: string; name: string; totalSpentCents: number } | undefined;

  /** A customer with everything: two online bookings (one idempotent), one completed and paid, a note, a message, e-mails, a "Find my booking". */
  async function fullCustomer(person: Person, date: (n: number) => string) {
    const payload = (n: number) => originalClientPayload({ name: person.name, email: person.email, phone: person.phone, streetAddress: person.street, landmark: `By ${person.name}'s gate`, notes: `Call ${person.phone}`, date: date(n), time: '10:00' });
    const first = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: payload(3), headers: { 'idempotency-key': `privacy-${person.phone.replace(/\D/g, '')}` } });
    if (first.statusCode !== 201) throw new Error(first.body);
    const upcoming = first.json() as { id: string; reference: string };
    const doneId = await seed(app, { name: person.name, email: person.email, phone: person.phone, street_address: person.street, date: date(-3), time: '09:00' });
    const completed = await complete(doneId, {});
    if (completed.statusCode !== 200) throw new Error(completed.body);
    await staff('POST', `/v1/bookings/${doneId}/notes`, { text: `Gate code for ${person.name}: 4411` });
    const message = await app.inject({ method: 'POST', url: '/v1/contact-us-form', payload: { name: person.name, email: person.email, phone: person.phone, message: `I live on ${person.street}` } });
    if (message.statusCode >= 300) throw new Error(message.body);
    const find = await app.inject({ method: 'POST', url: '/v1/find-booking', payload: { email: person.email.toUpperCase() } });
    if (find.statusCode !== 202) throw new Error(find.body);
    await waitForOutbox(app);
    // The e-mails hold a slot the sender fills with the link: the link is made here as the sender makes it.
    const { manage_nonce: nonce } = await app.db.selectFrom('bookings').select('manage_nonce').where('id', '=', upcoming.id).executeTakeFirstOrThrow();
    const link = managePath(deriveManageLink(await manageKey(app.db), upcoming.id, nonce!).token);
    return { upcoming, doneId, link };
  }

  const aroha: Person = { name: 'Arohanui Tipene-Whitcombe', email: 'Arohanui.Tipene@Example.org', phone: '021 555 0199', street: 'Kauri Gully Road' };

  t.test('export, correction and erasure of one customer', async (t) => {
    const { upcoming, doneId, link } = await fullCustomer(aroha, inDays);
    const before = await app.inject({ method: 'GET', url: link });
    t.equal(before.statusCode, 200, `the manage link works before (${link} ${before.statusCode})`);
    const invoice = await app.db.selectFrom('booking_payments').selectAll().where('booking_id', '=', doneId).executeTakeFirstOrThrow();
    t.ok(invoice.invoice_number, 'a numbered tax invoice');
    const customer = (await customerOf('arohanui.tipene@example.org'))!;
    t.equal(customer.totalSpentCents, invoice.amount_cents, 'total spent is what was paid');

    t.test('the export holds their bookings with history and notes, messages and e-mails', async (t) => {
      const res = await staff('GET', `/v1/customers/${customer.id}/export`);
      t.equal(res.statusCode, 200);
      t.match(res.headers['content-disposition'], /^attachment; filename="customer-[0-9a-f]{8}-\d{4}-\d{2}-\d{2}\.json"$/, String(res.headers['content-disposition']));
      const body = res.json();
      t.equal(body.bookings.length, 2);
      const done = body.bookings.find((b: { booking: { _id: string } }) => b.booking._id === doneId);
      t.match(done, { booking: { name: aroha.name, streetAddress: aroha.street }, notes: [{ text: /Gate code/ }], payment: { invoiceNumber: invoice.invoice_number } });
      t.ok(done.history.length >= 1, 'with its history');
      t.match(body.contactMessages, [{ message: `I live on ${aroha.street}` }]);
      const kinds = body.emails.map((e: { kind: string }) => e.kind);
      t.ok(kinds.includes('booking-created'), 'the confirmation e-mail');
      t.ok(kinds.includes(BOOKING_LINKS_KIND), 'the "Find my booking" e-mail, found by its recipient');
      t.match(body.emails.find((e: { kind: string }) => e.kind === 'booking-created'), { status: 'sent', sentAt: String, subject: String, text: /Arohanui/ }, 'with their status');
      t.match(body.emails.find((e: { kind: string }) => e.kind === 'booking-reminder'), { status: 'queued', sentAt: null, text: /Arohanui[\s\S]*Kauri Gully Road/ }, 'a queued one composed from its snapshot');

      const csv = await staff('GET', `/v1/customers/${customer.id}/export?format=csv`);
      t.equal(csv.statusCode, 200);
      t.match(csv.headers['content-type'], /^text\/csv/);
      t.match(csv.headers['content-disposition'], /\.csv"$/);
      t.match(csv.body, /Record,Reference,When,Status,Name,Email,Phone,Address,Details/);
      t.match(csv.body, new RegExp(`booking,${upcoming.reference},`));
      t.match(csv.body, /note,.*Gate code/);
      t.match(csv.body, /message,.*I live on Kauri Gully Road/);
    });

    t.test('a correction changes every booking, with a history line, and the summary follows', async (t) => {
      const bad = await staff('PATCH', `/v1/customers/${customer.id}`, { phone: 'not a phone', streetAddress: ' ' });
      t.equal(bad.statusCode, 400);
      t.same(bad.json().errors.map((e: { field: string }) => e.field).sort(), ['phone', 'streetAddress']);
      const res = await staff('PATCH', `/v1/customers/${customer.id}`, { phone: '027 444 0101', streetAddress: 'Totara Lane' });
      t.equal(res.statusCode, 200, res.body);
      t.match(res.json(), { customer: { id: customer.id, phone: '027 444 0101' }, bookingsChanged: 2 });
      const rows = await app.db.selectFrom('bookings').select(['phone', 'street_address']).where('id', 'in', [upcoming.id, doneId]).execute();
      t.same(rows.map((r) => [r.phone, r.street_address]), [['027 444 0101', 'Totara Lane'], ['027 444 0101', 'Totara Lane']]);
      const history = await app.db.selectFrom('booking_status_changes').select('changes').where('booking_id', '=', doneId).where('changes', 'is not', null).execute();
      t.match(history.at(-1)!.changes, [{ field: 'Phone', from: aroha.phone, to: '027 444 0101' }, { field: 'Address', from: /Kauri Gully Road/, to: /Totara Lane/ }]);
      const renamed = await staff('PATCH', `/v1/customers/${customer.id}`, { email: 'aroha.new@example.org' });
      t.equal(renamed.statusCode, 200);
      t.not(renamed.json().customer.id, customer.id, 'another e-mail, another customer: its id is answered');
      t.equal(await customerOf('arohanui.tipene@example.org'), undefined, 'the old row is gone');
      const back = await staff('PATCH', `/v1/customers/${renamed.json().customer.id}`, { email: aroha.email });
      customer.id = back.json().customer.id;
    });

    t.test('erasure asks for confirmation, then leaves none of their details anywhere', async (t) => {
      const unconfirmed = await staff('POST', `/v1/customers/${customer.id}/erasure`, { confirmation: 'yes' });
      t.equal(unconfirmed.statusCode, 400);
      t.match(unconfirmed.json(), { errors: [{ field: 'confirmation' }] });
      t.ok(traces(await dump(app.db), aroha).length > 0, 'their details are held before');
      // The reminder is due in two days: not yet composed, its snapshot holds the booking as it was made (issue 24).
      const waiting = await app.db.selectFrom('outbox_emails').selectAll().where('booking_id', '=', upcoming.id).where('kind', '=', 'booking-reminder').executeTakeFirstOrThrow();
      t.match(waiting, { status: 'queued', text_body: null, html_body: null });
      t.match(JSON.stringify(waiting.snapshot), aroha.name, 'the snapshot names them');
      t.match(JSON.stringify(waiting.snapshot), 'Kauri Gully Road', 'with the address as it was when they booked');

      const res = await staff('POST', `/v1/customers/${customer.id}/erasure`, { confirmation: aroha.name.toUpperCase() });
      t.equal(res.statusCode, 200, res.body);
      const { erased } = res.json();
      t.match(erased, { bookings: 2, booking_notes: 1, contact_messages: 1 });
      t.ok(erased.booking_status_changes >= 2, 'the correction lines');
      t.ok(erased.outbox_emails >= 4, 'confirmations, staff notices, find-my-booking, receipt');
      t.equal(erased.idempotency_keys, 1, 'the stored answer to the idempotent booking');

      const text = await dump(app.db);
      t.same(traces(text, aroha), [], 'no name, e-mail, phone or street in any row of any table');
      t.same(traces(text, { ...aroha, phone: '027 444 0101', street: 'Totara Lane', email: 'aroha.new@example.org' }), [], 'nor the corrected ones');
      t.equal((await app.inject({ method: 'GET', url: link })).statusCode, 404, 'the manage link no longer works');
      const kept = await app.db.selectFrom('booking_payments').selectAll().where('booking_id', '=', doneId).executeTakeFirstOrThrow();
      t.match(kept, { invoice_number: invoice.invoice_number, amount_cents: invoice.amount_cents, gst_cents: invoice.gst_cents }, 'invoice number and amounts remain');
      const booking = await app.db.selectFrom('bookings').selectAll().where('id', '=', doneId).executeTakeFirstOrThrow();
      t.match(booking, { status: 'completed', service: 'Quick Clean', name: 'Erased', email: '', erased_at: Date });
      t.equal((await staff('GET', `/v1/customers/${customer.id}`)).statusCode, 404, 'the customer is gone from the list');
      const log = await app.db.selectFrom('erasures').selectAll().execute();
      t.match(log, [{ reason: 'request', erased_by: String, counts: erased }]);
      t.equal((await staff('POST', `/v1/customers/${customer.id}/erasure`, { confirmation: 'ERASE' })).statusCode, 404, 'nothing left to erase');
    });
  });

  t.test("an erasure takes the vehicles' plates, makes and models: from the booking, its history, every row and every API answer (issue 41)", async (t) => {
    const owner = { name: 'Piripi Waaka', email: 'piripi.plates@example.org' };
    const traced = ['PRV123', 'PRV456', 'Commodore', 'Holden'];
    const car = (plate: string) => ({ service: 'Quick Clean', selectedVehicleType: 'sm', make: 'Holden', model: 'Commodore', colour: 'Teal', plate });
    const made = await staff('POST', '/v1/bookings', { ...originalClientPayload({ ...owner, phone: '021 555 0456', service: '', selectedVehicleType: '', vehicleType: '', date: inDays(6) }), vehicles: [car('prv 123')] });
    t.equal(made.statusCode, 201, made.body);
    const booking = made.json().booking;
    const edited = await staff('PATCH', `/v1/bookings/${booking._id}`, { version: booking.version, vehicles: [car('PRV123'), car('PRV456')] });
    t.equal(edited.statusCode, 200, edited.body);
    t.match(edited.json().changes, [{ field: 'Vehicles', to: /PRV123.*PRV456/ }], 'the history names the plates');
    const customer = (await customerOf(owner.email))!;
    t.match((await staff('GET', `/v1/customers/${customer.id}`)).json().vehicles, [{ name: 'PRV123' }, { name: 'PRV456' }], 'listed by plate before');

    const res = await staff('POST', `/v1/customers/${customer.id}/erasure`, { confirmation: 'ERASE' });
    t.equal(res.statusCode, 200, res.body);
    const row = await app.db.selectFrom('bookings').selectAll().where('id', '=', booking._id).executeTakeFirstOrThrow();
    t.same(row.vehicles.map((v) => [v.plate, v.make, v.model, v.colour, v.service]), [['', '', '', '', 'Quick Clean'], ['', '', '', '', 'Quick Clean']], 'the work kept, the vehicles no longer named');
    const text = await dump(app.db);
    t.same(traced.filter((needle) => text.includes(needle.toLowerCase())), [], 'in no row of any table');
    const answers = [
      `/v1/bookings/${booking._id}`,
      `/v1/bookings?date=${inDays(6)}`,
      `/v1/bookings/export.csv?date=${inDays(6)}`,
      '/v1/bookings/upcoming',
      `/v1/schedule?date=${inDays(6)}`,
      `/v1/schedule/week?from=${inDays(6)}`,
      '/v1/getall-booking',
    ];
    for (const url of answers) {
      const answer = await staff('GET', url);
      t.equal(answer.statusCode, 200, url);
      t.same(traced.filter((needle) => answer.body.toLowerCase().includes(needle.toLowerCase())), [], `nor in GET ${url}`);
    }
    t.match((await staff('GET', `/v1/bookings/${booking._id}`)).json().booking.quote.lines, [{ description: 'Vehicle 1: Quick Clean, Small Car' }, { description: 'Vehicle 2: Quick Clean, Small Car' }], 'its lines name the vehicles by position');
  });

  t.test('retention erases what is older than RETENTION_MONTHS, by the app clock, and leaves the recent', async (t) => {
    const old: Person = { name: 'Oldfield Paraone', email: 'oldfield@example.net', phone: '022 700 3311', street: 'Rimu Terrace' };
    const recent: Person = { name: 'Newman Kereama', email: 'newman@example.net', phone: '022 700 4422', street: 'Matai Crescent' };
    const { link } = await fullCustomer(old, inDays);
    const invoiceBefore = await app.db.selectFrom('booking_payments').select(['invoice_number', 'amount_cents']).orderBy('invoice_number', 'desc').executeTakeFirstOrThrow();
    // Twenty-five months on: the old customer's jobs ended more than 24 months ago.
    clock = addMonths(testNow, 25);
    const later = (n: number) => new Date(clock.getTime() + n * 86_400_000).toLocaleDateString('en-CA', { timeZone: 'Pacific/Auckland' });
    await fullCustomer(recent, later);
    // Messages and e-mails are stamped by the database's clock, and sent by the real one: the recent ones as of the app's.
    await app.db.updateTable('contact_messages').set({ created_at: clock } as never).where('name', '=', recent.name).execute();
    // Sent as the sender sends them: composed from their snapshots first (issue 24), the reminder among them.
    for (const row of await app.db.selectFrom('outbox_emails').selectAll().where('to_address', 'ilike', recent.email).where('snapshot', 'is not', null).execute()) {
      const { text_body, html_body, ics } = composeQueued(row, app.mail);
      await app.db.updateTable('outbox_emails').set({ text_body, html_body, ics, snapshot: null }).where('id', '=', row.id).execute();
    }
    await app.db.updateTable('outbox_emails').set({ created_at: clock, sent_at: clock, status: 'sent' } as never).where('to_address', 'ilike', recent.email).execute();

    const run = await app.applyRetention();
    t.ok(run?.erased && run.erased.bookings >= 2, 'the old bookings erased');
    const text = await dump(app.db);
    t.same(traces(text, old), [], 'none of the old customer left');
    t.ok(traces(text, recent).length > 5, 'the recent customer untouched');
    t.equal((await app.inject({ method: 'GET', url: link })).statusCode, 404);
    t.match(await app.db.selectFrom('booking_payments').select(['invoice_number', 'amount_cents']).where('invoice_number', '=', invoiceBefore.invoice_number).executeTakeFirst(), invoiceBefore);
    t.ok(await customerOf(recent.email), 'the recent customer is still listed');
    t.match(await app.db.selectFrom('erasures').selectAll().where('reason', '=', 'retention').execute(), [{ erased_by: 'Retention' }]);

    // A sent e-mail's body goes after 90 days.
    clock = new Date(clock.getTime() + 91 * 86_400_000);
    const second = await app.applyRetention();
    t.ok(second && second.bodiesEmptied > 0, 'bodies of e-mails sent 91 days ago emptied');
    const bodies = await app.db.selectFrom('outbox_emails').select(['text_body', 'html_body', 'subject', 'status']).where('to_address', 'ilike', recent.email).execute();
    t.ok(bodies.length > 0 && bodies.every((b) => b.text_body === '' && b.html_body === '' && b.status === 'sent' && b.subject !== ''), 'subject and status kept, bodies gone');
  });

  t.test('owner only: export and erasure answer 403 to a signed-in member who is not the owner', async (t) => {
    const spec = (await app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    for (const [path, method] of [['/v1/customers/{id}/export', 'get'], ['/v1/customers/{id}/erasure', 'post'], ['/v1/customers/{id}', 'patch']] as const) {
      const operation = spec.paths[path]?.[method];
      t.ok(operation, `${method} ${path} documented`);
      t.ok(operation?.responses?.['403'], `${method} ${path} documents 403`);
    }
  });
});

t.test('owner only: a member of staff signed in with their own account is refused the export and the erasure (403)', async (t) => {
  const { buildTestApp, login } = await import('./helper.ts');
  const argon2 = (await import('argon2')).default;
  const app = await buildTestApp(t);
  const owner = await login(app);
  const invited = await app.inject({ method: 'POST', url: '/v1/staff-members', headers: { cookie: owner }, payload: { name: 'Wiremu', email: 'wiremu@valet.test', role: 'staff' } });
  t.equal(invited.statusCode, 201);
  // The password as if set through the invitation, at OWASP's minimum cost.
  const password = 'violet kettle harbour 42';
  await app.db
    .updateTable('staff_members')
    .set({ password_hash: await argon2.hash(password, { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 }), password_changed_at: new Date() })
    .where('id', '=', invited.json().id)
    .execute();
  const signedIn = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'wiremu@valet.test', password } });
  t.equal(signedIn.statusCode, 204, 'the member signs in');
  const session = signedIn.cookies.find((c) => c.name === 'session')!;
  const cookie = `session=${session.value}`;
  const seeded = await app.db.insertInto('bookings').values((await import('./support/payloads.ts')).bookingRow({ email: 'member@example.org' }) as never).returning('id').executeTakeFirstOrThrow();
  const customer = await app.db.selectFrom('customers').select('id').where('key', '=', 'e:member@example.org').executeTakeFirstOrThrow();
  for (const [method, url, payload] of [
    ['GET', `/v1/customers/${customer.id}/export`, undefined],
    ['POST', `/v1/customers/${customer.id}/erasure`, { confirmation: 'ERASE' }],
  ] as const) {
    const res = await app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
    t.equal(res.statusCode, 403, `${method} ${url}`);
    t.match(res.json(), { message: String, errors: [] });
  }
  t.equal((await app.inject({ method: 'GET', url: `/v1/customers/${customer.id}`, headers: { cookie } })).statusCode, 200, 'reading the customer is for all staff');
  t.ok(await app.db.selectFrom('bookings').select('id').where('id', '=', seeded.id).where('erased_at', 'is', null).executeTakeFirst(), 'nothing erased');
});
