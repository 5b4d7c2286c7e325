/**
 * The invitation to a new member of staff (issue 22): a single-use link, valid for 48 hours, to
 * set their own password. Queued in the outbox like every other e-mail. Staff reading the outbox
 * see the link masked (maskInvitationLinks), so that nobody but the invitee can use it.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { insertOutboxEmails } from '../db/outbox.repository.ts';
import { INVITATION_PATH_PREFIX } from '../domain/staff-members.ts';
import { outboxRow, type Composed } from './composed.ts';
import type { MailContext } from './mail-context.ts';

export const STAFF_INVITATION_KIND = 'staff-invitation';

export function staffInvitationMessage(member: { name: string; email: string; role: string }, link: string, expiresAt: Date, context: MailContext): Composed {
  const until = expiresAt.toLocaleString('en-NZ', { timeZone: 'Pacific/Auckland', dateStyle: 'full', timeStyle: 'short' });
  return {
    kind: STAFF_INVITATION_KIND,
    to: { name: member.name, address: member.email },
    subject: `Your staff sign-in for ${context.business.name}`,
    content: {
      heading: 'Set your password',
      paragraphs: [
        `Hi ${member.name},`,
        `You have been given a sign-in to the ${context.business.name} staff dashboard${member.role === 'owner' ? ', as an owner' : ''}. Open the link below to choose your password; then sign in with this e-mail address and that password.`,
        `The link works once, until ${until}. If it has expired, ask the owner to invite you again.`,
      ],
      sections: [],
      action: { label: 'Set your password', href: link, note: 'If you did not expect this e-mail, you can ignore it.' },
      closing: [context.business.name],
    },
  };
}

export async function queueStaffInvitationMail(
  db: Kysely<Database>,
  member: { name: string; email: string; role: string },
  token: string,
  expiresAt: Date,
  context: MailContext,
): Promise<void> {
  const link = `${context.origin}${INVITATION_PATH_PREFIX}${token}`;
  await insertOutboxEmails(db, [outboxRow(staffInvitationMessage(member, link, expiresAt, context), {}, context.now())]);
  context.onQueued?.();
}

const INVITATION_LINK = new RegExp(`${INVITATION_PATH_PREFIX.replaceAll('/', '\\/')}[A-Za-z0-9_-]+`, 'g');

/** An invitation's link as staff read the outbox: its token hidden. */
export function maskInvitationLinks(text: string): string {
  return text.replace(INVITATION_LINK, `${INVITATION_PATH_PREFIX}[hidden]`);
}
