/**
 * Issue 24: a booking's transaction composes no e-mail while it holds its locks. It queues each
 * e-mail with a snapshot (the booking as it wrote it, when, the manage-link slot) and the sender
 * composes the text, HTML and invitation from it at send time. On both databases:
 * (1) the rows a booking's transaction inserts hold a snapshot and no bodies, and the staff
 *     E-mails view shows such a row composed (not stored);
 * (2) a booking moved by staff before its first e-mail is sent: that e-mail still shows the
 *     booking as it was made (its time, its invitation's SEQUENCE and DTSTAMP), the move's its own;
 * (3) a process that stops right after the commit loses nothing: a new app on the same database
 *     composes and delivers the e-mail, its invitation parsing strictly;
 * (4) the database refuses a row with neither bodies nor a snapshot.
 * And a completion's receipt, queued in a transaction that holds the booking and the invoice
 * counter, is a snapshot too, composed and delivered when sent.
 *
 * The sender runs only when the test wakes it: MAIL_POLL_MS is an hour, and the app's mail context
 * has no onQueued, so a request that queues mail does not wake it (the test chooses when it runs).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ICAL from 'ical.js';
import { sql } from 'kysely';
import t from 'tap';
import type { App } from '../src/app.ts';
import { appointmentText, slotStartsAt } from '../src/domain/booking-dates.ts';
import { MASKED_TOKEN } from '../src/domain/manage-link.ts';
import { buildTestApp, createServerDatabase, forEachBackend, login } from './helper.ts';
import { inDays, testNow } from './support/payloads.ts';
import { seed } from './support/completion.ts';
import { STAFF, book, eventOf, invitationOf, mailEnv, outbox, to } from './support/mail.ts';
import { startSmtp } from './support/smtp.ts';

/** An instant as an invitation's DTSTAMP holds it: whole seconds. */
const seconds = (at: Date) => new Date(Math.floor(at.getTime() / 1000) * 1000).toISOString();

/** The app with a sender that runs only when woken by the test. */
function idle(app: App): App {
  app.mail.onQueued = undefined;
  return app;
}

/** The one VEVENT of an invitation, read by Mozilla's ical.js (which throws on what it cannot parse). */
function strictEvent(ics: string) {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  const events = calendar.getAllSubcomponents('vevent');
  if (events.length !== 1) throw new Error(`${events.length} VEVENTs`);
  const event = new ICAL.Event(events[0]!);
  return {
    method: calendar.getFirstPropertyValue('method') as string,
    uid: event.uid,
    sequence: event.sequence,
    start: event.startDate.toJSDate().toISOString(),
    stamp: (events[0]!.getFirstPropertyValue('dtstamp') as ICAL.Time).toJSDate().toISOString(),
    attendees: event.attendees.length,
  };
}

await forEachBackend(t, async (t, backend) => {
  const smtp = await startSmtp(t);
  let where: Record<string, string>;
  if (backend === 'postgres') {
    where = { DATABASE_URL: await createServerDatabase(t, { migrated: true }) };
  } else {
    const dir = await mkdtemp(path.join(tmpdir(), 'outbox-snapshot-'));
    t.teardown(() => rm(dir, { recursive: true, force: true }));
    where = { DATA_DIR: dir };
  }
  const env = { ...mailEnv(smtp), MAIL_POLL_MS: '3600000', ...where };
  let clock = testNow;
  const first = idle(await buildTestApp(t, { backend, env, now: () => clock }));
  const cookie = await login(first);
  const receivedBy = (address: string) => smtp.received.filter((m) => to(m).includes(address));

  const date = inDays(6);
  const customer = 'hemi.snapshot@example.co.nz';
  const made = await book(first, { name: 'Hemi Snapshot', email: customer, date, time: '09:00' });

  t.test('(1) the booking transaction queues snapshots, not bodies; staff read a queued e-mail composed', async (t) => {
    const rows = await outbox(first, made.id);
    t.same(rows.map((r) => r.kind).sort(), ['booking-created', 'booking-reminder', 'staff-new-booking']);
    for (const row of rows) {
      t.match(row, { status: 'queued', text_body: null, html_body: null, ics: null, subject: new RegExp(made.reference) }, `${row.kind}: no bodies`);
      t.type(row.snapshot, 'object', `${row.kind}: a snapshot`);
      t.equal(row.snapshot!.at, testNow.toISOString(), 'the moment of the event');
      t.match(row.snapshot!.booking, { id: made.id, reference: made.reference, date, time: '09:00', version: 1, name: 'Hemi Snapshot', email: customer });
      t.notOk('manage_nonce' in row.snapshot!.booking || 'manage_token_hash' in row.snapshot!.booking, 'no manage-link secret in it');
      t.ok(row.snapshot!.dates.includes('starts_at'), 'its instants named, to be read back as dates');
    }
    const created = rows.find((r) => r.kind === 'booking-created')!;
    t.match(created, { to_name: 'Hemi Snapshot', to_address: customer, ics_method: 'REQUEST' });
    t.match(created.snapshot!.manageLink, /\/booking\/manage\/MANAGE-TOKEN-SLOT-/, 'the manage link as its slot');
    t.match(rows.find((r) => r.kind === 'staff-new-booking'), { to_address: STAFF, reply_to_address: customer, ics_method: null, snapshot: { manageLink: null } });
    t.ok(rows.find((r) => r.kind === 'booking-reminder')!.next_attempt_at > testNow, 'the reminder due later');
    t.equal(smtp.received.length, 0, 'nothing sent yet');

    const view = await first.inject({ url: `/v1/emails/${created.id}`, headers: { cookie } });
    t.equal(view.statusCode, 200);
    const detail = view.json();
    t.match(detail.text, 'Hi Hemi Snapshot', 'the staff view composes it');
    t.match(detail.text, appointmentText(date, '09:00'));
    t.match(detail.text, `/booking/manage/${MASKED_TOKEN}`, 'its manage link masked');
    t.notMatch(detail.text, 'MANAGE-TOKEN-SLOT-');
    t.equal(strictEvent(detail.invitation.ics).start, new Date(slotStartsAt(date, '09:00')).toISOString(), 'with its invitation');
    const html = await first.inject({ url: `/v1/emails/${created.id}/html`, headers: { cookie } });
    t.match(html.body, /^<!DOCTYPE html>/);
    t.match(html.body, made.reference);
    t.match(await first.db.selectFrom('outbox_emails').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow(), { text_body: null, html_body: null, status: 'queued' }, 'composed for reading, not stored');
  });

  t.test('(2) moved by staff before its first e-mail was sent: that e-mail shows the booking as it was made', async (t) => {
    clock = new Date(testNow.getTime() + 60_000);
    const newDate = inDays(8);
    const moved = await first.inject({ method: 'POST', url: `/v1/bookings/${made.id}/move`, headers: { cookie }, payload: { version: 1, date: newDate, time: '11:00' } });
    t.equal(moved.statusCode, 200, moved.body);
    t.equal(smtp.received.length, 0, 'still nothing sent');
    await first.mailer.wake();

    const mails = receivedBy(customer);
    t.equal(mails.length, 2, 'the confirmation and the move');
    const confirmation = mails.find((m) => /^Booking received/.test(m.subject!))!;
    const move = mails.find((m) => /^Booking moved/.test(m.subject!))!;
    t.match(confirmation.text!, `We have your booking for ${appointmentText(date, '09:00')}`, 'the confirmation: the time it was booked for');
    t.notMatch(confirmation.text!, appointmentText(newDate, '11:00'));
    t.match(String(confirmation.html), appointmentText(date, '09:00'));
    const first_ = strictEvent(invitationOf(confirmation)!);
    t.match(first_, { method: 'REQUEST', uid: `${made.id}@localhost`, sequence: 1, start: new Date(slotStartsAt(date, '09:00')).toISOString(), stamp: seconds(testNow), attendees: 1 });
    t.match(move.text!, `Your booking is now on ${appointmentText(newDate, '11:00')}`);
    t.match(strictEvent(invitationOf(move)!), { sequence: 2, start: new Date(slotStartsAt(newDate, '11:00')).toISOString(), stamp: seconds(clock) });
    const staff = receivedBy(STAFF).find((m) => m.subject!.includes(made.reference))!;
    t.match(staff.subject, appointmentText(date, '09:00'), 'staff are told of the booking as it was made');

    const rows = await outbox(first, made.id);
    const sent = rows.filter((r) => r.status === 'sent');
    t.same(sent.map((r) => r.kind).sort(), ['booking-created', 'booking-moved', 'staff-new-booking']);
    for (const row of sent) {
      t.equal(row.snapshot, null, `${row.kind}: the snapshot cleared once composed`);
      t.ok(row.text_body && row.html_body, `${row.kind}: the bodies sent are stored`);
    }
    const stored = sent.find((r) => r.kind === 'booking-created')!;
    t.match(stored.text_body, appointmentText(date, '09:00'));
    t.match(stored.text_body, 'MANAGE-TOKEN-SLOT-', 'stored with the slot, not the live link');
    t.match(stored.ics, /DTSTART/);
    t.match(rows.filter((r) => r.kind === 'booking-reminder').map((r) => r.status).sort(), ['queued', 'skipped'], 'the old reminder skipped, a new one queued');
  });

  t.test('(3) a process that stops right after the commit loses nothing: another composes and delivers', async (t) => {
    const address = 'after.stop@example.co.nz';
    const later = await book(first, { name: 'Mere After', email: address, date: inDays(7), time: '10:00' });
    await first.close();
    t.equal(receivedBy(address).length, 0, 'nothing was sent before it stopped');

    const next = idle(await buildTestApp(t, { backend, env, now: () => clock }));
    const queued = await outbox(next, later.id);
    t.ok(queued.length === 3 && queued.every((r) => r.status === 'queued' && r.text_body === null && r.snapshot !== null), 'its e-mails wait as snapshots');
    await next.mailer.wake();
    const mails = receivedBy(address);
    t.equal(mails.length, 1, 'the confirmation delivered');
    const mail = mails[0]!;
    t.match(mail.text!, `Hi Mere After`);
    t.match(mail.text!, appointmentText(inDays(7), '10:00'));
    const ics = invitationOf(mail)!;
    t.ok(ics, 'with its invitation');
    t.match(strictEvent(ics), { method: 'REQUEST', uid: `${later.id}@localhost`, sequence: 1, start: new Date(slotStartsAt(inDays(7), '10:00')).toISOString(), attendees: 1 }, 'which parses strictly');
    t.equal(eventOf(ics).start.toISOString(), new Date(slotStartsAt(inDays(7), '10:00')).toISOString(), 'and in node-ical');
    const live = /\/booking\/manage\/([A-Za-z0-9_-]{43})/.exec(mail.text!);
    t.ok(live, 'the live manage link filled in');
    t.equal((await next.inject({ url: `/booking/manage/${live![1]}` })).statusCode, 200, 'and it opens the booking');
    const row = (await outbox(next, later.id)).find((r) => r.kind === 'booking-created')!;
    t.match(row, { status: 'sent', snapshot: null, text_body: /Mere After/, ics: /BEGIN:VCALENDAR/ });
    t.ok(receivedBy(STAFF).some((m) => m.subject!.includes(later.reference)), 'staff told too');

    t.test('a completion queues its receipt as a snapshot too: composed and delivered when sent', async (t) => {
      const staff = await login(next);
      const id = await seed(next, { name: 'Ana Receipt', email: 'ana.receipt@example.co.nz' });
      const done = await next.inject({ method: 'POST', url: `/v1/bookings/${id}/completion`, headers: { cookie: staff }, payload: { version: 1, paid: true, paymentMethod: 'cash' } });
      t.equal(done.statusCode, 200, done.body);
      const queued = (await outbox(next, id)).find((r) => r.kind === 'booking-receipt')!;
      t.match(queued, { status: 'queued', text_body: null, html_body: null, subject: /^Receipt: / });
      t.match(queued.snapshot, { booking: { id, name: 'Ana Receipt' }, payment: { payment_method: 'cash' }, link: /\/booking\/receipt\// });
      await next.mailer.wake();
      const mail = receivedBy('ana.receipt@example.co.nz')[0]!;
      t.ok(mail, 'delivered');
      t.match(mail.text!, 'Hi Ana Receipt');
      t.match(mail.text!, /Payment: Paid \(cash\)/);
      const link = /\/booking\/receipt\/[A-Za-z0-9_-]{43}/.exec(mail.text!)![0];
      t.equal((await next.inject({ url: link })).statusCode, 200, 'its link opens the receipt');
      t.match((await outbox(next, id)).find((r) => r.kind === 'booking-receipt'), { status: 'sent', snapshot: null, text_body: /Payment: Paid/ });
    });

    t.test('(4) the database refuses a row with neither bodies nor a snapshot', async (t) => {
      const insert = (snapshot: string | null, body: string | null) =>
        sql`INSERT INTO outbox_emails (kind, to_name, to_address, subject, text_body, html_body, snapshot, status, next_attempt_at)
            VALUES ('booking-created', 'X', 'x@example.co.nz', 'S', ${body}, ${body}, ${snapshot}::jsonb, 'skipped', now())`.execute(next.db);
      await t.rejects(insert(null, null), /outbox_emails_bodies_or_snapshot/, 'neither: refused');
      await t.rejects(insert('"text"', null), /outbox_emails_bodies_or_snapshot/, 'a snapshot must be an object');
      await t.resolves(insert('{"at":"2026-01-01T00:00:00.000Z"}', null), 'a snapshot alone: accepted');
      await t.resolves(insert(null, 'body'), 'bodies alone: accepted');
    });

    t.test('(5) the outbox is analysed from a sample of 3,000 rows: every column and index expression (migrations/031)', async (t) => {
      // ANALYZE holds 300 × the largest target as whole rows, 3 KB each here, in memory the embedded database never gives back.
      const { rows } = await sql<{ target: string; of: string }>`
        select coalesce(a.attstattarget::int, -1)::text as target, 'outbox_emails.' || a.attname as of
          from pg_attribute a where a.attrelid = 'outbox_emails'::regclass and a.attnum > 0 and not a.attisdropped
        union all
        select coalesce(a.attstattarget::int, -1)::text, c.relname || ' expression ' || a.attnum
          from pg_index i join pg_class c on c.oid = i.indexrelid join pg_attribute a on a.attrelid = i.indexrelid and a.attnum > 0
         where i.indrelid = 'outbox_emails'::regclass and i.indkey[a.attnum - 1] = 0`.execute(next.db);
      t.ok(rows.some((row) => row.of.startsWith('outbox_emails_recipient_idx')), 'the index expression is among them');
      t.same(rows.filter((row) => row.target !== '10'), [], 'none at the default target');
    });
  });
});
