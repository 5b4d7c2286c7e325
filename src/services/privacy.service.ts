/**
 * Privacy requests and retention (issue 22; Privacy Act 2020 principles 6, 7 and 9): a
 * customer's data exported, corrected across their bookings, or erased wherever it is held; and
 * the retention job that erases what is older than RETENTION_MONTHS.
 */
import { subDays, subMonths } from 'date-fns';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { RetentionConfig } from '../config.ts';
import type { Booking, BookingUpdate, CustomerRow, Database } from '../db/database.ts';
import { customerBookings, findCustomer, type CustomerListRow } from '../db/customers.repository.ts';
import { insertStatusChange } from '../db/bookings.repository.ts';
import {
  customerScope,
  emptySentBodies,
  erasePersonalData,
  expiredRecords,
  heldRecords,
  insertErasureLog,
  tryRetentionLock,
  type HeldBooking,
} from '../db/privacy.repository.ts';
import { getSetting, putSetting } from '../db/settings.repository.ts';
import { PRIVACY_MESSAGES } from '../domain/messages.ts';
import {
  CORRECTION_ADDRESS_FIELDS,
  confirmsErasure,
  validateCorrection,
  type CustomerCorrection,
  type ErasureCounts,
} from '../domain/privacy.ts';
import { notFound, validationFailed } from '../errors.ts';
import { addressOf, CHANGE_LABELS } from './booking-edit.service.ts';
import { CUSTOMER_NOT_FOUND } from './customers.service.ts';
import { composeQueued } from '../mail/booking-mail.ts';
import type { MailContext } from '../mail/mail-context.ts';
import { eraseWebhookPayloads, queueWebhookEvent } from '../webhooks/queue.ts';

/** The history's fields whose values are personal: erased from every change line (the vehicles' name their plates, makes and models). */
const PERSONAL_LABELS = [CHANGE_LABELS.name, CHANGE_LABELS.email, CHANGE_LABELS.phone, CHANGE_LABELS.address, CHANGE_LABELS.notes, CHANGE_LABELS.vehicles];

export interface CustomerExport {
  customer: CustomerListRow;
  bookings: HeldBooking[];
  messages: Awaited<ReturnType<typeof heldRecords>>['messages'];
  /** The e-mails to them, each with its bodies: as stored, or composed from its snapshot when still queued (issue 24). */
  emails: ReturnType<typeof composeQueued<Awaited<ReturnType<typeof heldRecords>>['emails'][number]>>[];
  waitlist: Awaited<ReturnType<typeof heldRecords>>['waitlist'];
}

async function customerOrNotFound(db: Kysely<Database>, id: string, now: Date): Promise<CustomerListRow> {
  const customer = await findCustomer(db, id, now);
  if (!customer) throw notFound(CUSTOMER_NOT_FOUND);
  return customer;
}

/** Everything held about a customer (principle 6): bookings with history, notes and payment; messages; e-mails to them. */
export async function exportCustomer(db: Kysely<Database>, id: string, now: Date, mail: MailContext): Promise<CustomerExport> {
  const customer = await customerOrNotFound(db, id, now);
  const held = await heldRecords(db, await customerScope(db, customer.key));
  return { customer, ...held, emails: held.emails.map((email) => composeQueued(email, mail)) };
}

const BOOKING_COLUMNS: Record<(typeof CORRECTION_ADDRESS_FIELDS)[number] | 'name' | 'email' | 'phone', keyof Booking> = {
  name: 'name',
  email: 'email',
  phone: 'phone',
  houseNumber: 'house_number',
  streetAddress: 'street_address',
  suburb: 'suburb',
  city: 'city',
  postalCode: 'postal_code',
  region: 'region',
  landmark: 'landmark',
};

/**
 * Corrects a customer's details (principle 7) on every one of their bookings (the address on
 * their on-site bookings only), each with a history line saying what changed. The customers
 * summary follows by its triggers: an e-mail corrected may make them another customer (the id
 * answered is theirs afterwards).
 */
export async function correctCustomer(
  db: Kysely<Database>,
  id: string,
  correction: CustomerCorrection,
  options: { by: string; now: Date },
): Promise<{ customer: CustomerListRow; bookingsChanged: number }> {
  return db.transaction().execute(async (trx) => {
    const customer = await customerOrNotFound(trx, id, options.now);
    const errors = validateCorrection(correction, customer);
    if (errors.length > 0) throw validationFailed(errors);
    let changed = 0;
    let newKey = customer.key;
    for (const booking of await customerBookings(trx, customer.key)) {
      const update: Record<string, string> = {};
      for (const [field, column] of Object.entries(BOOKING_COLUMNS) as [keyof typeof BOOKING_COLUMNS, keyof Booking][]) {
        const value = correction[field];
        if (value === undefined) continue;
        if ((CORRECTION_ADDRESS_FIELDS as readonly string[]).includes(field) && booking.service_type !== 'onsite') continue;
        if (value.trim() !== booking[column]) update[column] = value.trim();
      }
      const after = { ...booking, ...update } as Booking;
      const changes = [
        [CHANGE_LABELS.name, booking.name, after.name],
        [CHANGE_LABELS.email, booking.email, after.email],
        [CHANGE_LABELS.phone, booking.phone, after.phone],
        [CHANGE_LABELS.address, addressOf(booking), addressOf(after)],
      ]
        .filter(([, from, to]) => from !== to)
        .map(([field, from, to]) => ({ field: field!, from: from!, to: to! }));
      if (Object.keys(update).length === 0) continue;
      const updated = await trx
        .updateTable('bookings')
        .set((eb) => ({ ...(update as BookingUpdate), version: eb('version', '+', 1) }))
        .where('id', '=', booking.id)
        .returning(sql<string>`customer_key`.as('customer_key'))
        .executeTakeFirstOrThrow();
      newKey = updated.customer_key;
      if (changes.length > 0) {
        await insertStatusChange(trx, {
          booking_id: booking.id,
          from_status: booking.status,
          to_status: booking.status,
          changed_by: options.by,
          note: 'Details corrected at the customer’s request',
          changes: JSON.stringify(changes),
        });
      }
      changed += 1;
    }
    const row = (await trx.selectFrom('customers').select('id').where('key', '=', newKey).executeTakeFirst()) as Pick<CustomerRow, 'id'> | undefined;
    return { customer: await customerOrNotFound(trx, row?.id ?? id, options.now), bookingsChanged: changed };
  });
}

/**
 * Erases a customer (principle 9 on request): their personal details wherever held, in one
 * transaction, with a line in the erasure log (when, by whom, how many rows). Cannot be undone:
 * `confirmation` must be ERASE or the customer's name.
 */
export async function eraseCustomer(
  db: Kysely<Database>,
  id: string,
  confirmation: string,
  options: { by: string; now: Date },
): Promise<ErasureCounts> {
  return db.transaction().execute(async (trx) => {
    const customer = await customerOrNotFound(trx, id, options.now);
    if (!confirmsErasure(confirmation, customer.name)) {
      throw validationFailed([{ field: 'confirmation', message: PRIVACY_MESSAGES.eraseConfirmationNeeded }]);
    }
    const scope = await customerScope(trx, customer.key);
    const counts = await erasePersonalData(trx, scope, options.now, PERSONAL_LABELS);
    await insertErasureLog(trx, { reason: 'request', erasedBy: options.by, erasedAt: options.now, counts });
    await erasedWebhooks(trx, scope.bookingIds, { reason: 'request', customerId: customer.id }, options);
    return counts;
  });
}

/**
 * The webhooks of an erasure (issue 44), in its transaction: the payloads of deliveries that tell
 * of the erased bookings carry their erased values from now on, and customer.erased is queued
 * with the bookings' ids and references (nothing personal).
 */
async function erasedWebhooks(
  trx: Kysely<Database>,
  bookingIds: readonly string[],
  who: { reason: 'request' | 'retention'; customerId: string | null },
  options: { now: Date },
): Promise<void> {
  await eraseWebhookPayloads(trx, bookingIds);
  const bookings = bookingIds.length === 0 ? [] : await trx.selectFrom('bookings').select(['id', 'reference']).where('id', 'in', [...bookingIds]).orderBy('reference').execute();
  await queueWebhookEvent(trx, 'customer.erased', { ...who, bookings, erasedAt: options.now.toISOString() }, null, { now: () => options.now });
}

export interface RetentionRun {
  erased: ErasureCounts | null;
  bodiesEmptied: number;
}

/** When the retention job last ran in the cluster, so each instance's timer does not repeat it. */
export const RETENTION_LAST_RUN_KEY = 'retention_last_run_at';

/**
 * The retention job: erases the personal details of bookings whose appointment ended more than
 * `months` ago and of contact messages received before then (with their e-mails and "Find my
 * booking" e-mails as old), and empties the bodies of e-mails sent more than `emailBodyDays` ago.
 * One instance at a time (an advisory lock); with `minIntervalMs`, a run within that long of the
 * cluster's last one is skipped (null).
 */
export async function applyRetention(
  db: Kysely<Database>,
  retention: RetentionConfig,
  now: Date,
  minIntervalMs = 0,
): Promise<RetentionRun | null> {
  if (retention.months === 0 && retention.emailBodyDays === 0) return null;
  return db.transaction().execute(async (trx: Transaction<Database>) => {
    if (!(await tryRetentionLock(trx))) return null;
    const last = await getSetting(trx, RETENTION_LAST_RUN_KEY);
    if (minIntervalMs > 0 && last !== undefined && now.getTime() - Date.parse(last) < minIntervalMs) return null;
    await putSetting(trx, RETENTION_LAST_RUN_KEY, now.toISOString());
    let erased: ErasureCounts | null = null;
    if (retention.months > 0) {
      const cutoff = subMonths(now, retention.months);
      const expired = await expiredRecords(trx, cutoff);
      erased = await erasePersonalData(trx, { ...expired, recipients: [], unlinkedBefore: cutoff }, now, PERSONAL_LABELS);
      if (expired.bookingIds.length > 0) await erasedWebhooks(trx, expired.bookingIds, { reason: 'retention', customerId: null }, { now });
    }
    const bodiesEmptied = retention.emailBodyDays > 0 ? await emptySentBodies(trx, subDays(now, retention.emailBodyDays)) : 0;
    const total = Object.values(erased ?? {}).reduce((a, b) => a + b, 0) + bodiesEmptied;
    if (total > 0) {
      await insertErasureLog(trx, { reason: 'retention', erasedBy: 'Retention', erasedAt: now, counts: { ...erased, outbox_email_bodies: bodiesEmptied } });
    }
    return { erased, bodiesEmptied };
  });
}
