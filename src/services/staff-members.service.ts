/**
 * Staff accounts (issue 22): the owner invites a member by e-mail (a single-use link valid for 48
 * hours), changes their name or role, disables or enables them; the member sets their password
 * through the link, and may change it later. Disabling ends the member's sessions at once (a
 * trigger, migrations/021); a new password ends every other session of theirs.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { deleteMemberSessions, setSessionFingerprint } from '../db/sessions.repository.ts';
import {
  findInvitation,
  findStaffMember,
  findStaffMemberRow,
  insertInvitation,
  insertStaffMember,
  listStaffMembers,
  markInvitationUsed,
  setMemberPassword,
  updateStaffMember,
  withdrawInvitations,
  type StaffMemberRow,
} from '../db/staff-members.repository.ts';
import type { StaffMemberDto } from '../api/staff-member-schemas.ts';
import type { FieldError } from '../domain/messages.ts';
import { INVITATION_HOURS, passwordPolicyMessage, STAFF_MEMBER_MESSAGES, type StaffRole } from '../domain/staff-members.ts';
import { AppError, conflict, notFound, validationFailed } from '../errors.ts';
import { queueStaffInvitationMail } from '../mail/staff-invitation.ts';
import type { MailContext } from '../mail/mail-context.ts';
import { passwordProblem } from '../password-policy.ts';
import { hashPassword, passwordFingerprint, verifyPassword } from './auth.service.ts';

export function toStaffMemberDto(row: StaffMemberRow): StaffMemberDto {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    status: row.disabled_at ? 'disabled' : row.has_password ? 'active' : 'invited',
    invitationExpiresAt: row.invitation_expires_at ? new Date(row.invitation_expires_at).toISOString() : null,
    createdAt: row.created_at.toISOString(),
  };
}

export async function staffMembers(db: Kysely<Database>): Promise<StaffMemberDto[]> {
  return (await listStaffMembers(db)).map(toStaffMemberDto);
}

async function memberDto(db: Kysely<Database>, id: string): Promise<StaffMemberDto> {
  const row = await findStaffMemberRow(db, id);
  if (!row) throw notFound(STAFF_MEMBER_MESSAGES.notFound);
  return toStaffMemberDto(row);
}

export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function isInvitationTokenShape(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}

/** A new invitation for the member, e-mailed through the outbox; earlier unused ones stop working. */
async function sendInvitation(trx: Kysely<Database>, member: { id: string; name: string; email: string; role: string }, mail: MailContext, now: Date): Promise<void> {
  await withdrawInvitations(trx, member.id, now);
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + INVITATION_HOURS * 3_600_000);
  await insertInvitation(trx, { memberId: member.id, tokenHash: hashInvitationToken(token), createdAt: now, expiresAt });
  await queueStaffInvitationMail(trx, member, token, expiresAt, mail);
}

const isUniqueViolation = (error: unknown) => (error as { code?: unknown } | null)?.code === '23505';

/** Creates the account (no password yet) and e-mails its invitation. 409 when the address is taken. */
export async function inviteStaffMember(
  db: Kysely<Database>,
  input: { name: string; email: string; role: StaffRole },
  mail: MailContext,
): Promise<StaffMemberDto> {
  const now = mail.now();
  const name = input.name.trim();
  const email = input.email.trim();
  const errors: FieldError[] = [];
  if (name.length === 0) errors.push({ field: 'name', message: 'Please enter a name' });
  if (errors.length > 0) throw validationFailed(errors);
  try {
    const id = await db.transaction().execute(async (trx) => {
      const member = await insertStaffMember(trx, { name, email, role: input.role, now });
      await sendInvitation(trx, member, mail, now);
      return member.id;
    });
    return await memberDto(db, id);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(STAFF_MEMBER_MESSAGES.emailTaken, [{ field: 'email', message: STAFF_MEMBER_MESSAGES.emailTaken }]);
    throw error;
  }
}

/** A new invitation for an existing member (one who never used theirs, or forgot their password). */
export async function reinviteStaffMember(db: Kysely<Database>, id: string, mail: MailContext): Promise<StaffMemberDto> {
  const now = mail.now();
  await db.transaction().execute(async (trx) => {
    const member = await findStaffMember(trx, id);
    if (!member) throw notFound(STAFF_MEMBER_MESSAGES.notFound);
    if (member.disabled_at) throw conflict(STAFF_MEMBER_MESSAGES.disabledNoInvite, [{ field: 'disabled', message: STAFF_MEMBER_MESSAGES.disabledNoInvite }]);
    await sendInvitation(trx, member, mail, now);
  });
  return memberDto(db, id);
}

/**
 * Changes a member's name, role or whether they are disabled. A member cannot disable their own
 * account nor change their own role (so the last owner account cannot lock itself out by mistake;
 * the configured owner password always remains).
 */
export async function changeStaffMember(
  db: Kysely<Database>,
  id: string,
  change: { name?: string; role?: StaffRole; disabled?: boolean },
  actorMemberId: string | null,
  now: Date,
): Promise<StaffMemberDto> {
  const name = change.name?.trim();
  if (name !== undefined && name.length === 0) throw validationFailed([{ field: 'name', message: 'Please enter a name' }]);
  const current = await findStaffMember(db, id);
  if (!current) throw notFound(STAFF_MEMBER_MESSAGES.notFound);
  const roleChanges = change.role !== undefined && change.role !== current.role;
  const disabledChanges = change.disabled !== undefined && change.disabled !== (current.disabled_at !== null);
  if (actorMemberId === id && (roleChanges || disabledChanges)) throw conflict(STAFF_MEMBER_MESSAGES.cannotChangeSelf);
  const disabledAt = change.disabled === undefined ? undefined : change.disabled ? (current.disabled_at ?? now) : null;
  await updateStaffMember(
    db,
    id,
    { ...(name !== undefined ? { name } : {}), ...(change.role !== undefined ? { role: change.role } : {}), ...(disabledAt !== undefined ? { disabled_at: disabledAt } : {}) },
    now,
  );
  return memberDto(db, id);
}

export type InvitationLookup = { status: 'open'; name: string; email: string } | { status: 'gone' };

/** Whether the token names an invitation that can still be used (not used, not expired, member enabled). */
export async function lookUpInvitation(db: Kysely<Database>, token: string, now: Date): Promise<InvitationLookup> {
  if (!isInvitationTokenShape(token)) return { status: 'gone' };
  const invitation = await findInvitation(db, hashInvitationToken(token));
  if (!invitation || invitation.used_at || invitation.disabled_at || invitation.expires_at.getTime() <= now.getTime()) return { status: 'gone' };
  return { status: 'open', name: invitation.name, email: invitation.email };
}

export const invitationGone = () => new AppError(410, 'INVITATION_GONE', STAFF_MEMBER_MESSAGES.invitationGone);

/** The field errors of a new password and its confirmation (the set-password policy). */
export function newPasswordErrors(password: string, confirmPassword: string, field = 'password'): FieldError[] {
  const problem = passwordProblem(password);
  if (problem) return [{ field, message: passwordPolicyMessage(problem) }];
  if (password !== confirmPassword) return [{ field: 'confirmPassword', message: STAFF_MEMBER_MESSAGES.passwordsDiffer }];
  return [];
}

/**
 * Sets the member's password through the invitation the token names, once: 410 when it is used,
 * expired or its member disabled; 400 when the password is refused. Every session the member had
 * ends (a password reset).
 */
export async function acceptInvitation(db: Kysely<Database>, token: string, input: { password: string; confirmPassword: string }, now: Date): Promise<{ email: string }> {
  if ((await lookUpInvitation(db, token, now)).status === 'gone') throw invitationGone();
  const errors = newPasswordErrors(input.password, input.confirmPassword);
  if (errors.length > 0) throw validationFailed(errors);
  const hash = await hashPassword(input.password);
  return db.transaction().execute(async (trx) => {
    const invitation = await findInvitation(trx, hashInvitationToken(token), true);
    if (!invitation || invitation.used_at || invitation.disabled_at || invitation.expires_at.getTime() <= now.getTime()) throw invitationGone();
    await markInvitationUsed(trx, invitation.id, now);
    await setMemberPassword(trx, invitation.member_id, hash, now);
    await deleteMemberSessions(trx, invitation.member_id);
    return { email: invitation.email };
  });
}

/**
 * A signed-in member changes their own password: the session that asked stays signed in (under
 * the new password), every other session of theirs ends.
 */
export async function changeOwnPassword(
  db: Kysely<Database>,
  member: { memberId: string; sessionIdHash: string },
  input: { currentPassword: string; newPassword: string; confirmPassword: string },
  now: Date,
): Promise<{ endedSessions: number }> {
  const account = await findStaffMember(db, member.memberId);
  if (!account?.password_hash || !(await verifyPassword(account.password_hash, input.currentPassword))) {
    throw validationFailed([{ field: 'currentPassword', message: STAFF_MEMBER_MESSAGES.wrongCurrentPassword }]);
  }
  const errors = newPasswordErrors(input.newPassword, input.confirmPassword, 'newPassword');
  if (errors.length > 0) throw validationFailed(errors);
  const hash = await hashPassword(input.newPassword);
  return db.transaction().execute(async (trx) => {
    await setMemberPassword(trx, member.memberId, hash, now);
    await setSessionFingerprint(trx, member.sessionIdHash, passwordFingerprint(hash));
    return { endedSessions: await deleteMemberSessions(trx, member.memberId, member.sessionIdHash) };
  });
}
