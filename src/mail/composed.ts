/**
 * An e-mail as composed (its kind, addresses, content, subject, invitation and due time), and the
 * outbox row that queues one composed when it is queued. Shared by every module that composes
 * e-mail (src/mail/*), below each of them.
 */
import type { NewOutboxEmail } from '../db/database.ts';
import { renderText, type MessageContent } from './message.ts';
import { renderHtml } from './MessageHtml.tsx';
import type { CustomerMessageKind } from './templates.ts';
import type { PlanMessageKind } from './plan-templates.ts';

export type EmailKind = CustomerMessageKind | PlanMessageKind | 'staff-new-booking' | 'staff-contact-message' | 'booking-links' | 'booking-receipt' | 'review-request' | 'booking-on-the-way' | 'staff-invitation' | 'staff-webhook-disabled';

export interface Composed {
  kind: EmailKind;
  to: { name: string; address: string };
  replyTo?: { name: string; address: string };
  content: MessageContent;
  subject: string;
  ics?: { method: 'REQUEST' | 'CANCEL'; text: string };
  /** When it is due (a reminder later; everything else at once). */
  dueAt?: Date;
}

export function outboxRow(message: Composed, links: { bookingId?: string; contactMessageId?: string }, now: Date): NewOutboxEmail {
  return {
    kind: message.kind,
    booking_id: links.bookingId ?? null,
    contact_message_id: links.contactMessageId ?? null,
    to_name: message.to.name,
    to_address: message.to.address,
    reply_to_name: message.replyTo?.name ?? null,
    reply_to_address: message.replyTo?.address ?? null,
    subject: message.subject,
    text_body: renderText(message.content),
    html_body: renderHtml(message.content),
    ics: message.ics?.text ?? null,
    ics_method: message.ics?.method ?? null,
    next_attempt_at: message.dueAt ?? now,
  };
}
