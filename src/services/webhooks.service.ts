/**
 * Webhook endpoints (issue 44), for the owner: registered with a URL (https in production; its
 * host's every address public unless WEBHOOKS_ALLOW_PRIVATE), the events it receives and a
 * description; each with its own Standard Webhooks secret (whsec_ and 32 random bytes in base64),
 * answered once at creation and at each rotation. Disabled, enabled, deleted; its deliveries
 * listed and resent.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { WebhooksConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import {
  deleteEndpoint,
  findDelivery,
  findEndpoint,
  insertEndpoint,
  listDeliveries,
  requeueDelivery,
  updateEndpoint,
  type WebhookDeliverySummary,
  type WebhookEndpointSummary,
} from '../db/webhooks.repository.ts';
import { WEBHOOK_MESSAGES, webhookUrlProblem, type WebhookEvent } from '../domain/webhooks.ts';
import { conflict, notFound, validationFailed } from '../errors.ts';
import { assertPublicDestination, WebhookDestinationError } from '../webhooks/destination.ts';

export { listEndpoints } from '../db/webhooks.repository.ts';

/** How many of an endpoint's latest deliveries are listed. */
export const DELIVERIES_LISTED = 50;

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** The URL as stored, or a 400 naming what is wrong with it (its shape, or where it leads). */
async function checkedUrl(raw: string, settings: Pick<WebhooksConfig, 'httpsOnly' | 'allowPrivate'>): Promise<string> {
  const url = raw.trim();
  const problem = webhookUrlProblem(url, settings);
  if (problem) throw validationFailed([{ field: 'url', message: problem }]);
  try {
    await assertPublicDestination(new URL(url), settings.allowPrivate);
  } catch (err) {
    if (err instanceof WebhookDestinationError) throw validationFailed([{ field: 'url', message: err.message }]);
    throw err;
  }
  return new URL(url).toString();
}

const uniqueEvents = (events: readonly WebhookEvent[]) => [...new Set(events)];

export async function createEndpoint(
  db: Kysely<Database>,
  input: { url: string; events: WebhookEvent[]; description?: string },
  settings: Pick<WebhooksConfig, 'httpsOnly' | 'allowPrivate'>,
): Promise<{ endpoint: WebhookEndpointSummary; secret: string }> {
  const url = await checkedUrl(input.url, settings);
  const secret = newSecret();
  const endpoint = await insertEndpoint(db, { url, events: uniqueEvents(input.events), description: input.description?.trim() ?? '', secret });
  return { endpoint, secret };
}

async function updated(row: WebhookEndpointSummary | undefined): Promise<WebhookEndpointSummary> {
  if (!row) throw notFound(WEBHOOK_MESSAGES.notFound);
  return row;
}

/** A change of events, description or state; enabling one ends its failing spell (a fresh start). */
export async function changeEndpoint(
  db: Kysely<Database>,
  id: string,
  change: { events?: WebhookEvent[]; description?: string; enabled?: boolean },
  now: Date,
): Promise<WebhookEndpointSummary> {
  return updated(
    await updateEndpoint(
      db,
      id,
      {
        ...(change.events ? { events: uniqueEvents(change.events) } : {}),
        ...(change.description !== undefined ? { description: change.description.trim() } : {}),
        ...(change.enabled === true ? { enabled: true, disabled_reason: null, failing_since: null } : {}),
        ...(change.enabled === false ? { enabled: false, disabled_reason: 'Turned off by the owner' } : {}),
      },
      now,
    ),
  );
}

/** A new secret for the endpoint, answered once; the old one signs no more. */
export async function rotateSecret(db: Kysely<Database>, id: string, now: Date): Promise<{ endpoint: WebhookEndpointSummary; secret: string }> {
  const secret = newSecret();
  return { endpoint: await updated(await updateEndpoint(db, id, { secret }, now)), secret };
}

export async function removeEndpoint(db: Kysely<Database>, id: string): Promise<void> {
  if (!(await deleteEndpoint(db, id))) throw notFound(WEBHOOK_MESSAGES.notFound);
}

export async function deliveriesOf(db: Kysely<Database>, id: string): Promise<WebhookDeliverySummary[]> {
  if (!(await findEndpoint(db, id))) throw notFound(WEBHOOK_MESSAGES.notFound);
  return listDeliveries(db, id, DELIVERIES_LISTED);
}

/** "Resend": a delivered or failed delivery queued again at once, with the same webhook-id and payload. */
export async function resendDelivery(db: Kysely<Database>, id: string, now: Date): Promise<WebhookDeliverySummary> {
  const requeued = await requeueDelivery(db, id, now);
  if (requeued) return requeued;
  if (!(await findDelivery(db, id))) throw notFound(WEBHOOK_MESSAGES.deliveryNotFound);
  throw conflict(WEBHOOK_MESSAGES.resendNotAllowed);
}
