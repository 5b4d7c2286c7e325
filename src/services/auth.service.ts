/**
 * Staff sign-in: the admin password (only ever held as an argon2id hash) and server-side
 * sessions whose random 256-bit ids are stored only as SHA-256 hashes.
 */
import { createHash, randomBytes } from 'node:crypto';
import argon2 from 'argon2';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { ADMIN_PASSWORD_HASH_KEY, ENV_PASSWORD_HASH_KEY, getSetting, insertSettingIfAbsent, putSetting } from '../db/settings.repository.ts';
import { deleteDeadSessions, deleteSession, findLiveSession, insertSession, touchSession } from '../db/sessions.repository.ts';

/** OWASP's argon2id recommendation (m=19 MiB, t=2, p=1), raised to argon2's stronger defaults. */
export const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 65536, timeCost: 3, parallelism: 4 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

export interface PasswordSources {
  adminPasswordHash: string | undefined;
  adminPassword: string | undefined;
}

export type PasswordOrigin = 'ADMIN_PASSWORD_HASH' | 'ADMIN_PASSWORD' | 'stored' | 'generated';

/**
 * The hash to check sign-ins against, from the first source that has one: ADMIN_PASSWORD_HASH,
 * ADMIN_PASSWORD, the hash stored by `npm run set-password`, or else a new random password whose
 * hash is stored (the caller prints the password once). Several instances starting together
 * agree on one generated password: only the first insert wins.
 */
export async function resolveAdminPassword(
  db: Kysely<Database>,
  sources: PasswordSources,
): Promise<{ hash: string; origin: PasswordOrigin; generatedPassword?: string }> {
  if (sources.adminPasswordHash) return { hash: sources.adminPasswordHash, origin: 'ADMIN_PASSWORD_HASH' };
  if (sources.adminPassword) return { hash: await envPasswordHash(db, sources.adminPassword), origin: 'ADMIN_PASSWORD' };
  const stored = await getSetting(db, ADMIN_PASSWORD_HASH_KEY);
  if (stored) return { hash: stored, origin: 'stored' };
  const generatedPassword = randomBytes(18).toString('base64url');
  const hash = await hashPassword(generatedPassword);
  if (await insertSettingIfAbsent(db, ADMIN_PASSWORD_HASH_KEY, hash)) return { hash, origin: 'generated', generatedPassword };
  return { hash: (await getSetting(db, ADMIN_PASSWORD_HASH_KEY))!, origin: 'stored' };
}

/**
 * ADMIN_PASSWORD's hash: the one stored at an earlier start while it still matches, so that the
 * password's fingerprint (and so every session) survives a restart and several instances agree;
 * a new one when the password changed.
 */
async function envPasswordHash(db: Kysely<Database>, password: string): Promise<string> {
  const stored = await getSetting(db, ENV_PASSWORD_HASH_KEY);
  if (stored && (await verifyPassword(stored, password))) return stored;
  const hash = await hashPassword(password);
  if (stored) {
    await putSetting(db, ENV_PASSWORD_HASH_KEY, hash);
    return hash;
  }
  return (await insertSettingIfAbsent(db, ENV_PASSWORD_HASH_KEY, hash)) ? hash : envPasswordHash(db, password);
}

/**
 * What a session records of the password it was made under: the SHA-256 of its hash. When the
 * password changes, by any means, the sessions of the old one stop working at once.
 */
export function passwordFingerprint(hash: string): string {
  return createHash('sha256').update(hash).digest('hex');
}

export interface SessionPolicy {
  idleMs: number;
  maxAgeMs: number;
}

/** How often a session's last-seen time is written: not on every request. */
const TOUCH_INTERVAL_MS = 60_000;

export function hashSessionId(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

/** Who a session belongs to: the owner with the configured password (member null), or a member's account. */
export interface SessionOwner {
  name: string;
  memberId: string | null;
  role: 'owner' | 'staff';
}

/**
 * Starts a session for the staff member who gave `staffName` (shown in status histories), or for
 * the member `memberId` (whose account's name is shown instead).
 */
export async function startSession(
  db: Kysely<Database>,
  policy: SessionPolicy,
  fingerprint: string,
  staffName = 'Staff',
  now = new Date(),
  memberId: string | null = null,
): Promise<string> {
  await deleteDeadSessions(db, now, new Date(now.getTime() - policy.idleMs));
  const id = randomBytes(32).toString('base64url');
  await insertSession(db, hashSessionId(id), new Date(now.getTime() + policy.maxAgeMs), staffName, fingerprint, memberId);
  return id;
}

/**
 * Who the live session the id names belongs to, kept alive; undefined when there is none. The
 * owner's session holds while the configured password is the one it was made under; a member's
 * while their account is enabled and their password the one it was made under.
 */
export async function checkSession(db: Kysely<Database>, id: string, policy: SessionPolicy, ownerFingerprint: string, now = new Date()): Promise<SessionOwner | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return undefined;
  const idHash = hashSessionId(id);
  const session = await findLiveSession(db, idHash, now, new Date(now.getTime() - policy.idleMs));
  if (!session) return undefined;
  let owner: SessionOwner;
  if (session.member_id === null) {
    if (session.password_fingerprint !== ownerFingerprint) return undefined;
    owner = { name: session.staff_name, memberId: null, role: 'owner' };
  } else {
    const { member_password_hash: hash, member_disabled_at: disabledAt, member_name: name, member_role: role } = session;
    if (hash === null || disabledAt !== null || name === null || role === null || session.password_fingerprint !== passwordFingerprint(hash)) return undefined;
    owner = { name, memberId: session.member_id, role };
  }
  if (now.getTime() - session.last_seen_at.getTime() > TOUCH_INTERVAL_MS) await touchSession(db, idHash, now);
  return owner;
}

export async function endSession(db: Kysely<Database>, id: string): Promise<void> {
  await deleteSession(db, hashSessionId(id));
}
