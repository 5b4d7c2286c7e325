/** Data access for staff accounts and their single-use invitations (migrations/021). */
import { sql, type Kysely } from 'kysely';
import type { Database, StaffMember } from './database.ts';

type Db = Kysely<Database>;

/** The account columns that may leave the server (never the password hash). */
export type StaffMemberRow = Omit<StaffMember, 'password_hash'> & { has_password: boolean; invitation_expires_at: Date | null };

function memberRows(db: Db) {
  return db
    .selectFrom('staff_members as m')
    .select(['m.id', 'm.name', 'm.email', 'm.role', 'm.password_changed_at', 'm.disabled_at', 'm.created_at', 'm.updated_at'])
    .select(sql<boolean>`m.password_hash IS NOT NULL`.as('has_password'))
    .select((eb) =>
      eb
        .selectFrom('staff_invitations as i')
        .whereRef('i.member_id', '=', 'm.id')
        .where('i.used_at', 'is', null)
        .select((inner) => inner.fn.max('i.expires_at').as('expires'))
        .as('invitation_expires_at'),
    );
}

export async function listStaffMembers(db: Db): Promise<StaffMemberRow[]> {
  return (await memberRows(db).orderBy('m.created_at').orderBy('m.id').execute()) as StaffMemberRow[];
}

export async function findStaffMemberRow(db: Db, id: string): Promise<StaffMemberRow | undefined> {
  return (await memberRows(db).where('m.id', '=', id).executeTakeFirst()) as StaffMemberRow | undefined;
}

/** The enabled account with a password that signs in with this address (compared without case). */
export async function findMemberForSignIn(db: Db, email: string): Promise<StaffMember | undefined> {
  return db
    .selectFrom('staff_members')
    .selectAll()
    .where(sql`lower(email)`, '=', email.trim().toLowerCase())
    .where('disabled_at', 'is', null)
    .where('password_hash', 'is not', null)
    .executeTakeFirst();
}

export async function findStaffMember(db: Db, id: string): Promise<StaffMember | undefined> {
  return db.selectFrom('staff_members').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertStaffMember(db: Db, member: { name: string; email: string; role: 'owner' | 'staff'; now: Date }): Promise<StaffMember> {
  return db
    .insertInto('staff_members')
    .values({ name: member.name, email: member.email, role: member.role, created_at: member.now, updated_at: member.now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateStaffMember(
  db: Db,
  id: string,
  change: { name?: string; role?: 'owner' | 'staff'; disabled_at?: Date | null },
  now: Date,
): Promise<StaffMember | undefined> {
  return db
    .updateTable('staff_members')
    .set({ ...change, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function setMemberPassword(db: Db, id: string, hash: string, now: Date): Promise<void> {
  await db.updateTable('staff_members').set({ password_hash: hash, password_changed_at: now, updated_at: now }).where('id', '=', id).execute();
}

export async function insertInvitation(db: Db, invitation: { memberId: string; tokenHash: string; createdAt: Date; expiresAt: Date }): Promise<void> {
  await db
    .insertInto('staff_invitations')
    .values({ member_id: invitation.memberId, token_hash: invitation.tokenHash, created_at: invitation.createdAt, expires_at: invitation.expiresAt })
    .execute();
}

/** An earlier invitation stops working when a new one is sent: marked used (it can no longer set a password). */
export async function withdrawInvitations(db: Db, memberId: string, now: Date): Promise<void> {
  await db
    .updateTable('staff_invitations')
    .set({ used_at: now })
    .where('member_id', '=', memberId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('created_at', '<=', now)
    .execute();
}

export type InvitationWithMember = {
  id: string;
  member_id: string;
  expires_at: Date;
  used_at: Date | null;
  name: string;
  email: string;
  disabled_at: Date | null;
};

/** The invitation the token's hash names, with its member, locked for the caller's transaction when `lock`. */
export async function findInvitation(db: Db, tokenHash: string, lock = false): Promise<InvitationWithMember | undefined> {
  let query = db
    .selectFrom('staff_invitations as i')
    .innerJoin('staff_members as m', 'm.id', 'i.member_id')
    .select(['i.id', 'i.member_id', 'i.expires_at', 'i.used_at', 'm.name', 'm.email', 'm.disabled_at'])
    .where('i.token_hash', '=', tokenHash);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function markInvitationUsed(db: Db, id: string, now: Date): Promise<void> {
  await db.updateTable('staff_invitations').set({ used_at: now }).where('id', '=', id).execute();
}
