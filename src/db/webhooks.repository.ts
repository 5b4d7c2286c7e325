/** Data access for webhook endpoints and their deliveries (migrations/040_webhooks.sql). */
import { sql, type Kysely } from 'kysely';
import type { Database, WebhookDelivery, WebhookEndpoint } from './database.ts';

/** An endpoint as listed: everything but its secret. */
export type WebhookEndpointSummary = Omit<WebhookEndpoint, 'secret'>;
const SUMMARY = ['id', 'url', 'description', 'events', 'enabled', 'disabled_reason', 'failing_since', 'created_at', 'updated_at'] as const;

export async function insertEndpoint(db: Kysely<Database>, row: { url: string; description: string; events: string[]; secret: string }): Promise<WebhookEndpointSummary> {
  return db.insertInto('webhook_endpoints').values(row).returning(SUMMARY).executeTakeFirstOrThrow();
}

export async function listEndpoints(db: Kysely<Database>): Promise<WebhookEndpointSummary[]> {
  return db.selectFrom('webhook_endpoints').select(SUMMARY).orderBy('created_at').orderBy('id').execute();
}

export async function findEndpoint(db: Kysely<Database>, id: string): Promise<WebhookEndpointSummary | undefined> {
  return db.selectFrom('webhook_endpoints').select(SUMMARY).where('id', '=', id).executeTakeFirst();
}

export async function updateEndpoint(
  db: Kysely<Database>,
  id: string,
  change: { description?: string; events?: string[]; enabled?: boolean; disabled_reason?: string | null; secret?: string; failing_since?: Date | null },
  now: Date,
): Promise<WebhookEndpointSummary | undefined> {
  return db.updateTable('webhook_endpoints').set({ ...change, updated_at: now }).where('id', '=', id).returning(SUMMARY).executeTakeFirst();
}

export async function deleteEndpoint(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await db.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** The enabled endpoints that receive `event`, with their ids only (queueing needs no more). */
export async function endpointsFor(db: Kysely<Database>, event: string): Promise<string[]> {
  const rows = await db
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('enabled', '=', true)
    .where(sql<boolean>`${event} = ANY(events)`)
    .execute();
  return rows.map((r) => r.id);
}

export async function insertDeliveries(
  db: Kysely<Database>,
  rows: { endpoint_id: string; event: string; message_id: string; booking_id: string | null; payload: string; next_attempt_at: Date }[],
): Promise<void> {
  if (rows.length > 0) await db.insertInto('webhook_deliveries').values(rows).execute();
}

export type ClaimedDelivery = WebhookDelivery & { url: string; secret: string; failing_since: Date | null };

/**
 * Claims up to `limit` due deliveries of enabled endpoints for one sender, as the e-mail outbox
 * does (claimDueEmails): in one statement the rows are picked FOR UPDATE SKIP LOCKED, their
 * attempt counted and their next_attempt_at moved to the end of a lease, so no two senders hold
 * one row, and one that dies mid-send leaves it to be claimed again when the lease ends.
 */
export async function claimDueDeliveries(db: Kysely<Database>, now: Date, leaseMs: number, limit: number): Promise<ClaimedDelivery[]> {
  const leaseUntil = new Date(now.getTime() + leaseMs);
  const result = await sql<ClaimedDelivery>`
    WITH claimed AS (
      UPDATE webhook_deliveries SET attempts = attempts + 1, next_attempt_at = ${leaseUntil}
      WHERE id IN (
        SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.status = 'queued' AND d.next_attempt_at <= ${now} AND e.enabled
        ORDER BY d.next_attempt_at, d.created_at
        LIMIT ${limit}
        FOR UPDATE OF d SKIP LOCKED
      )
      RETURNING *
    )
    SELECT claimed.*, e.url, e.secret, e.failing_since FROM claimed JOIN webhook_endpoints e ON e.id = claimed.endpoint_id
    ORDER BY claimed.next_attempt_at, claimed.created_at`.execute(db);
  return result.rows;
}

/** The outcome of a claimed attempt, written only while the row is still the one claimed. */
export async function finishDelivery(
  db: Kysely<Database>,
  claimed: Pick<WebhookDelivery, 'id' | 'attempts'>,
  outcome: { status: 'delivered' | 'queued' | 'failed'; httpStatus: number | null; error: string | null; at: Date; nextAttemptAt?: Date },
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({
      status: outcome.status,
      last_status: outcome.httpStatus,
      last_error: outcome.error?.slice(0, 500) ?? null,
      last_attempt_at: outcome.at,
      delivered_at: outcome.status === 'delivered' ? outcome.at : null,
      ...(outcome.nextAttemptAt ? { next_attempt_at: outcome.nextAttemptAt } : {}),
    })
    .where('id', '=', claimed.id)
    .where('attempts', '=', claimed.attempts)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** An endpoint answered: its failing spell, if any, ends. */
export async function markEndpointAnswering(db: Kysely<Database>, id: string): Promise<void> {
  await db.updateTable('webhook_endpoints').set({ failing_since: null }).where('id', '=', id).where('failing_since', 'is not', null).execute();
}

/** An endpoint failed: its failing spell starts now unless it had started. Answers when it started. */
export async function markEndpointFailing(db: Kysely<Database>, id: string, now: Date): Promise<Date> {
  const row = await db
    .updateTable('webhook_endpoints')
    .set({ failing_since: sql<Date>`coalesce(failing_since, ${now}::timestamptz)` })
    .where('id', '=', id)
    .returning('failing_since')
    .executeTakeFirst();
  return row?.failing_since ?? now;
}

/** Disables an endpoint still enabled (compare-and-set: one sender e-mails the owner). True when this call did. */
export async function disableFailingEndpoint(db: Kysely<Database>, id: string, reason: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('webhook_endpoints')
    .set({ enabled: false, disabled_reason: reason, updated_at: now })
    .where('id', '=', id)
    .where('enabled', '=', true)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export type WebhookDeliverySummary = Omit<WebhookDelivery, 'payload'>;
const DELIVERY_SUMMARY = [
  'id',
  'endpoint_id',
  'event',
  'message_id',
  'booking_id',
  'status',
  'attempts',
  'next_attempt_at',
  'last_status',
  'last_error',
  'last_attempt_at',
  'delivered_at',
  'created_at',
] as const;

/** An endpoint's latest deliveries, newest first. */
export async function listDeliveries(db: Kysely<Database>, endpointId: string, limit: number): Promise<WebhookDeliverySummary[]> {
  return db
    .selectFrom('webhook_deliveries')
    .select(DELIVERY_SUMMARY)
    .where('endpoint_id', '=', endpointId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Compare-and-set: a delivered or failed delivery goes back to the queue once, however many clicks. */
export async function requeueDelivery(db: Kysely<Database>, id: string, now: Date): Promise<WebhookDeliverySummary | undefined> {
  return db
    .updateTable('webhook_deliveries')
    .set({ status: 'queued', attempts: 0, next_attempt_at: now, delivered_at: null })
    .where('id', '=', id)
    .where('status', 'in', ['delivered', 'failed'])
    .returning(DELIVERY_SUMMARY)
    .executeTakeFirst();
}

export async function findDelivery(db: Kysely<Database>, id: string): Promise<WebhookDeliverySummary | undefined> {
  return db.selectFrom('webhook_deliveries').select(DELIVERY_SUMMARY).where('id', '=', id).executeTakeFirst();
}

/** The deliveries that tell of these bookings, whatever their status (their payloads to be erased). */
export async function deliveriesForBookings(db: Kysely<Database>, bookingIds: readonly string[]): Promise<{ id: string; booking_id: string; payload: Record<string, unknown> }[]> {
  if (bookingIds.length === 0) return [];
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select(['id', 'booking_id', 'payload'])
    .where('booking_id', 'in', [...bookingIds])
    .execute();
  return rows.map((r) => ({ ...r, booking_id: r.booking_id!, payload: typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload }));
}

export async function replacePayload(db: Kysely<Database>, id: string, payload: string): Promise<void> {
  await db.updateTable('webhook_deliveries').set({ payload }).where('id', '=', id).execute();
}
