/**
 * The webhook sender (issue 44), modelled on the e-mail outbox's (mailer.ts): a loop inside the
 * app that claims due deliveries (claimDueDeliveries: FOR UPDATE SKIP LOCKED and a lease, safe
 * with several instances on one PostgreSQL) and posts each to its endpoint, signed as the
 * Standard Webhooks specification says (webhook-id, webhook-timestamp, webhook-signature v1 with
 * the endpoint's own secret, by the `standardwebhooks` library).
 *
 * Each post has 10 seconds in all, follows no redirect (a 3xx is a failure: node:http never
 * follows one), and connects only to an address checked as public at that moment (checkedLookup)
 * unless WEBHOOKS_ALLOW_PRIVATE. Any answer but a 2xx is a failure, retried with exponential
 * back-off (WEBHOOK_RETRY_BASE_MS, doubled each time) until WEBHOOK_MAX_ATTEMPTS, then failed (the
 * owner may resend it). An endpoint whose deliveries have failed for WEBHOOK_DISABLE_AFTER_DAYS
 * without one delivered is disabled and the owner e-mailed.
 *
 * It polls every WEBHOOK_POLL_MS and looks at once after a request of this process queued a
 * delivery (the loop it shares with the e-mails', sender-loop.ts); app.webhooks.sendDue() runs a
 * pass now (tests drive it with their clock).
 */
import http from 'node:http';
import https from 'node:https';
import fp from 'fastify-plugin';
import { Webhook } from 'standardwebhooks';
import { claimDueDeliveries, disableFailingEndpoint, finishDelivery, markEndpointAnswering, markEndpointFailing, type ClaimedDelivery } from '../../db/webhooks.repository.ts';
import { webhookRetryDelayMs } from '../../domain/webhooks.ts';
import { queueWebhookDisabledMail } from '../../mail/webhook-disabled.ts';
import { assertPublicDestination, checkedLookup } from '../../webhooks/destination.ts';
import { senderLoop } from './sender-loop.ts';

declare module 'fastify' {
  interface FastifyInstance {
    webhooks: WebhookSender;
  }
}

export interface WebhookSender {
  /** Sends the due deliveries now (and again until none is due). Resolves when that pass is done. */
  sendDue(): Promise<void>;
}

/** Each delivery's limit, connection to last byte. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** How long a claimed row is held before another sender may take it (longer than any post). */
const LEASE_MS = 60_000;
const BATCH = 10;
const USER_AGENT = 'valet-webhooks/1';

function errorText(err: unknown): string {
  const e = err as { name?: string; message?: string; code?: string };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `No answer within ${WEBHOOK_TIMEOUT_MS / 1000} seconds`;
  return `${e.message ?? String(err)}${e.code ? ` (${e.code})` : ''}`.slice(0, 500);
}

/** Posts the body and answers the status; the answer's body is read and dropped. */
async function post(url: URL, body: string, headers: Record<string, string>, allowPrivate: boolean): Promise<number> {
  // One limit for the whole exchange, the name's lookup included.
  const signal = AbortSignal.timeout(WEBHOOK_TIMEOUT_MS);
  const timedOut = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }));
  timedOut.catch(() => undefined);
  // An address written in the URL is connected to without a lookup: checked here. A host name is
  // checked again by the socket's own lookup, on the address it connects to.
  await Promise.race([assertPublicDestination(url, allowPrivate), timedOut]);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<number>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': USER_AGENT },
        lookup: checkedLookup(allowPrivate) as never,
        signal,
        agent: false,
      },
      (response) => {
        response.on('error', reject);
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.resume();
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

export default fp(
  async (app) => {
    const settings = app.config.webhooks;
    async function failed(delivery: ClaimedDelivery, httpStatus: number | null, error: string): Promise<void> {
      const now = app.now();
      const last = delivery.attempts >= settings.maxAttempts;
      const log = { deliveryId: delivery.id, endpointId: delivery.endpoint_id, event: delivery.event, attempt: delivery.attempts, httpStatus };
      await finishDelivery(app.db, delivery, {
        status: last ? 'failed' : 'queued',
        httpStatus,
        error,
        at: now,
        ...(last ? {} : { nextAttemptAt: new Date(now.getTime() + webhookRetryDelayMs(delivery.attempts, settings.retryBaseMs)) }),
      });
      if (last) app.log.error(log, 'webhook failed for good');
      else app.log.warn(log, 'webhook not delivered; will retry');
      const since = await markEndpointFailing(app.db, delivery.endpoint_id, now);
      const days = settings.disableAfterDays;
      if (days > 0 && now.getTime() - since.getTime() >= days * 86_400_000) {
        const reason = `Every delivery failed for ${days} day${days === 1 ? '' : 's'} (last: ${error})`.slice(0, 500);
        const disabled = await app.db.transaction().execute(async (trx) => {
          if (!(await disableFailingEndpoint(trx, delivery.endpoint_id, reason, now))) return false;
          const endpoint = await trx.selectFrom('webhook_endpoints').select(['url', 'description']).where('id', '=', delivery.endpoint_id).executeTakeFirstOrThrow();
          await queueWebhookDisabledMail(trx, endpoint, days, app.mail);
          return true;
        });
        if (disabled) {
          app.log.warn({ endpointId: delivery.endpoint_id }, 'webhook endpoint disabled after failing');
          void app.mailer.wake();
        }
      }
    }

    async function send(delivery: ClaimedDelivery): Promise<void> {
      const body = typeof delivery.payload === 'string' ? delivery.payload : JSON.stringify(delivery.payload);
      // The signature's time is the wall clock's, not the app's business clock: a receiver rejects
      // a timestamp more than a few minutes from its own (the specification's replay window).
      const sentAt = new Date();
      const headers = {
        'webhook-id': delivery.message_id,
        'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'webhook-signature': new Webhook(delivery.secret).sign(delivery.message_id, sentAt, body),
      };
      let status: number;
      try {
        status = await post(new URL(delivery.url), body, headers, settings.allowPrivate);
      } catch (err) {
        await failed(delivery, null, errorText(err));
        return;
      }
      if (status >= 200 && status < 300) {
        await finishDelivery(app.db, delivery, { status: 'delivered', httpStatus: status, error: null, at: app.now() });
        await markEndpointAnswering(app.db, delivery.endpoint_id);
        app.log.info({ deliveryId: delivery.id, endpointId: delivery.endpoint_id, event: delivery.event, httpStatus: status }, 'webhook delivered');
        return;
      }
      await failed(delivery, status, status >= 300 && status < 400 ? `Answered ${status}: redirects are not followed` : `Answered ${status}`);
    }

    const loop = senderLoop(app, {
      pollMs: settings.pollMs,
      batch: BATCH,
      claim: () => claimDueDeliveries(app.db, app.now(), LEASE_MS, BATCH),
      send,
      failure: 'the webhook sender could not read its outbox',
    });
    app.mail.onWebhookQueued = () => loop.queued();
    app.decorate('webhooks', { sendDue: loop.wake } satisfies WebhookSender);
  },
  { name: 'webhooks', dependencies: ['config', 'database', 'mailer'] },
);
