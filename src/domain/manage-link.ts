/**
 * The manage link's address and the slots that hold a token's place in a stored e-mail (issue
 * 11, issue 23): pure text rules, shared by the services that make links, the e-mails that carry
 * them and the pages that answer them. The token itself (a keyed hash) is made in
 * src/db/manage-link.repository.ts.
 */

export const MANAGE_PATH_PREFIX = '/booking/manage/';

/** 32 bytes of HMAC-SHA256 in base64url, without padding. */
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

export function isManageTokenShape(value: string): boolean {
  return TOKEN_FORMAT.test(value);
}

export function managePath(token: string): string {
  return `${MANAGE_PATH_PREFIX}${token}`;
}

/** A maintenance plan's page (issue 43): under the manage link of any of its bookings. */
export const PLAN_PAGE_SUFFIX = '/plan';

export function planPath(token: string): string {
  return `${managePath(token)}${PLAN_PAGE_SUFFIX}`;
}

/** An absolute address on the site. */
export const siteUrl = (origin: string, path: string) => `${origin.replace(/\/+$/, '')}${path}`;

/*
 * E-mails are stored without the live token (issue 23): a database backup, or a staff member
 * reading the outbox, must not open a customer's booking. What is stored holds a slot naming the
 * booking where the token goes; the sender fills it in (from the booking's nonce and the key, so
 * nothing is lost if the process restarts in between), and the staff preview shows it masked.
 * The slot is made of characters that no escaping touches (HTML, plain text, iCalendar TEXT).
 */
const SLOT_PREFIX = 'MANAGE-TOKEN-SLOT-';
const SLOT_PATTERN = /MANAGE-TOKEN-SLOT-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/g;
/** What staff see where the token will be. */
export const MASKED_TOKEN = '[link-added-when-sent]';

/** The token's place in a stored e-mail, for one booking. */
export function manageSlot(bookingId: string): string {
  return `${SLOT_PREFIX}${bookingId}`;
}

export function hasManageSlots(text: string | null): boolean {
  return text !== null && text.includes(SLOT_PREFIX);
}

/** The bookings whose slots appear in these texts. */
export function slotBookingIds(...texts: (string | null)[]): string[] {
  const ids = new Set<string>();
  for (const text of texts) for (const match of (text ?? '').matchAll(SLOT_PATTERN)) ids.add(match[1]!);
  return [...ids];
}

/** Replaces each slot with what `tokenOf` gives for its booking (the mask when it gives nothing). */
export function fillManageSlots(text: string, tokenOf: (bookingId: string) => string | undefined): string {
  return text.replace(SLOT_PATTERN, (_slot, id: string) => tokenOf(id) ?? MASKED_TOKEN);
}

export function maskManageSlots(text: string): string {
  return text.replace(SLOT_PATTERN, MASKED_TOKEN);
}
