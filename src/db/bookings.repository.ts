/** Data access for bookings: plain functions over a Kysely instance or transaction. */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Booking, BookingStatusChange, Database, NewBooking, NewBookingStatusChange } from './database.ts';
import { scheduleFactsColumns, scheduleFactsOf, type ScheduleFacts } from './availability.repository.ts';
import { anyToLapse } from './email-confirmation.repository.ts';

type Db = Kysely<Database>;

/**
 * Inserts the booking unless its reference is taken, in which case nothing is written and
 * undefined is returned (ON CONFLICT, so the surrounding transaction carries on).
 */
export async function insertBookingUnlessReferenceTaken(db: Db, booking: NewBooking): Promise<Booking | undefined> {
  return db
    .insertInto('bookings')
    .values(booking)
    .onConflict((oc) => oc.column('reference').doNothing())
    .returningAll()
    .executeTakeFirst();
}

/**
 * Takes transaction-level advisory locks in the order given, in one statement (one round trip):
 * PostgreSQL evaluates a select list's expressions in order, so the order of acquisition is the
 * order of the list, as with one statement per lock.
 */
async function takeLocks(trx: Db, locks: readonly { name: string | RawBuilder<string | null>; shared?: boolean }[]): Promise<void> {
  if (locks.length === 0) return;
  const calls = locks.map(({ name, shared }) =>
    shared ? sql`pg_advisory_xact_lock_shared(hashtextextended(${name}, 0))` : sql`pg_advisory_xact_lock(hashtextextended(${name}, 0))`,
  );
  await sql`select ${sql.join(calls)}`.execute(trx);
}

const SCHEDULE_LOCK = 'schedule';

/**
 * The locks of a kind's day, after the schedule lock (shared): one per kind and date, kinds in
 * the order given (callers pass them in RESOURCE_KINDS order), so two writers holding several
 * cannot deadlock. Writers on different days or kinds never wait for each other; a change of the
 * hours, the resources or the weekly closed days (lockSchedule, exclusive) waits for them, and
 * they for it.
 */
function placementLocks(date: string, kinds: readonly string[]) {
  return [{ name: SCHEDULE_LOCK, shared: true }, ...kinds.map((kind) => ({ name: `place:${kind}:${date}` }))];
}

/**
 * Serialises the writers of a kind's day until the end of the transaction: whoever places a job
 * there (a booking, a move, a reopening) or closes part of it. The exclusion constraint is the
 * guarantee; this lock makes the engine's answer (and its message) right the first time.
 */
export async function lockPlacement(trx: Db, date: string, kinds: readonly string[]): Promise<void> {
  await takeLocks(trx, placementLocks(date, kinds));
}

/** Who is booking, as the customer typed it: the database compares the canonical forms (migrations/013). */
export interface CustomerIdentity {
  email: string;
  /** Absent or empty: the phone is not compared (a quote asked for with an e-mail only). */
  phone?: string;
}

/**
 * The customer's locks: one on the canonical e-mail (computed by the database, so `Bob+1@x.com`
 * and `bob@x.com` wait for each other: the cap of upcoming bookings cannot be raced past with
 * variants), then one on the canonical phone (two first bookings under different addresses and
 * one phone cannot both get the discount). A part without an identity (no e-mail, a number of
 * fewer than 7 digits) is NULL, and pg_advisory_xact_lock(NULL) takes nothing.
 */
const customerLocks = (customer: CustomerIdentity) => [
  { name: sql<string | null>`'email:' || canonical_email(${customer.email})` },
  { name: sql<string | null>`'phone:' || canonical_phone(${customer.phone ?? ''})` },
];

/** The customer's locks alone (customerLocks), for a write that counts their rows without placing a job: joining the waitlist. */
export async function lockCustomer(trx: Db, customer: CustomerIdentity): Promise<void> {
  await takeLocks(trx, customerLocks(customer));
}

/**
 * The waitlist's lock of a date: whoever offers that date's freed places to its entries (the sweep
 * of each instance, staff offering by hand) does so one at a time and in order of joining. Taken
 * before the customer's and the placement's (createBooking's), never after them.
 */
export async function lockWaitlistDay(trx: Db, date: string): Promise<void> {
  await takeLocks(trx, [{ name: `waitlist:${date}` }]);
}

/**
 * A new booking's locks, in one round trip: first its customer's (the canonical e-mail, then the
 * canonical phone), which serialises bookings by one customer (the cap of upcoming bookings, and
 * two first bookings sent at once cannot both see "no earlier booking"), then its kind's day as
 * lockPlacement takes it. Always in this order, so two bookings cannot deadlock.
 */
export async function lockEmailAndPlacement(trx: Db, customer: CustomerIdentity, date: string, kind: string): Promise<void> {
  await takeLocks(trx, [...customerLocks(customer), ...placementLocks(date, [kind])]);
}

const NEW_CUSTOMER_BRAKE_LOCK = 'brake:new-customers';

/**
 * A new customer's online booking's locks, in one round trip: the customer's (e-mail, phone), then the
 * brake's (which serialises the hourly count of new customers' bookings, so concurrent requests
 * cannot overshoot it), then the kind's day as lockPlacement takes it. Always in this order (the
 * customer's before the brake's before the placement's), so no two bookings can deadlock.
 */
export async function lockEmailBrakeAndPlacement(trx: Db, customer: CustomerIdentity, date: string, kind: string): Promise<void> {
  await takeLocks(trx, [...customerLocks(customer), { name: NEW_CUSTOMER_BRAKE_LOCK }, ...placementLocks(date, [kind])]);
}

/**
 * What the booking rules need of a customer's bookings, the customer being the canonical e-mail
 * (lower case, no +tag, gmail's dots ignored) or the canonical phone (national form).
 */
export interface CustomerFacts {
  upcoming: number;
  hasActive: boolean;
  hasCompleted: boolean;
}

type CustomerFactsRow = { upcoming: string | number; has_active: boolean; has_completed: boolean };

const customerFactsOf = (row: CustomerFactsRow): CustomerFacts => ({ upcoming: Number(row.upcoming), hasActive: row.has_active, hasCompleted: row.has_completed });

/** The `customer` the facts' columns read: the canonical e-mail and phone. */
const customerCte = (customer: CustomerIdentity) =>
  sql`with customer as (select canonical_email(${customer.email}) as email, canonical_phone(${customer.phone ?? ''}) as phone)`;

/** The customer's facts (see newBookingFacts) as columns over customerCte. */
const customerFactsColumns = (fromDate: string) => sql`
      (select count(*) from bookings
        where email_canonical = customer.email and email_canonical is not null
          and status in ('pending', 'confirmed') and "date" >= ${fromDate}) as upcoming,
      ${uncancelledOf(sql`true`)} as has_active,
      ${uncancelledOf(sql`status = 'completed'`)} as has_completed`;

/** The new customers' bookings of the last hour (by the database's clock, which wrote created_at): one range probe of bookings_new_customer_created_idx. */
const newCustomersLastHour = sql<string | number>`(select count(*) from bookings where new_customer and created_at > now() - interval '1 hour')`;

/** What taking a booking reads once its locks are held (see newBookingFacts). */
export interface NewBookingFacts {
  customer: CustomerFacts;
  /** The new customers' bookings of the last hour, when asked for (the brake applies). */
  newCustomersLastHour?: number;
  /** Whether bookings on the date lapse now, unconfirmed (anyToLapse): then the schedule is read again once they have. */
  lapsable: boolean;
  /** Whether the customer waits on the date's waitlist (issue 43): booking it, they leave it. */
  waiting: boolean;
  /** Whether an enabled webhook endpoint receives booking.created (issue 44): if none, nothing is queued, and nothing read again. */
  webhooks: boolean;
  /** The schedule facts of the placement's span. */
  schedule: ScheduleFacts;
}

/** newBookingFacts' statement (exported so that a test can EXPLAIN it). */
export function newBookingFactsQuery(customer: CustomerIdentity, fromDate: string, placement: NewBookingPlacement) {
  return sql<CustomerFactsRow & ScheduleFacts & { lapsable: boolean; new_customers: string | number | null; waiting: boolean; webhooks: boolean }>`
    ${customerCte(customer)}
    select ${customerFactsColumns(fromDate)},
      ${placement.countNewCustomers ? newCustomersLastHour : sql`null`} as new_customers,
      ${anyToLapse(placement.now, placement.date)} as lapsable,
      exists (select 1 from waitlist_entries where email_canonical = customer.email
        and "date" = ${placement.date} and status = 'waiting') as waiting,
      exists (select 1 from webhook_endpoints where enabled and 'booking.created' = any(events)) as webhooks,
      ${scheduleFactsColumns(placement.span[0], placement.span[1])}
    from customer`;
}

/** Where the booking is to be placed (see newBookingFacts). */
export interface NewBookingPlacement {
  date: string;
  span: readonly [number, number];
  now: Date;
  countNewCustomers: boolean;
}

/**
 * What taking a new booking reads once its locks are held, in one round trip (each part as its
 * own statement would read it): the customer's facts (how many bookings are pending or confirmed
 * from `fromDate` on by the e-mail, the cap being per address; whether any by the
 * e-mail or the phone is not cancelled, then there is no first-service discount; whether any by
 * either is completed, then the customer is not new and the hourly brake does not count them:
 * each part probes a partial index of migrations/013), the new customers' bookings of the last
 * hour when `countNewCustomers` (the brake's count, under its lock), whether any
 * booking on `placement.date` lapses at `placement.now` (anyToLapse), whether the customer waits
 * on that date's waitlist (a probe of waitlist_open_email_idx), whether any webhook endpoint
 * receives booking.created (so that a booking without one reads nothing more), and the schedule facts of
 * `placement.span` (scheduleFacts).
 */
export async function newBookingFacts(
  trx: Db,
  customer: CustomerIdentity,
  fromDate: string,
  placement: NewBookingPlacement,
): Promise<NewBookingFacts> {
  const row = (await newBookingFactsQuery(customer, fromDate, placement).execute(trx)).rows[0]!;
  return {
    customer: customerFactsOf(row),
    ...(row.new_customers === null ? {} : { newCustomersLastHour: Number(row.new_customers) }),
    lapsable: row.lapsable,
    waiting: row.waiting,
    webhooks: row.webhooks,
    schedule: scheduleFactsOf(row),
  };
}

/**
 * Whether the customer (the `customer` CTE's canonical e-mail and phone) has a booking that is
 * neither cancelled nor a waitlist offer not yet taken, and meets `also`: two probes, one of each partial index (the predicates match
 * theirs), joined by OR.
 */
function uncancelledOf(also: RawBuilder<boolean>) {
  return sql<boolean>`(
    exists (select 1 from bookings
      where email_canonical = customer.email and email_canonical is not null and status <> 'cancelled' and status <> 'offered' and ${also})
    or exists (select 1 from bookings
      where phone_canonical = customer.phone and phone_canonical is not null and status <> 'cancelled' and status <> 'offered' and ${also}))`;
}

/**
 * True when the customer (the canonical e-mail, or the canonical phone when given) has a booking
 * that is not cancelled: the first-service discount's question, in one round trip.
 */
export async function hasActiveBookingFor(db: Db, customer: CustomerIdentity): Promise<boolean> {
  return (await hasActiveBookingQuery(customer).execute(db)).rows[0]!.found;
}

/** hasActiveBookingFor's statement (exported so that a test can EXPLAIN it). */
export function hasActiveBookingQuery(customer: CustomerIdentity) {
  return sql<{ found: boolean }>`${customerCte(customer)} select ${uncancelledOf(sql`true`)} as found from customer`;
}

/** Holds every kind's every day still until the end of the transaction (see lockPlacement). */
export async function lockSchedule(trx: Db): Promise<void> {
  await takeLocks(trx, [{ name: SCHEDULE_LOCK }]);
}

/** Every booking, newest first. */
export async function listAllBookings(db: Db): Promise<Booking[]> {
  return db.selectFrom('bookings').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

export interface BookingFilters {
  /** Matched, case-insensitively, anywhere in the name, e-mail or service. */
  search?: string;
  service?: string;
  date?: string;
  status?: string;
  /** BOOKING_CONFIRMATION=email: only those awaiting their customer's confirmation, or only those that lapsed. */
  confirmation?: 'awaiting' | 'lapsed';
}

/** `newest`: by creation, newest first; `schedule`: by appointment, soonest first. */
export type BookingSort = 'newest' | 'schedule';

/** Where a page ends, in the sort's own key (created_at kept as PostgreSQL's exact text). */
export type BookingCursor = { sort: 'newest'; createdAt: string; id: string } | { sort: 'schedule'; date: string; time: string; id: string };

export type BookingRow = Booking & { created_at_exact: string };

/** `%` and `_` typed in the search box are searched for, not wildcards. */
function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * One page of bookings in PostgreSQL: filters on indexed columns, the search through the
 * trigram index on search_text, keyset paging (no OFFSET, so page 500 costs what page 1 does).
 * Asks for one row more than the page, to tell whether another page follows.
 */
export async function searchBookings(db: Db, filters: BookingFilters, sort: BookingSort, limit: number, cursor?: BookingCursor): Promise<BookingRow[]> {
  let query = db.selectFrom('bookings').selectAll().select(sql<string>`created_at::text`.as('created_at_exact'));
  if (filters.search) query = query.where('search_text', 'like', likePattern(filters.search));
  if (filters.service) query = query.where('service', '=', filters.service);
  if (filters.date) query = query.where('date', '=', filters.date);
  if (filters.status) query = query.where('status', '=', filters.status);
  if (filters.confirmation === 'awaiting') query = query.where('awaiting_email_until', 'is not', null);
  if (filters.confirmation === 'lapsed') query = query.where('lapsed_at', 'is not', null);
  if (sort === 'newest') {
    if (cursor?.sort === 'newest') query = query.where(sql<boolean>`(created_at, id) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`);
    query = query.orderBy('created_at', 'desc').orderBy('id', 'desc');
  } else {
    if (cursor?.sort === 'schedule') query = query.where(sql<boolean>`("date", "time", id) > (${cursor.date}::date, ${cursor.time}, ${cursor.id}::uuid)`);
    query = query.orderBy('date', 'asc').orderBy('time', 'asc').orderBy('id', 'asc');
  }
  return query.limit(limit + 1).execute();
}

/**
 * The services that appear in the bookings, for the dashboard's Service filter. A loose index
 * scan (one index probe per distinct service) instead of DISTINCT over every row: a handful of
 * probes whether there are a hundred bookings or a hundred thousand.
 */
export async function distinctServices(db: Db): Promise<string[]> {
  const { rows } = await sql<{ service: string }>`
    with recursive services as (
      select min(service) as service from bookings
      union all
      select (select min(service) from bookings where service > services.service) from services where services.service is not null
    )
    select service from services where service is not null`.execute(db);
  return rows.map((row) => row.service);
}

export async function findBooking(db: Db, id: string): Promise<Booking | undefined> {
  return db.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Sets the status only if the booking is still at the version the caller saw (compare-and-set);
 * a reopened booking may be given its place again at the same time.
 */
/**
 * Changes the status if the booking is still at the version the caller saw (compare-and-set).
 * `late` marks a cancellation made within the notice period; any other change clears the mark.
 */
export async function updateStatusIfVersion(db: Db, id: string, version: number, status: string, placement?: PlacementColumns, late = false): Promise<Booking | undefined> {
  return db
    .updateTable('bookings')
    .set((eb) => ({ status, ...placement, cancelled_late: late && status === 'cancelled', version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .where('version', '=', version)
    .returningAll()
    .executeTakeFirst();
}

export async function insertStatusChange(db: Db, change: NewBookingStatusChange): Promise<void> {
  await db.insertInto('booking_status_changes').values(change).execute();
}

/** Where a job was placed: its resource and its appointment as instants. */
export interface PlacementColumns {
  resource_id: string;
  starts_at: Date;
  ends_at: Date;
  buffer_minutes: number;
}

/** Moves the booking to another place if it is still at the version the caller saw (compare-and-set). */
export async function moveIfVersion(db: Db, id: string, version: number, date: string, time: string, placement: PlacementColumns): Promise<Booking | undefined> {
  return db
    .updateTable('bookings')
    .set((eb) => ({ date, time, ...placement, version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .where('version', '=', version)
    .returningAll()
    .executeTakeFirst();
}

/** The booking whose manage token has this SHA-256 (one probe of the unique index). */
export async function findBookingByManageHash(db: Db, tokenHash: string): Promise<Booking | undefined> {
  return db.selectFrom('bookings').selectAll().where('manage_token_hash', '=', tokenHash).executeTakeFirst();
}

export async function findManageNonce(db: Db, id: string): Promise<{ manage_nonce: string | null } | undefined> {
  return db.selectFrom('bookings').select('manage_nonce').where('id', '=', id).executeTakeFirst();
}

/** Gives a booking its manage link unless it has one; the nonce stored, or undefined when another caller's was first. */
export async function setManageLinkIfAbsent(db: Db, id: string, nonce: string, tokenHash: string): Promise<string | undefined> {
  const row = await db
    .updateTable('bookings')
    .set({ manage_nonce: nonce, manage_token_hash: tokenHash })
    .where('id', '=', id)
    .where('manage_nonce', 'is', null)
    .returning('manage_nonce')
    .executeTakeFirst();
  return row?.manage_nonce ?? undefined;
}

export async function statusHistory(db: Db, bookingId: string): Promise<BookingStatusChange[]> {
  return db.selectFrom('booking_status_changes').selectAll().where('booking_id', '=', bookingId).orderBy('changed_at').orderBy('id').execute();
}

/** Bookings with appointments from `from` to `to` (inclusive), in schedule order. */
export async function bookingsBetween(db: Db, from: string, to: string, limit: number): Promise<Booking[]> {
  return db
    .selectFrom('bookings')
    .selectAll()
    .where('date', '>=', from)
    .where('date', '<=', to)
    .orderBy('date')
    .orderBy('time')
    .orderBy('id')
    .limit(limit)
    .execute();
}
