/** What the e-mail tests share: the app's mail settings, and reading what the SMTP server received. */
import { Writable } from 'node:stream';
import ical from 'node-ical';
import type { ParsedMail, AddressObject } from 'mailparser';
import type { App } from '../../src/app.ts';
import type { TestSmtp } from './smtp.ts';
import { originalClientPayload } from './payloads.ts';

export const STAFF = 'bookings@aucklandvalet.test';

export function mailEnv(smtp: TestSmtp | undefined, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...(smtp ? { SMTP_URL: smtp.url } : {}),
    STAFF_EMAIL: STAFF,
    MAIL_FROM: 'hello@aucklandvalet.test',
    MAIL_POLL_MS: '50',
    MAIL_RETRY_BASE_MS: '20',
    MAIL_MAX_ATTEMPTS: '3',
    LOG_LEVEL: 'info',
    ...extra,
  };
}

/** Log lines of an app, to check what is (and is not) logged. */
export function logCollector(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  return { lines, stream: new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }) };
}

export const to = (mail: ParsedMail) => ((mail.to as AddressObject | undefined)?.value ?? []).map((a) => a.address);
export const invitationOf = (mail: ParsedMail) => {
  const part = mail.attachments.find((a) => a.contentType.startsWith('text/calendar') || a.contentType === 'application/ics');
  return part ? part.content.toString('utf8') : undefined;
};
export const eventOf = (ics: string) => Object.values(ical.sync.parseICS(ics)).find((c) => c?.type === 'VEVENT') as ical.VEvent;

export async function book(app: App, overrides: Record<string, unknown> = {}) {
  const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload(overrides) });
  if (res.statusCode !== 201) throw new Error(`booking failed: ${res.statusCode} ${res.body}`);
  return res.json() as { id: string; reference: string };
}

export async function outbox(app: App, bookingId?: string) {
  let q = app.db.selectFrom('outbox_emails').selectAll().orderBy('created_at');
  if (bookingId) q = q.where('booking_id', '=', bookingId);
  return q.execute();
}
