/**
 * Privacy requests (issue 22; New Zealand's Privacy Act 2020, principles 6, 7 and 9): what an
 * erased record holds instead of personal details, what confirms an erasure, and the rules of a
 * correction. Pure: shared by the server and the dashboard.
 */
import { ADDRESS_FIELDS, BOOKING_LIMITS, REGIONS, validateDetailsStep, type BookingInput, type BookingTextField } from './booking-rules.ts';
import { MESSAGES, PRIVACY_MESSAGES, type FieldError } from './messages.ts';
import { validateText } from './text-rules.ts';

/**
 * What erased fields hold. Each satisfies its column's CHECK (a booking's name 1-100 characters,
 * phone 7-20, e-mail '' as a booking taken by phone; a message's e-mail 3-254): an erased booking
 * keeps its amounts, dates, package and status, and belongs to no customer.
 */
export const ERASED = {
  name: 'Erased',
  bookingEmail: '',
  /** Seven characters or more, and no digits: no customer is grouped by it. */
  phone: '(erased)',
  /** A contact message's e-mail must be 3 characters or more; never an address. */
  messageEmail: 'erased',
  text: 'Erased',
} as const;

/** The word the owner types to confirm an erasure (or the customer's name, as shown). */
export const ERASE_CONFIRMATION_WORD = 'ERASE';

/** True when what was typed confirms erasing the customer named `name`: the word, or their name, in any case. */
export function confirmsErasure(typed: string, name: string): boolean {
  const given = typed.trim().toLowerCase();
  return given !== '' && (given === ERASE_CONFIRMATION_WORD.toLowerCase() || given === name.trim().toLowerCase());
}

/** The tables an erasure changes, in the order the answer and the log list them. */
export const ERASURE_TABLES = ['bookings', 'booking_status_changes', 'booking_notes', 'contact_messages', 'outbox_emails', 'idempotency_keys', 'waitlist_entries'] as const;
export type ErasureTable = (typeof ERASURE_TABLES)[number];
export type ErasureCounts = Record<ErasureTable, number>;

export function noErasures(): ErasureCounts {
  return Object.fromEntries(ERASURE_TABLES.map((t) => [t, 0])) as ErasureCounts;
}

export const CORRECTION_FIELDS = ['name', 'email', 'phone', ...ADDRESS_FIELDS, 'landmark'] as const satisfies readonly BookingTextField[];

/** A correction of a customer's details: the booking form's fields, every one optional, at least one given. */
export type CustomerCorrection = Partial<Pick<BookingInput, (typeof CORRECTION_FIELDS)[number]>>;

/** The address fields of a correction apply to the customer's on-site bookings only (a drop-off has none). */
export const CORRECTION_ADDRESS_FIELDS = [...ADDRESS_FIELDS, 'landmark'] as const;

/**
 * The booking form's own rules for the fields given (a staff booking may have no e-mail), and
 * the address fields not blank (the landmark may be) with a known region.
 */
export function validateCorrection(correction: CustomerCorrection, current: { name: string; email: string; phone: string }): FieldError[] {
  const given = Object.entries(correction).filter(([, v]) => v !== undefined);
  if (given.length === 0) return [{ field: 'name', message: PRIVACY_MESSAGES.correctionEmpty }];
  const lengthErrors = validateText(correction, BOOKING_LIMITS);
  const details = {
    name: correction.name ?? current.name,
    email: correction.email ?? current.email,
    phone: correction.phone ?? current.phone,
  };
  const detailErrors = validateDetailsStep(details, true).filter((e) => correction[e.field as keyof CustomerCorrection] !== undefined);
  const addressErrors: FieldError[] = [];
  for (const field of ADDRESS_FIELDS) {
    const value = correction[field];
    if (value !== undefined && value.trim() === '') addressErrors.push({ field, message: PRIVACY_MESSAGES.correctionAddressBlank });
  }
  if (correction.region !== undefined && correction.region.trim() !== '' && !(REGIONS as readonly string[]).includes(correction.region)) {
    addressErrors.push({ field: 'region', message: MESSAGES.regionRequired });
  }
  const seen = new Set(lengthErrors.map((e) => e.field));
  return [...lengthErrors, ...[...detailErrors, ...addressErrors].filter((e) => !seen.has(e.field))];
}
