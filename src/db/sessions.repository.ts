/** Data access for staff sessions, looked up by the SHA-256 of the session id. */
import { sql, type Kysely } from 'kysely';
import type { Database, StaffSession } from './database.ts';

type Db = Kysely<Database>;

export async function insertSession(db: Db, idHash: string, expiresAt: Date, staffName: string, passwordFingerprint: string, memberId: string | null = null): Promise<void> {
  await db
    .insertInto('staff_sessions')
    .values({ id_hash: idHash, expires_at: expiresAt, staff_name: staffName, password_fingerprint: passwordFingerprint, member_id: memberId })
    .execute();
}

/** A session with what it needs of its member's account (null columns for the owner's configured password). */
export type SessionWithMember = StaffSession & {
  member_name: string | null;
  member_role: 'owner' | 'staff' | null;
  member_password_hash: string | null;
  member_disabled_at: Date | null;
};

/**
 * The session if it has neither passed its absolute expiry nor been idle since `idleSince`, with
 * its member's account; the caller checks the password fingerprint and the account. One call of
 * staff_session_live (migrations/024), whose plan the database keeps: this runs on every staff
 * request. (A column added to staff_sessions is added to that function's columns too.)
 */
export async function findLiveSession(db: Db, idHash: string, now: Date, idleSince: Date): Promise<SessionWithMember | undefined> {
  const { rows } = await sql<SessionWithMember>`SELECT * FROM staff_session_live(${idHash}, ${now}::timestamptz, ${idleSince}::timestamptz)`.execute(db);
  return rows[0];
}

/** Ends every session of a member but `keepIdHash` (after a password change, the one that made it). */
export async function deleteMemberSessions(db: Db, memberId: string, keepIdHash?: string): Promise<number> {
  let query = db.deleteFrom('staff_sessions').where('member_id', '=', memberId);
  if (keepIdHash !== undefined) query = query.where('id_hash', '!=', keepIdHash);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function setSessionFingerprint(db: Db, idHash: string, passwordFingerprint: string): Promise<void> {
  await db.updateTable('staff_sessions').set({ password_fingerprint: passwordFingerprint }).where('id_hash', '=', idHash).execute();
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
