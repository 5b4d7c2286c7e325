/**
 * The e-mail to the owner when a webhook endpoint is disabled for failing (issue 44): queued in the
 * e-mail outbox like every other, to each owner with a sign-in (STAFF_EMAIL when there is none).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { insertOutboxEmails } from '../db/outbox.repository.ts';
import { outboxRow, type Composed } from './composed.ts';
import type { MailContext } from './mail-context.ts';

export const WEBHOOK_DISABLED_KIND = 'staff-webhook-disabled';

export function webhookDisabledMessage(endpoint: { url: string; description: string }, days: number, to: { name: string; address: string }, context: MailContext): Composed {
  const named = endpoint.description ? `${endpoint.description} (${endpoint.url})` : endpoint.url;
  return {
    kind: WEBHOOK_DISABLED_KIND,
    to,
    subject: `A webhook endpoint was turned off: ${endpoint.url}`.slice(0, 200),
    content: {
      heading: 'A webhook endpoint was turned off',
      paragraphs: [
        `Every delivery to ${named} has failed for ${days} day${days === 1 ? '' : 's'}, so it has been turned off and nothing more is sent to it.`,
        'Its deliveries are kept: when the receiver works again, turn the endpoint back on in the dashboard (Webhooks) and resend those that failed.',
      ],
      sections: [],
      action: { label: 'Open the dashboard', href: `${context.origin}/dashboard`, note: 'Webhooks are in the owner’s panels.' },
      closing: [context.business.name],
    },
  };
}

/** Queues the e-mail (in the caller's transaction or on its own) to every owner with a sign-in. */
export async function queueWebhookDisabledMail(db: Kysely<Database>, endpoint: { url: string; description: string }, days: number, context: MailContext): Promise<void> {
  const owners = await db.selectFrom('staff_members').select(['name', 'email']).where('role', '=', 'owner').where('disabled_at', 'is', null).execute();
  const to = owners.length > 0 ? owners.map((o) => ({ name: o.name, address: o.email })) : [{ name: context.business.name, address: context.staffEmail }];
  const now = context.now();
  await insertOutboxEmails(db, to.map((recipient) => outboxRow(webhookDisabledMessage(endpoint, days, recipient, context), {}, now)));
  context.onQueued?.();
}
