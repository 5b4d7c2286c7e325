/**
 * The outbox sender: a loop inside the app that claims due e-mails (see claimDueEmails: safe with
 * several instances on one PostgreSQL), sends each over SMTP with nodemailer and records the
 * outcome; a failure is retried with exponential backoff and, after the last attempt, marked
 * failed for staff to see and resend. It polls every MAIL_POLL_MS and looks at once after a
 * request of this process queued mail. Closing the app lets the send in flight finish.
 *
 * An e-mail a booking's transaction queued with a snapshot (issue 24) is composed here, as it is
 * sent, from that snapshot; its bodies are written into the row with the outcome.
 *
 * Without SMTP_URL nothing is sent: e-mails are still queued in the outbox, and each one
 * becomes `unsent` when it falls due (staff read it in the dashboard, and can send it with Resend
 * once SMTP is configured). The log says so once.
 */
import fp from 'fastify-plugin';
import nodemailer, { type Transporter } from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { Kysely } from 'kysely';
import type { Database, OutboxEmail } from '../../db/database.ts';
import { findBooking } from '../../db/bookings.repository.ts';
import { claimDueEmails, finishAttempt } from '../../db/outbox.repository.ts';
import { holdsSlot } from '../../domain/booking-status.ts';
import type { MailContext } from '../../mail/mail-context.ts';
import { manageKeyCache } from '../../db/manage-link.repository.ts';
import { withLiveManageLinks } from '../../mail/manage-slots.ts';
import { composeQueued, needsComposing } from '../../mail/booking-mail.ts';
import { maskInvitationLinks, STAFF_INVITATION_KIND } from '../../mail/staff-invitation.ts';
import { senderLoop } from './sender-loop.ts';

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
    /** What this app composes e-mail with; handed to the services that queue it. */
    mail: MailContext;
  }
}

export interface Mailer {
  /** Looks for due e-mails now (and again until none is due). Resolves when that pass is done. */
  wake(): Promise<void>;
}

/** How long a claimed row is held before another sender may take it (longer than any send). */
const LEASE_MS = 5 * 60_000;
const BATCH = 10;
const MAX_RETRY_DELAY_MS = 60 * 60_000;
const NOT_CONFIGURED = 'Not sent: no SMTP server is configured (SMTP_URL)';

/** The delay before attempt `attempts + 1`: base, 2 × base, 4 × base … at most an hour. */
export function retryDelayMs(attempts: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MAX_RETRY_DELAY_MS);
}

function errorText(err: unknown): string {
  const e = err as { responseCode?: number; response?: string; message?: string; code?: string };
  return (e.response ?? e.message ?? String(err)).slice(0, 500) + (e.code ? ` (${e.code})` : '');
}

/**
 * A reminder is sent only while its booking still holds its place, a review request only while its
 * job is completed, a waitlist offer only while it is still held; anything else as composed.
 */
async function stillWanted(db: Kysely<Database>, email: OutboxEmail): Promise<string | undefined> {
  if (email.kind === 'review-request' && email.booking_id) {
    // A review is asked for a job done: not when it was reopened (or cancelled) before this was due.
    const booking = await findBooking(db, email.booking_id);
    return booking?.status === 'completed' ? undefined : `The booking is ${booking?.status ?? 'gone'}, no longer completed`;
  }
  if (email.kind === 'waitlist-offer' && email.booking_id) {
    // An offer still unsent when it lapsed or was answered (a mail server down for the hour): it would promise a place no longer held.
    const booking = await findBooking(db, email.booking_id);
    return booking?.status === 'offered' ? undefined : `The offer has ended: the booking is ${booking?.status ?? 'gone'}`;
  }
  if (email.kind !== 'booking-reminder' || !email.booking_id) return undefined;
  const booking = await findBooking(db, email.booking_id);
  // A no-show holds its place but is told nothing: a reminder still retrying when it was marked is dropped.
  if (!booking || !holdsSlot(booking.status) || booking.status === 'no-show') return `The booking is ${booking?.status ?? 'gone'}`;
  return undefined;
}

export default fp(
  async (app) => {
    const { config } = app;
    const mail = config.mail;
    app.decorate('mail', {
      business: config.business,
      origin: config.publicOrigin ?? `http://localhost:${config.port}`,
      from: mail.from,
      staffEmail: mail.staffEmail,
      reminderHoursBefore: mail.reminderHoursBefore,
      manageCutoffHours: config.manageCutoffHours,
      planConfirmDaysBefore: config.plans.confirmDaysBefore,
      now: () => app.now(),
      manageKey: manageKeyCache(),
      completion: config.completion,
      onQueued: () => loop.queued(),
    } satisfies MailContext);

    // One pooled connection, kept open between e-mails (the sender sends one at a time): a new
    // connection per e-mail cost about 100 ms on loopback (and a TLS handshake against a real
    // provider), which held the sending to about 9 e-mails a second; reused, about 5 ms.
    const transport: Transporter | undefined = mail.smtpUrl
      ? nodemailer.createTransport({ url: mail.smtpUrl, pool: true, maxConnections: 1, connectionTimeout: 20_000, greetingTimeout: 20_000, socketTimeout: 60_000 } as never)
      : undefined;
    async function send(claimed: OutboxEmail): Promise<void> {
      const log = { outboxId: claimed.id, kind: claimed.kind, bookingId: claimed.booking_id ?? undefined, attempt: claimed.attempts };
      // A booking's e-mail is composed here, from the snapshot its transaction stored (issue 24), and
      // written into the row with the outcome, whatever it is: staff read what was (or would have been) sent.
      let composed: { text_body: string; html_body: string; ics: string | null } | undefined;
      let bodies: ReturnType<typeof composeQueued<OutboxEmail>>;
      try {
        bodies = composeQueued(claimed, app.mail);
        if (needsComposing(claimed)) composed = { text_body: bodies.text_body, html_body: bodies.html_body, ics: bodies.ics };
      } catch (err) {
        await finishAttempt(app.db, claimed, { status: 'failed', error: `Could not compose the e-mail: ${errorText(err)}` });
        app.log.error({ ...log, error: (err as Error).message }, 'e-mail could not be composed');
        return;
      }
      const finish = (outcome: Parameters<typeof finishAttempt>[2]) => finishAttempt(app.db, claimed, outcome, composed);
      const email = await withLiveManageLinks(app.db, bodies, app.mail.manageKey);
      const skip = await stillWanted(app.db, claimed);
      if (skip) {
        await finish({ status: 'skipped', error: skip });
        app.log.info(log, 'e-mail skipped');
        return;
      }
      if (!transport) {
        await finish({ status: 'unsent', error: NOT_CONFIGURED });
        return;
      }
      try {
        // The message is built whole by nodemailer's own composer and handed to SMTP as one
        // piece: streamed from its parts it went out in about 23 socket writes, each a system
        // call and a wake-up of the server at the other end; built first, in about 5, for about
        // a third less of this process's CPU an e-mail (issue 24).
        const addresses = { from: mail.from, to: { name: email.to_name, address: email.to_address } };
        const raw = await new MailComposer({
          ...addresses,
          ...(email.reply_to_address ? { replyTo: { name: email.reply_to_name ?? '', address: email.reply_to_address } } : {}),
          subject: email.subject,
          text: email.text_body,
          html: email.html_body,
          ...(email.ics ? { icalEvent: { method: email.ics_method ?? 'REQUEST', filename: 'invite.ics', content: email.ics } } : {}),
        })
          .compile()
          .build();
        // The addresses again, for the envelope (derived as for any message); the message is `raw`, sent as built.
        await transport.sendMail({ ...addresses, raw });
        // A staff invitation's link is a credential: once delivered, only its masked form is kept,
        // written with the outcome (one statement: no moment when the row is sent and still holds it).
        const kept =
          claimed.kind === STAFF_INVITATION_KIND
            ? { text_body: maskInvitationLinks(bodies.text_body), html_body: maskInvitationLinks(bodies.html_body), ics: bodies.ics }
            : composed;
        await finishAttempt(app.db, claimed, { status: 'sent', at: app.now() }, kept);
        app.log.info(log, 'e-mail sent');
      } catch (err) {
        const error = errorText(err);
        if (email.attempts >= mail.maxAttempts) {
          await finish({ status: 'failed', error });
          app.log.error({ ...log, error: (err as { code?: string }).code }, 'e-mail failed for good');
        } else {
          await finish({ status: 'retry', at: new Date(app.now().getTime() + retryDelayMs(email.attempts, mail.retryBaseMs)), error });
          app.log.warn({ ...log, error: (err as { code?: string }).code }, 'e-mail not sent; will retry');
        }
      }
    }

    const loop = senderLoop(app, {
      pollMs: mail.pollMs,
      batch: BATCH,
      claim: () => claimDueEmails(app.db, app.now(), LEASE_MS, BATCH),
      send,
      failure: 'the e-mail sender could not read the outbox',
      afterClose: () => transport?.close(),
    });
    app.decorate('mailer', { wake: loop.wake } satisfies Mailer);

    app.addHook('onReady', async () => {
      if (!transport) app.log.warn('SMTP is not configured (SMTP_URL): e-mails are kept in the outbox, readable in the dashboard, and not sent');
    });
  },
  { name: 'mailer', dependencies: ['config', 'database'] },
);
