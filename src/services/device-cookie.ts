/**
 * Device cookies for staff sign-in, after OWASP's "Slow Down Online Guessing Attacks with Device
 * Cookies": a browser that has signed in successfully is given a cookie naming a random device id
 * and the time it was issued, signed with HMAC-SHA256 under a key made once and kept in the
 * settings table (shared by every instance, like the manage-link and form keys). While sign-in is
 * paused after many wrong passwords from everywhere, a client with a valid device cookie may still
 * sign in (src/plugins/app/auth.ts); its own wrong passwords are counted against its device id
 * (src/plugins/external/rate-limit.ts).
 *
 * The cookie's value is `<device id>.<issued, Unix seconds>.<HMAC>`: nothing in it can be changed
 * without the key, and one older than LOGIN_DEVICE_DAYS is worth nothing whatever its Max-Age.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { getSetting, insertSettingIfAbsent } from '../db/settings.repository.ts';

export const DEVICE_KEY_SETTING = 'login_device_key';

/** 16 random bytes in base64url; seconds since 1970; 32 bytes of HMAC-SHA256 in base64url. */
const VALUE_FORMAT = /^([A-Za-z0-9_-]{22})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/** A cookie issued this far in the future (another instance's clock) is still accepted. */
const CLOCK_SKEW_MS = 5 * 60_000;

/** The key device cookies are signed with, made on first use. */
export async function deviceKey(db: Kysely<Database>): Promise<Buffer> {
  await insertSettingIfAbsent(db, DEVICE_KEY_SETTING, randomBytes(32).toString('base64url'));
  return Buffer.from((await getSetting(db, DEVICE_KEY_SETTING))!, 'base64url');
}

function mac(key: Buffer, deviceId: string, issuedSeconds: string): string {
  // The purpose is part of what is signed, so that no other signature made with a key can pass for this one.
  return createHmac('sha256', key).update(`staff-device:${deviceId}.${issuedSeconds}`).digest('base64url');
}

/** A new device cookie value: a fresh random device id, issued now. */
export function issueDeviceToken(key: Buffer, now = Date.now()): { deviceId: string; value: string } {
  const deviceId = randomBytes(16).toString('base64url');
  const issued = String(Math.floor(now / 1000));
  return { deviceId, value: `${deviceId}.${issued}.${mac(key, deviceId, issued)}` };
}

/**
 * The device id of a cookie value this server signed and issued less than `maxAgeMs` ago;
 * undefined for anything else (missing, malformed, tampered with, signed with another key, expired).
 */
export function verifyDeviceToken(key: Buffer, value: string | undefined, maxAgeMs: number, now = Date.now()): string | undefined {
  const parts = value === undefined ? null : VALUE_FORMAT.exec(value);
  if (!parts) return undefined;
  const [, deviceId, issued, given] = parts as unknown as [string, string, string, string];
  const expected = Buffer.from(mac(key, deviceId, issued));
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return undefined;
  const issuedMs = Number(issued) * 1000;
  if (issuedMs > now + CLOCK_SKEW_MS || now - issuedMs >= maxAgeMs) return undefined;
  return deviceId;
}
