/**
 * Issue 23: live manage links are not written down. The outbox stores each customer e-mail with a
 * slot where the token goes and the sender fills it in as it hands the e-mail to the SMTP server:
 * the delivered e-mail (text, HTML and invitation) carries a link that opens the booking, while
 * every table, a pg_dump of the database and the staff E-mails view hold no live token.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import t from 'tap';
import { manageLinkFor } from '../src/db/manage-link.repository.ts';
import { MASKED_TOKEN } from '../src/domain/manage-link.ts';
import { buildTestApp, createServerDatabase, forEachBackend, login } from './helper.ts';
import { inDays } from './support/payloads.ts';
import { book, eventOf, invitationOf, mailEnv, to } from './support/mail.ts';
import { startSmtp, until } from './support/smtp.ts';

const run = promisify(execFile);

/** Every row of every table of the app's schema, as text. */
async function everyRow(app: Awaited<ReturnType<typeof buildTestApp>>): Promise<string> {
  const tables = await sql<{ name: string }>`SELECT quote_ident(table_name) AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`.execute(app.db);
  const texts: string[] = [];
  for (const { name } of tables.rows) {
    const rows = await sql<{ row: string }>`SELECT t::text AS row FROM ${sql.raw(name)} t`.execute(app.db);
    texts.push(...rows.rows.map((r) => r.row));
  }
  return texts.join('\n');
}

async function pgDumpAvailable(): Promise<boolean> {
  try {
    await run('pg_dump', ['--version']);
    return true;
  } catch {
    return false;
  }
}

await forEachBackend(t, async (t, backend) => {
  const smtp = await startSmtp(t);
  const databaseUrl = backend === 'postgres' ? await createServerDatabase(t) : undefined;
  const app = await buildTestApp(t, { backend, env: { ...mailEnv(smtp), ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) } });
  const cookie = await login(app);

  const booking = await book(app, { email: 'kept.secret@example.co.nz', date: inDays(6), time: '10:00' });
  const link = (await manageLinkFor(app.db, booking.id, 'http://localhost:80'))!;
  const token = new URL(link).pathname.split('/').pop()!;
  await until(() => smtp.received.filter((m) => to(m).includes('kept.secret@example.co.nz')).length >= 1, 'the confirmation');
  await until(async () => (await app.db.selectFrom('outbox_emails').select('status').where('booking_id', '=', booking.id).where('kind', '=', 'booking-created').executeTakeFirstOrThrow()).status === 'sent', 'the row marked sent');

  // A finished job's receipt links to its page by the same token: sent live, stored as a slot.
  const done = await book(app, { email: 'receipt.kept@example.co.nz', date: inDays(7), time: '10:00' });
  const doneToken = new URL((await manageLinkFor(app.db, done.id, 'http://localhost:80'))!).pathname.split('/').pop()!;
  const confirmed = await app.inject({ method: 'POST', url: `/v1/bookings/${done.id}/status`, headers: { cookie }, payload: { status: 'confirmed', version: 1 } });
  const completed = await app.inject({ method: 'POST', url: `/v1/bookings/${done.id}/completion`, headers: { cookie }, payload: { version: confirmed.json().version ?? 2, paid: true, paymentMethod: 'cash' } });
  const receiptSent = async () => (await app.db.selectFrom('outbox_emails').select('status').where('booking_id', '=', done.id).where('kind', '=', 'booking-receipt').executeTakeFirst())?.status === 'sent';
  await until(receiptSent, 'the receipt marked sent');

  t.test('the delivered e-mail carries the live link in its text, HTML and invitation', async (t) => {
    const mail = smtp.received.find((m) => to(m).includes('kept.secret@example.co.nz'))!;
    t.match(mail.text!, token, 'in the text');
    t.match(String(mail.html), new RegExp(`href="http://localhost:\\d+/booking/manage/${token}"`), 'in the HTML link');
    const ics = invitationOf(mail)!;
    t.match(String(eventOf(ics).description), token, 'in the invitation description');
    const urlLine = ics.replace(/\r\n[ \t]/g, '').split('\r\n').find((line) => line.startsWith('URL'));
    t.match(urlLine, new RegExp(`/booking/manage/${token}$`), 'in the invitation URL');
    t.equal((await app.inject({ url: `/booking/manage/${token}` })).statusCode, 200, 'and it opens the booking');
  });

  t.test('the receipt was delivered with its live link, which opens the receipt', async (t) => {
    t.equal(completed.statusCode, 200, 'the job completed, paid');
    const mail = smtp.received.find((m) => to(m).includes('receipt.kept@example.co.nz') && String(m.subject).includes('eceipt'))!;
    t.ok(mail, 'the receipt e-mail');
    t.match(mail.text!, `/booking/receipt/${doneToken}`, 'the live receipt link in the text');
    t.equal((await app.inject({ url: `/booking/receipt/${doneToken}` })).statusCode, 200, 'and it opens the receipt');
  });

  t.test('no table holds the live token, or the whole link', async (t) => {
    const all = await everyRow(app);
    t.notOk(all.includes(token), 'the token is nowhere in the database');
    t.notOk(all.includes(doneToken), 'nor the token of the receipt e-mail');
    t.ok(all.includes('MANAGE-TOKEN-SLOT-'), 'the stored e-mails hold the slot instead');
  });

  if (databaseUrl && (await pgDumpAvailable())) {
    t.test('a pg_dump of the database holds no live token', async (t) => {
      const { stdout } = await run('pg_dump', ['--data-only', databaseUrl], { maxBuffer: 64 * 1024 * 1024 });
      t.ok(stdout.includes('kept.secret@example.co.nz'), 'the dump holds the booking');
      t.notOk(stdout.includes(token), 'but not its manage token');
      t.notOk(stdout.includes(doneToken), 'nor the receipt\'s');
    });
  }

  t.test('the staff E-mails view shows the link masked', async (t) => {
    const rows = await app.db.selectFrom('outbox_emails').select(['id', 'kind']).where('booking_id', '=', booking.id).execute();
    t.ok(rows.length >= 2, 'the confirmation and the reminder');
    for (const row of rows) {
      const res = await app.inject({ url: `/v1/emails/${row.id}`, headers: { cookie } });
      t.equal(res.statusCode, 200);
      t.notOk(res.body.includes(token), `${row.kind}: no token in the staff view`);
      t.notOk(res.body.includes('MANAGE-TOKEN-SLOT-'), `${row.kind}: nor the slot`);
      if (row.kind !== 'staff-new-booking') t.ok(res.body.includes(MASKED_TOKEN), `${row.kind}: the link shown masked`);
      const html = await app.inject({ url: `/v1/emails/${row.id}/html`, headers: { cookie } });
      if (html.statusCode === 200) t.notOk(html.body.includes(token), `${row.kind}: no token in the HTML preview`);
    }
  });
});
