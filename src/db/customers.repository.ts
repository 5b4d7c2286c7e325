/**
 * The customers summary (migrations/018: one row per customer, kept by triggers on bookings) and
 * what hangs off a customer: their bookings (by the generated bookings.customer_key) and their
 * contact messages (by e-mail, trimmed and in any case).
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Booking, ContactMessage, CustomerRow, Database } from './database.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** A visit: one booking's appointment in Auckland. */
export interface VisitRow {
  booking_id: string;
  reference: string;
  date: string;
  time: string;
  status: string;
}

export interface CustomerListRow extends Omit<CustomerRow, 'search_text'> {
  /** last_booked_at in PostgreSQL's own text form, to the microsecond: the cursor's value. */
  last_booked_exact: string;
  last_visit: VisitRow | null;
  next_visit: VisitRow | null;
}

export interface CustomerCursor {
  lastBookedAt: string;
  id: string;
}

export interface CustomerSearch {
  /** Lower-cased text matched anywhere in the name, e-mail or phone. */
  text?: string;
  /** The digits of a phone number typed with spaces or dashes, matched anywhere in the phone's digits or its national form. */
  digits?: string;
  /** A whole booking reference: its customer. */
  reference?: string;
}

/** `%` and `_` typed in the search box are searched for, not wildcards. */
function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The last visit (latest appointment before now, not cancelled) and the next one (the earliest
 * from now on), as the customers row stores them (migrations/024), and whether they hold at
 * `now`: stored as of some moment, they hold from just after the last one's start up to the next
 * one's (no visit starts in between), whenever they were stored.
 */
function visitColumns(now: Date) {
  return [
    sql<VisitRow | null>`customers.last_visit`.as('last_visit'),
    sql<VisitRow | null>`customers.next_visit`.as('next_visit'),
    sql<boolean>`(customers.visits_as_of IS NOT NULL
      AND (customers.last_visit_at IS NULL OR customers.last_visit_at < ${now}::timestamptz)
      AND (customers.next_visit_at IS NULL OR customers.next_visit_at >= ${now}::timestamptz))`.as('visits_hold'),
  ] as const;
}

type StoredVisitsRow = CustomerListRow & { visits_hold: boolean };

/**
 * The rows whose stored visits do not hold at `now` get them recomputed (in one statement, which
 * also stores them as of `now` for the next reader); the others are returned as read.
 */
async function withCurrentVisits(db: Db, rows: StoredVisitsRow[], now: Date): Promise<CustomerListRow[]> {
  const stale = rows.filter((row) => !row.visits_hold);
  if (stale.length > 0) {
    const fresh = await sql<{ key: string; last_visit: VisitRow | null; next_visit: VisitRow | null }>`
      SELECT key, last_visit, next_visit FROM customers_visits_refresh(${stale.map((row) => row.key)}::text[], ${now}::timestamptz)`.execute(db);
    const byKey = new Map(fresh.rows.map((row) => [row.key, row]));
    for (const row of stale) {
      const visits = byKey.get(row.key);
      row.last_visit = visits?.last_visit ?? null;
      row.next_visit = visits?.next_visit ?? null;
    }
  }
  for (const row of rows) delete (row as Partial<StoredVisitsRow>).visits_hold;
  return rows;
}

/** What a list row needs of the customers summary (not its search text). */
const LIST_COLUMNS = [
  'customers.id',
  'customers.key',
  'customers.name',
  'customers.email',
  'customers.phone',
  'customers.bookings_count',
  'customers.completed_count',
  'customers.spent_cents',
  'customers.last_booked_at',
] as const;

/**
 * One page of customers, most recently booked first, in PostgreSQL: keyset paging on
 * (last_booked_at, id) down customers_recent_idx, the search through the trigram index on
 * search_text (or the reference's unique index), and the visits as the rows store them.
 * Asks for one row more than the page, to tell whether another page follows.
 */
export async function searchCustomers(db: Db, search: CustomerSearch, now: Date, limit: number, cursor?: CustomerCursor): Promise<CustomerListRow[]> {
  let query = db
    .selectFrom('customers')
    .select(LIST_COLUMNS)
    .select(sql<string>`customers.last_booked_at::text`.as('last_booked_exact'))
    .select(visitColumns(now));
  const { text, digits, reference } = search;
  if (text !== undefined || digits !== undefined || reference !== undefined) {
    query = query.where((eb) => {
      const matches = [];
      if (text) matches.push(eb('customers.search_text', 'like', likePattern(text)));
      if (digits) {
        matches.push(eb('customers.search_text', 'like', likePattern(digits)));
        // The number in NZ national form, as the search text also holds it (migrations/033):
        // "+64 22 …" finds "022 …" and the other way round. Digits need no escaping, and the
        // pattern is a constant by the time it is planned (the function is inlined).
        matches.push(eb('customers.search_text', 'like', sql<string>`'%' || canonical_phone_digits(${digits}) || '%'`));
      }
      if (reference) {
        matches.push(eb('customers.key', '=', eb.selectFrom('bookings').select(sql<string>`customer_key`.as('customer_key')).where('reference', '=', reference)));
      }
      return matches.length ? eb.or(matches) : sql<boolean>`false`;
    });
  }
  if (cursor) query = query.where(sql<boolean>`(customers.last_booked_at, customers.id) < (${cursor.lastBookedAt}::timestamptz, ${cursor.id}::uuid)`);
  const rows = (await query.orderBy('customers.last_booked_at', 'desc').orderBy('customers.id', 'desc').limit(limit + 1).execute()) as StoredVisitsRow[];
  return withCurrentVisits(db, rows, now);
}

/** One customer with their last and next visit, by the opaque id. */
export async function findCustomer(db: Db, id: string, now: Date): Promise<CustomerListRow | undefined> {
  const row = (await db
    .selectFrom('customers')
    .select(LIST_COLUMNS)
    .select(sql<string>`customers.last_booked_at::text`.as('last_booked_exact'))
    .select(visitColumns(now))
    .where('customers.id', '=', id)
    .executeTakeFirst()) as StoredVisitsRow | undefined;
  return row && (await withCurrentVisits(db, [row], now))[0];
}

/** Every booking of a customer, the latest appointment first. */
export async function customerBookings(db: Db, key: string): Promise<Booking[]> {
  return db
    .selectFrom('bookings')
    .selectAll()
    .where(sql<string>`customer_key`, '=', key)
    .orderBy('starts_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** The contact messages sent from an address (trimmed, any case), newest first. */
export async function messagesFromAddress(db: Db, normalisedEmail: string): Promise<ContactMessage[]> {
  return db
    .selectFrom('contact_messages')
    .selectAll()
    .where(sql<string>`lower(btrim(email))`, '=', normalisedEmail)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}
