/** Data access for staff sessions, looked up by the SHA-256 of the session id. */
import type { Kysely } from 'kysely';
import type { Database, StaffSession } from './database.ts';

type Db = Kysely<Database>;

export async function insertSession(db: Db, idHash: string, expiresAt: Date, staffName: string, passwordFingerprint: string): Promise<void> {
  await db.insertInto('staff_sessions').values({ id_hash: idHash, expires_at: expiresAt, staff_name: staffName, password_fingerprint: passwordFingerprint }).execute();
}

/**
 * The session if it was made under the password in force (its fingerprint), and has neither
 * passed its absolute expiry nor been idle since `idleSince`.
 */
export async function findLiveSession(db: Db, idHash: string, passwordFingerprint: string, now: Date, idleSince: Date): Promise<StaffSession | undefined> {
  return db
    .selectFrom('staff_sessions')
    .selectAll()
    .where('id_hash', '=', idHash)
    .where('password_fingerprint', '=', passwordFingerprint)
    .where('expires_at', '>', now)
    .where('last_seen_at', '>', idleSince)
    .executeTakeFirst();
}

export async function touchSession(db: Db, idHash: string, now: Date): Promise<void> {
  await db.updateTable('staff_sessions').set({ last_seen_at: now }).where('id_hash', '=', idHash).execute();
}

export async function deleteSession(db: Db, idHash: string): Promise<void> {
  await db.deleteFrom('staff_sessions').where('id_hash', '=', idHash).execute();
}

/** Removes sessions past their absolute expiry or idle for too long. */
export async function deleteDeadSessions(db: Db, now: Date, idleSince: Date): Promise<void> {
  await db
    .deleteFrom('staff_sessions')
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', idleSince)]))
    .execute();
}
