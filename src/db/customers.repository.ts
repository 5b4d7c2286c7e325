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

export interface CustomerListRow extends CustomerRow {
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
  /** The digits of a phone number typed with spaces or dashes, matched anywhere in the phone's digits. */
  digits?: string;
  /** A whole booking reference: its customer. */
  reference?: string;
}

/** `%` and `_` typed in the search box are searched for, not wildcards. */
function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The last visit (latest appointment before now, not cancelled) and the next one (the earliest from now on). */
function visitColumns(now: Date) {
  const visit = (direction: 'past' | 'upcoming') => {
    const condition = direction === 'past' ? sql`b.starts_at < ${now}` : sql`b.starts_at >= ${now}`;
    const order = direction === 'past' ? sql`b.starts_at DESC, b.id DESC` : sql`b.starts_at ASC, b.id ASC`;
    return sql<VisitRow | null>`(
      SELECT json_build_object('booking_id', b.id, 'reference', b.reference, 'date', to_char(b."date", 'YYYY-MM-DD'), 'time', b."time", 'status', b.status)
        FROM bookings b
       WHERE b.customer_key = customers.key AND b.status <> 'cancelled' AND ${condition}
       ORDER BY ${order}
       LIMIT 1)`;
  };
  return [visit('past').as('last_visit'), visit('upcoming').as('next_visit')] as const;
}

/**
 * One page of customers, most recently booked first, in PostgreSQL: keyset paging on
 * (last_booked_at, id) down customers_recent_idx, the search through the trigram index on
 * search_text (or the reference's unique index), and two index probes per row for the visits.
 * Asks for one row more than the page, to tell whether another page follows.
 */
export async function searchCustomers(db: Db, search: CustomerSearch, now: Date, limit: number, cursor?: CustomerCursor): Promise<CustomerListRow[]> {
  let query = db
    .selectFrom('customers')
    .selectAll('customers')
    .select(sql<string>`customers.last_booked_at::text`.as('last_booked_exact'))
    .select(visitColumns(now));
  const { text, digits, reference } = search;
  if (text !== undefined || digits !== undefined || reference !== undefined) {
    query = query.where((eb) => {
      const matches = [];
      if (text) matches.push(eb('customers.search_text', 'like', likePattern(text)));
      if (digits) matches.push(eb('customers.search_text', 'like', likePattern(digits)));
      if (reference) {
        matches.push(eb('customers.key', '=', eb.selectFrom('bookings').select(sql<string>`customer_key`.as('customer_key')).where('reference', '=', reference)));
      }
      return matches.length ? eb.or(matches) : sql<boolean>`false`;
    });
  }
  if (cursor) query = query.where(sql<boolean>`(customers.last_booked_at, customers.id) < (${cursor.lastBookedAt}::timestamptz, ${cursor.id}::uuid)`);
  return query.orderBy('customers.last_booked_at', 'desc').orderBy('customers.id', 'desc').limit(limit + 1).execute() as Promise<CustomerListRow[]>;
}

/** One customer with their last and next visit, by the opaque id. */
export async function findCustomer(db: Db, id: string, now: Date): Promise<CustomerListRow | undefined> {
  return db
    .selectFrom('customers')
    .selectAll('customers')
    .select(sql<string>`customers.last_booked_at::text`.as('last_booked_exact'))
    .select(visitColumns(now))
    .where('customers.id', '=', id)
    .executeTakeFirst() as Promise<CustomerListRow | undefined>;
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
