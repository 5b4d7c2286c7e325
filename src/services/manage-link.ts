/**
 * The customer's link to manage one booking (issue 11): `/booking/manage/{token}`.
 *
 * The token is base64url(HMAC-SHA256(key, bookingId + ':' + nonce)): 256 bits that nobody can
 * guess without the key, which is made once and kept in the settings table (shared by every
 * instance, like the form guard's). The nonce is 16 random bytes stored on the booking, so the
 * server can make the same link again for every later e-mail without storing the token; only
 * SHA-256 of the token is stored, as the lookup.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Booking, Database } from '../db/database.ts';
import { findManageNonce, setManageLinkIfAbsent } from '../db/bookings.repository.ts';
import { getSetting, insertSettingIfAbsent } from '../db/settings.repository.ts';

export const MANAGE_KEY_SETTING = 'manage_link_key';

export const MANAGE_PATH_PREFIX = '/booking/manage/';

/** 32 bytes of HMAC-SHA256 in base64url, without padding. */
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

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

export function isManageTokenShape(value: string): boolean {
  return TOKEN_FORMAT.test(value);
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

export function managePath(token: string): string {
  return `${MANAGE_PATH_PREFIX}${token}`;
}

/**
 * The absolute manage URL of a booking (its id, or its row as read in this transaction, which
 * saves a read), or undefined when there is no such booking. A booking made before manage links
 * existed gets its nonce now (once: a concurrent caller's is kept).
 */
export async function manageLinkFor(
  db: Kysely<Database>,
  booking: string | Pick<Booking, 'id' | 'manage_nonce'>,
  origin: string,
  readKey: ManageKeyReader = manageKey,
): Promise<string | undefined> {
  const bookingId = typeof booking === 'string' ? booking : booking.id;
  const found = typeof booking === 'string' ? await findManageNonce(db, bookingId) : booking;
  if (!found) return undefined;
  const key = await readKey(db);
  let nonce = found.manage_nonce;
  if (nonce === null) {
    const link = deriveManageLink(key, bookingId, randomBytes(16).toString('base64url'));
    nonce = (await setManageLinkIfAbsent(db, bookingId, link.nonce, link.tokenHash)) ?? (await findManageNonce(db, bookingId))?.manage_nonce ?? null;
    if (nonce === null) return undefined;
  }
  return `${origin.replace(/\/+$/, '')}${managePath(deriveManageLink(key, bookingId, nonce).token)}`;
}
