/**
 * A maintenance plan's own e-mails (issue 43), queued in the transaction that changes the plan,
 * with a snapshot of the plan's booking and what the e-mail says of the plan; composed when sent
 * (src/mail/plan-templates.ts). Their link is the plan's page, reached through the manage link of
 * the booking the plan was made from, held as a slot until the e-mail is sent.
 */
import type { Kysely } from 'kysely';
import type { Booking, Database, PlanMailFacts } from '../db/database.ts';
import { insertOutboxEmails } from '../db/outbox.repository.ts';
import { manageLinkSlotFor } from '../db/manage-link.repository.ts';
import { PLAN_PAGE_SUFFIX } from '../domain/manage-link.ts';
import { bookingSnapshot, snapshotRow } from './booking-mail.ts';
import type { MailContext } from './mail-context.ts';
import { planSubject, type PlanMessageKind } from './plan-templates.ts';

export async function queuePlanMail(trx: Kysely<Database>, kind: PlanMessageKind, template: Booking, facts: PlanMailFacts, context: MailContext): Promise<void> {
  // A plan made by staff for a customer without an e-mail address: nothing to send.
  if (template.email.trim() === '') return;
  const now = context.now();
  const manage = await manageLinkSlotFor(trx, template, context.origin, context.manageKey);
  const link = manage === undefined ? undefined : `${manage}${PLAN_PAGE_SUFFIX}`;
  const snapshot = bookingSnapshot(template, now, undefined, { plan: facts, ...(link !== undefined ? { link } : {}) });
  const message = { kind, to: { name: template.name, address: template.email }, subject: planSubject(kind, facts, context) };
  await insertOutboxEmails(trx, [snapshotRow(message, template.id, snapshot, now)]);
  context.onQueued?.();
}
