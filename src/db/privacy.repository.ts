/**
 * Privacy requests and retention (issue 22, migrations/022): what is held about a customer, and
 * the erasure of personal details wherever they are held. Amounts, dates, packages, statuses and
 * invoice numbers stay; the texts a person wrote or is named in are replaced (see ERASED).
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { ERASED, noErasures, type ErasureCounts } from '../domain/privacy.ts';
import type { Booking, BookingNote, BookingPayment, BookingStatusChange, ContactMessage, Database, OutboxEmail, WaitlistEntry } from './database.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** The records one erasure reaches. */
export interface ErasureScope {
  bookingIds: string[];
  messageIds: string[];
  /** Addresses (trimmed, lower-cased) whose e-mails are erased whatever they concern ("Find my booking"). */
  recipients: string[];
  /** Retention: e-mails concerning no booking nor message, made before this, are erased too. */
  unlinkedBefore?: Date;
}

/** The history's field names whose values are personal details (CHANGE_LABELS' name, e-mail, phone, address, notes). */
export type PersonalChangeLabels = readonly string[];

/**
 * Who a customer is, as their grouping says (migrations/018): their bookings by customer_key, the
 * contact messages from their e-mail (trimmed, any case) or, for a customer known by phone, from
 * their phone's digits; e-mails to their address.
 */
export async function customerScope(db: Db, key: string): Promise<ErasureScope> {
  const bookings = await db.selectFrom('bookings').select('id').where(sql<string>`customer_key`, '=', key).where('erased_at', 'is', null).execute();
  const email = key.startsWith('e:') ? key.slice(2) : null;
  const digits = key.startsWith('p:') ? key.slice(2) : null;
  let messages = db.selectFrom('contact_messages').select('id').where('erased_at', 'is', null);
  messages =
    email !== null
      ? messages.where(sql<string>`lower(btrim(email))`, '=', email)
      : messages.where(sql<string>`regexp_replace(phone, '[^0-9]', '', 'g')`, '=', digits ?? '').where(sql<boolean>`${digits ?? ''} <> ''`);
  return {
    bookingIds: bookings.map((b) => b.id),
    messageIds: (await messages.execute()).map((m) => m.id),
    recipients: email === null ? [] : [email],
  };
}

export interface HeldBooking {
  booking: Booking;
  history: BookingStatusChange[];
  notes: BookingNote[];
  payment: BookingPayment | null;
}

/** Everything held about the records of a scope: bookings with history, notes and payment; messages; e-mails to the recipients; their waitlist entries. */
export async function heldRecords(
  db: Db,
  scope: ErasureScope,
): Promise<{ bookings: HeldBooking[]; messages: ContactMessage[]; emails: OutboxEmail[]; waitlist: WaitlistEntry[] }> {
  const ids = scope.bookingIds;
  const none = ids.length === 0;
  const [bookings, history, notes, payments, messages, emails, waitlist] = await Promise.all([
    none ? [] : db.selectFrom('bookings').selectAll().where('id', 'in', ids).orderBy('starts_at', 'desc').orderBy('id', 'desc').execute(),
    none ? [] : db.selectFrom('booking_status_changes').selectAll().where('booking_id', 'in', ids).orderBy('changed_at').orderBy('id').execute(),
    none ? [] : db.selectFrom('booking_notes').selectAll().where('booking_id', 'in', ids).orderBy('created_at').orderBy('id').execute(),
    none ? [] : db.selectFrom('booking_payments').selectAll().where('booking_id', 'in', ids).execute(),
    scope.messageIds.length === 0 ? [] : db.selectFrom('contact_messages').selectAll().where('id', 'in', scope.messageIds).orderBy('created_at', 'desc').execute(),
    scope.recipients.length === 0
      ? []
      : db.selectFrom('outbox_emails').selectAll().where(sql<string>`lower(btrim(to_address))`, 'in', scope.recipients).orderBy('created_at', 'desc').orderBy('id', 'desc').execute(),
    scope.recipients.length === 0
      ? []
      : db.selectFrom('waitlist_entries').selectAll().where(sql<string>`lower(btrim(email))`, 'in', scope.recipients).orderBy('created_at', 'desc').orderBy('id', 'desc').execute(),
  ]);
  return {
    bookings: bookings.map((booking) => ({
      booking,
      history: history.filter((h) => h.booking_id === booking.id),
      notes: notes.filter((n) => n.booking_id === booking.id),
      payment: payments.find((p) => p.booking_id === booking.id) ?? null,
    })),
    messages,
    emails,
    waitlist,
  };
}

const count = (result: { numUpdatedRows?: bigint; numDeletedRows?: bigint }[]) =>
  result.reduce((sum, r) => sum + Number(r.numUpdatedRows ?? r.numDeletedRows ?? 0n), 0);

/**
 * Replaces every personal detail the scope's records hold, in the caller's transaction: the
 * bookings' contact details, address, landmark and notes (and their manage links, which stop
 * working), the history's notes and personal changes, the internal notes, the contact messages,
 * the e-mails (recipients, subjects, bodies, invitations, snapshots; one still queued is never sent), the
 * stored idempotent answers that name them (deleted: they are only a replay cache), and their waitlist
 * entries (deleted: a request to be told of a free time, issue 43).
 */
export async function erasePersonalData(trx: Transaction<Database>, scope: ErasureScope, erasedAt: Date, personalLabels: PersonalChangeLabels): Promise<ErasureCounts> {
  const counts = noErasures();
  const { bookingIds, messageIds } = scope;
  const recipients = [...scope.recipients];
  // The history and the notes are append-only except inside an erasure (migrations/022).
  await sql`SELECT set_config('valet.erasing', 'on', true)`.execute(trx);

  const needles: string[] = [...messageIds, ...recipients];
  if (bookingIds.length > 0) {
    const held = await trx.selectFrom('bookings').select(['id', 'reference', 'email']).where('id', 'in', bookingIds).execute();
    for (const b of held) needles.push(b.id, b.reference.toLowerCase(), ...(b.email.trim() ? [b.email.trim().toLowerCase()] : []));
    const emails = held.map((b) => b.email.trim().toLowerCase()).filter((e) => e !== '');
    recipients.push(...emails.filter((e) => !recipients.includes(e)));

    counts.booking_status_changes = count(
      await trx
        .updateTable('booking_status_changes')
        .set({
          note: sql`CASE WHEN note IS NULL THEN NULL ELSE ${ERASED.text} END`,
          changes: sql`CASE WHEN changes IS NULL THEN NULL ELSE (
            SELECT jsonb_agg(CASE WHEN c->>'field' = ANY(${[...personalLabels]}::text[])
                                  THEN c || jsonb_build_object('from', ${ERASED.text}::text, 'to', ${ERASED.text}::text) ELSE c END ORDER BY ord)
              FROM jsonb_array_elements(changes) WITH ORDINALITY AS e(c, ord)) END`,
        } as never)
        .where('booking_id', 'in', bookingIds)
        .where((eb) => eb.or([eb('note', 'is not', null), eb('changes', 'is not', null)]))
        .execute(),
    );
    counts.booking_notes = count(await trx.updateTable('booking_notes').set({ body: ERASED.text } as never).where('booking_id', 'in', bookingIds).execute());
    // Issue 43: a plan made from an erased booking would book visits for nobody: it stops (its
    // visits already booked are erased above like any booking, and stay for staff to handle).
    await trx
      .updateTable('plans')
      .set({ status: 'stopped', stopped_at: erasedAt, updated_at: erasedAt })
      .where('booking_id', 'in', bookingIds)
      .where('status', '<>', 'stopped')
      .execute();
  }

  if (messageIds.length > 0) {
    counts.contact_messages = count(
      await trx
        .updateTable('contact_messages')
        .set({ name: ERASED.name, email: ERASED.messageEmail, phone: ERASED.phone, message: ERASED.text, erased_at: erasedAt })
        .where('id', 'in', messageIds)
        .execute(),
    );
  }

  counts.outbox_emails = count(
    await trx
      .updateTable('outbox_emails')
      .set({
        to_name: ERASED.name,
        to_address: ERASED.messageEmail,
        reply_to_name: sql`CASE WHEN reply_to_name IS NULL THEN NULL ELSE ${ERASED.name} END`,
        reply_to_address: sql`CASE WHEN reply_to_address IS NULL THEN NULL ELSE ${ERASED.messageEmail} END`,
        subject: ERASED.text,
        text_body: '',
        html_body: '',
        ics: null,
        ics_method: null,
        // What a queued e-mail would have been composed from (migrations/023) holds the booking's details too.
        snapshot: null,
        // Never sent once erased: there is no address to send it to.
        status: sql`CASE WHEN status = 'queued' THEN 'skipped' ELSE status END`,
        last_error: sql`CASE WHEN status = 'queued' THEN 'erased' ELSE NULL END`,
        erased_at: erasedAt,
      })
      .where('erased_at', 'is', null)
      .where((eb) => {
        const reached = [];
        if (bookingIds.length > 0) reached.push(eb('booking_id', 'in', bookingIds));
        if (messageIds.length > 0) reached.push(eb('contact_message_id', 'in', messageIds));
        if (recipients.length > 0) {
          reached.push(eb(sql<string>`lower(btrim(to_address))`, 'in', recipients));
          reached.push(eb(sql<string>`lower(btrim(reply_to_address))`, 'in', recipients));
        }
        if (scope.unlinkedBefore) {
          reached.push(eb.and([eb('booking_id', 'is', null), eb('contact_message_id', 'is', null), eb('created_at', '<', scope.unlinkedBefore)]));
        }
        return reached.length > 0 ? eb.or(reached) : sql<boolean>`false`;
      })
      .execute(),
  );

  if (needles.length > 0) {
    counts.idempotency_keys = count(
      await trx
        .deleteFrom('idempotency_keys')
        .where(sql<boolean>`EXISTS (SELECT 1 FROM unnest(${needles}::text[]) AS n WHERE strpos(lower(response_body::text), n) > 0)`)
        .execute(),
    );
  }

  // Waitlist entries (issue 43) are requests, not records of business: the customer's own, those
  // whose offer was one of their bookings, and (retention) those whose date is long past, go.
  const entryReach = [
    ...(recipients.length > 0 ? [sql<boolean>`lower(btrim(email)) = ANY(${recipients}::text[])`] : []),
    ...(bookingIds.length > 0 ? [sql<boolean>`booking_id = ANY(${bookingIds}::uuid[])`] : []),
    ...(scope.unlinkedBefore ? [sql<boolean>`ends_at < ${scope.unlinkedBefore}`] : []),
  ];
  if (entryReach.length > 0) {
    counts.waitlist_entries = count(await trx.deleteFrom('waitlist_entries').where(sql<boolean>`(${sql.join(entryReach, sql` OR `)})`).execute());
  }

  // Last: the bookings' own details, and with them the customer's row (its triggers, migrations/022).
  if (bookingIds.length > 0) {
    counts.bookings = count(
      await trx
        .updateTable('bookings')
        .set({
          name: ERASED.name,
          email: ERASED.bookingEmail,
          phone: ERASED.phone,
          house_number: '',
          street_address: '',
          suburb: '',
          city: '',
          postal_code: '',
          region: '',
          landmark: '',
          notes: '',
          save_address: false,
          // The vehicles' plates, makes, models and colours; the lines never name them (src/domain/job.ts).
          vehicles: sql<string>`(SELECT jsonb_agg(v || '{"make": "", "model": "", "colour": "", "plate": ""}'::jsonb ORDER BY i) FROM jsonb_array_elements(vehicles) WITH ORDINALITY AS e(v, i))`,
          manage_nonce: null,
          manage_token_hash: null,
          erased_at: erasedAt,
        })
        .where('id', 'in', bookingIds)
        .execute(),
    );
  }
  return counts;
}

/** Bookings whose appointment ended before `cutoff` and contact messages received before it, still holding details. */
export async function expiredRecords(db: Db, cutoff: Date): Promise<{ bookingIds: string[]; messageIds: string[] }> {
  const [bookings, messages] = await Promise.all([
    db
      .selectFrom('bookings')
      .select('id')
      .where('erased_at', 'is', null)
      .where('ends_at', '<', cutoff)
      // A running plan's booking (issue 43) is what its visits copy: kept while the plan runs.
      .where((eb) => eb.not(eb.exists(eb.selectFrom('plans').select('plans.id').whereRef('plans.booking_id', '=', 'bookings.id').where('plans.status', '<>', 'stopped'))))
      .execute(),
    db.selectFrom('contact_messages').select('id').where('erased_at', 'is', null).where('created_at', '<', cutoff).execute(),
  ]);
  return { bookingIds: bookings.map((b) => b.id), messageIds: messages.map((m) => m.id) };
}

/** Empties the bodies (text, HTML, invitation) of e-mails sent before `cutoff`: how many. */
export async function emptySentBodies(db: Db, cutoff: Date): Promise<number> {
  const result = await db
    .updateTable('outbox_emails')
    .set({ text_body: '', html_body: '', ics: null, ics_method: null, snapshot: null })
    .where('status', '=', 'sent')
    .where('sent_at', '<', cutoff)
    .where('html_body', '<>', '')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function insertErasureLog(db: Db, entry: { reason: 'request' | 'retention'; erasedBy: string; erasedAt: Date; counts: Record<string, number> }): Promise<void> {
  await db
    .insertInto('erasures')
    .values({ reason: entry.reason, erased_by: entry.erasedBy, erased_at: entry.erasedAt, counts: JSON.stringify(entry.counts) })
    .execute();
}

/** Only one instance runs the retention job at a time; the others skip their turn. */
export async function tryRetentionLock(trx: Transaction<Database>): Promise<boolean> {
  const { rows } = await sql<{ locked: boolean }>`SELECT pg_try_advisory_xact_lock(4022, 1000) AS locked`.execute(trx);
  return rows[0]?.locked === true;
}
