/**
 * What composing an e-mail needs besides the booking: who the business is, where the site is,
 * who sends and who on staff receives, and the clock. The mailer plugin registers it when the app
 * is built, so that the services (and the manage page) can queue e-mail with the transaction
 * alone: `queueBookingMail(trx, event)`. One process serves one configuration; a test that builds
 * several apps builds them with the same mail settings, or passes its own context.
 */
import type { BusinessInfo } from '../domain/business.ts';

export interface MailContext {
  business: BusinessInfo;
  /** The site's origin for links in e-mails: PUBLIC_URL's, else http://localhost:<port>. */
  origin: string;
  from: { name: string; address: string };
  staffEmail: string;
  reminderHoursBefore: number;
  /** Customers may cancel or move a booking until this many hours before it. */
  manageCutoffHours: number;
  now: () => Date;
  /** Called after e-mail was queued, so the sender looks soon after the transaction commits. */
  onQueued?: () => void;
}

let registered: MailContext | undefined;

export function registerMailContext(context: MailContext): void {
  registered = context;
}

export function currentMailContext(): MailContext {
  if (!registered) throw new Error('No mail context: the mailer plugin registers it when the app is built');
  return registered;
}
