/**
 * The Customers view (issue 22): customers found and paged in PostgreSQL from the summary the
 * database keeps (migrations/018), and one customer's bookings and contact messages.
 */
import type { Kysely } from 'kysely';
import { isBookingReference } from '../domain/booking-reference.ts';
import type { Booking, ContactMessage, Database } from '../db/database.ts';
import {
  customerBookings,
  findCustomer,
  messagesFromAddress,
  searchCustomers,
  type CustomerCursor,
  type CustomerListRow,
  type CustomerSearch,
} from '../db/customers.repository.ts';
import { notFound } from '../errors.ts';
import { decodeCursorObject, encodeCursor, invalidCursor, isTimestampText, isUuid } from './paging-cursor.ts';

export const CUSTOMER_NOT_FOUND = 'No such customer: their bookings may have moved to another e-mail address';

export interface CustomerPage {
  customers: CustomerListRow[];
  nextCursor: string | null;
}

export interface CustomerDetails {
  customer: CustomerListRow;
  bookings: Booking[];
  messages: ContactMessage[];
}

/**
 * What the search box means: text matched in the name, e-mail or phone; a phone number typed
 * with spaces, dashes or brackets also matched by its digits; a whole booking reference (in any
 * case, spaces and dashes ignored) also finds the customer who made that booking.
 */
export function customerSearch(q: string | undefined): CustomerSearch {
  const term = q?.trim() ?? '';
  if (term === '') return {};
  const search: CustomerSearch = { text: term.toLowerCase() };
  if (/^[0-9+()\-.\s]+$/.test(term)) {
    const digits = term.replace(/\D/g, '');
    if (digits.length > 0 && digits !== search.text) search.digits = digits;
  }
  const reference = term.toUpperCase().replace(/[\s-]/g, '');
  if (isBookingReference(reference)) search.reference = reference;
  return search;
}

/** A cursor comes back from the client, so it is checked like any other input. */
export function decodeCustomerCursor(value: string): CustomerCursor {
  const parsed = decodeCursorObject(value);
  if (!isUuid(parsed.id) || !isTimestampText(parsed.lastBookedAt)) throw invalidCursor();
  return { lastBookedAt: parsed.lastBookedAt, id: parsed.id };
}

export async function findCustomers(db: Kysely<Database>, options: { q?: string; limit: number; cursor?: string; now: Date }): Promise<CustomerPage> {
  const cursor = options.cursor ? decodeCustomerCursor(options.cursor) : undefined;
  const rows = await searchCustomers(db, customerSearch(options.q), options.now, options.limit, cursor);
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    customers: page,
    nextCursor: rows.length > options.limit && last ? encodeCursor({ lastBookedAt: last.last_booked_exact, id: last.id } satisfies CustomerCursor) : null,
  };
}

/** The e-mail a customer's key names (trimmed, lower-cased), or null for a customer known by phone. */
export function customerEmail(key: string): string | null {
  return key.startsWith('e:') ? key.slice(2) : null;
}

export async function customerDetails(db: Kysely<Database>, id: string, now: Date): Promise<CustomerDetails> {
  const customer = await findCustomer(db, id, now);
  if (!customer) throw notFound(CUSTOMER_NOT_FOUND);
  const email = customerEmail(customer.key);
  const [bookings, messages] = await Promise.all([customerBookings(db, customer.key), email === null ? [] : messagesFromAddress(db, email)]);
  return { customer, bookings, messages };
}
