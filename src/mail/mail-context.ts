/**
 * What composing an e-mail needs besides the booking: who the business is, where the site is,
 * who sends and who on staff receives, and the clock. The mailer plugin makes one per app
 * (`app.mail`), and the services that queue e-mail are handed it, so that several apps in one
 * process (tests, or a tool) never compose with one another's settings or clock.
 */
import type { BusinessInfo } from '../domain/business.ts';
import type { ManageKeyReader } from '../db/manage-link.repository.ts';
import type { CompletionConfig } from '../config.ts';

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
  /** Reads the manage links' key (the app's cache; the database each time when absent). */
  manageKey?: ManageKeyReader;
  /** Called after e-mail was queued, so the sender looks soon after the transaction commits. */
  onQueued?: () => void;
  /** Called after a webhook delivery was queued (issue 44), so the webhook sender looks soon after the commit. */
  onWebhookQueued?: () => void;
  /** PLAN_CONFIRM_DAYS_BEFORE (issue 43): a plan's visit e-mails "keep, move or skip" this many days before it (0 or absent: none). */
  planConfirmDaysBefore?: number;
  /** GST_NUMBER, REVIEW_URL and REVIEW_DELAY_HOURS, for completions (none when absent). */
  completion?: CompletionConfig;
}
