/**
 * The customer's link to manage one booking (issue 11): `/booking/manage/{token}`.
 *
 * The token is base64url(HMAC-SHA256(key, bookingId + ':' + nonce)): 256 bits that nobody can
 * guess without the key, which is made once and kept in the settings table (shared by every
 * instance, like the form guard's). The nonce is 16 random bytes stored on the booking, so the
 * server can make the same link again for every later e-mail without storing the token; only
 * SHA-256 of the token is stored, as the lookup. The address and the e-mail slots, pure text,
 * are in src/domain/manage-link.ts.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { manageSlot, managePath, siteUrl } from '../domain/manage-link.ts';
import type { Booking, Database } from './database.ts';
import { findManageNonce, setManageLinkIfAbsent } from './bookings.repository.ts';
import { getSetting, insertSettingIfAbsent } from './settings.repository.ts';

export const MANAGE_KEY_SETTING = 'manage_link_key';

export interface ManageLink {
  nonce: string;
  token: string;
  /** What bookings.manage_token_hash stores. */
  tokenHash: string;
}

/** The key tokens are derived with, made on first use (one primary-key read afterwards). */
export async function manageKey(db: Kysely<Database>): Promise<Buffer> {
  let stored = await getSetting(db, MANAGE_KEY_SETTING);
  if (stored === undefined) {
    await insertSettingIfAbsent(db, MANAGE_KEY_SETTING, randomBytes(32).toString('base64url'));
    stored = (await getSetting(db, MANAGE_KEY_SETTING))!;
  }
  return Buffer.from(stored, 'base64url');
}

export function hashManageToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function deriveManageLink(key: Buffer, bookingId: string, nonce: string): ManageLink {
  const token = createHmac('sha256', key).update(`${bookingId}:${nonce}`).digest('base64url');
  return { nonce, token, tokenHash: hashManageToken(token) };
}

/** How a caller gets the key: manageKey itself, or an app's ManageKeyCache. */
export type ManageKeyReader = (db: Kysely<Database>) => Promise<Buffer>;

/**
 * The key as one app reads it: from the database the first time it is found there, from memory
 * afterwards (it never changes once made, and every booking's e-mails need it twice). A key this
 * call had to make is not kept: the transaction that made it may still roll back.
 */
export function manageKeyCache(): ManageKeyReader {
  let kept: Buffer | undefined;
  return async (db) => {
    if (kept) return kept;
    const stored = await getSetting(db, MANAGE_KEY_SETTING);
    if (stored === undefined) return manageKey(db);
    kept = Buffer.from(stored, 'base64url');
    return kept;
  };
}

/** A new booking's link: a fresh nonce. */
export async function newManageLink(db: Kysely<Database>, bookingId: string, readKey: ManageKeyReader = manageKey): Promise<ManageLink> {
  return deriveManageLink(await readKey(db), bookingId, randomBytes(16).toString('base64url'));
}

/**
 * The booking's nonce, made now for a booking made before manage links existed (once: a
 * concurrent caller's is kept); undefined when there is no such booking.
 */
async function ensureNonce(db: Kysely<Database>, booking: string | Pick<Booking, 'id' | 'manage_nonce'>, key: Buffer): Promise<{ id: string; nonce: string } | undefined> {
  const bookingId = typeof booking === 'string' ? booking : booking.id;
  const found = typeof booking === 'string' ? await findManageNonce(db, bookingId) : booking;
  if (!found) return undefined;
  if (found.manage_nonce !== null) return { id: bookingId, nonce: found.manage_nonce };
  const link = deriveManageLink(key, bookingId, randomBytes(16).toString('base64url'));
  const nonce = (await setManageLinkIfAbsent(db, bookingId, link.nonce, link.tokenHash)) ?? (await findManageNonce(db, bookingId))?.manage_nonce ?? null;
  return nonce === null ? undefined : { id: bookingId, nonce };
}

/**
 * The absolute manage URL of a booking (its id, or its row as read in this transaction, which
 * saves a read), or undefined when there is no such booking.
 */
export async function manageLinkFor(
  db: Kysely<Database>,
  booking: string | Pick<Booking, 'id' | 'manage_nonce'>,
  origin: string,
  readKey: ManageKeyReader = manageKey,
): Promise<string | undefined> {
  const key = await readKey(db);
  const found = await ensureNonce(db, booking, key);
  return found && siteUrl(origin, managePath(deriveManageLink(key, found.id, found.nonce).token));
}

/** The manage URL as an e-mail stores it: the token's place held by a slot (the nonce made if absent). */
export async function manageLinkSlotFor(
  db: Kysely<Database>,
  booking: string | Pick<Booking, 'id' | 'manage_nonce'>,
  origin: string,
  readKey: ManageKeyReader = manageKey,
): Promise<string | undefined> {
  const found = await ensureNonce(db, booking, await readKey(db));
  return found && siteUrl(origin, managePath(manageSlot(found.id)));
}

/** The live tokens of these bookings (those that still have a nonce), for filling an e-mail in. */
export async function liveTokens(db: Kysely<Database>, bookingIds: readonly string[], readKey: ManageKeyReader = manageKey): Promise<Map<string, string>> {
  const tokens = new Map<string, string>();
  if (bookingIds.length === 0) return tokens;
  const key = await readKey(db);
  for (const id of bookingIds) {
    const found = await findManageNonce(db, id);
    if (found?.manage_nonce) tokens.set(id, deriveManageLink(key, id, found.manage_nonce).token);
  }
  return tokens;
}
