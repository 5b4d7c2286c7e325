/** Data access for idempotency keys: the first answer to a request, kept for a while and replayed. */
import { sql, type Kysely } from 'kysely';
import type { Database, IdempotencyKey, NewIdempotencyKey } from './database.ts';

type Db = Kysely<Database>;

/** Expired keys are ignored at once and deleted by the periodic purge. */
const expired = (hours: number) => sql<Date>`now() - make_interval(hours => ${hours})`;

/**
 * Claims the key for this transaction (migrations/025): inserts its row, unanswered, or takes over
 * an expired row not purged yet. A second request with the same key waits here, on the unique
 * index, until the transaction holding it ends. True when claimed; false when a live answer is
 * stored (committed before this statement returned: read it with findIdempotencyKey).
 */
export async function claimIdempotencyKey(trx: Db, row: Pick<NewIdempotencyKey, 'scope' | 'key' | 'fingerprint'>, ttlHours: number): Promise<boolean> {
  const claimed = await trx
    .insertInto('idempotency_keys')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['scope', 'key'])
        .doUpdateSet((eb) => ({
          fingerprint: eb.ref('excluded.fingerprint'),
          response_status: null,
          response_body: null,
          created_at: sql<Date>`now()`,
        }))
        .where('idempotency_keys.created_at', '<=', expired(ttlHours)),
    )
    .returning('key')
    .executeTakeFirst();
  return claimed !== undefined;
}

/** The stored answer for a key, unless it is older than `ttlHours`. */
export async function findIdempotencyKey(db: Db, scope: string, key: string, ttlHours: number): Promise<IdempotencyKey | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('scope', '=', scope)
    .where('key', '=', key)
    .where('created_at', '>', expired(ttlHours))
    .executeTakeFirst();
}

/**
 * Stores the answer for the key this transaction claimed. The row is there (the claim wrote it and
 * holds it), so an update of no row means a bug, and the transaction is rolled back.
 */
export async function answerIdempotencyKey(trx: Db, scope: string, key: string, answer: { response_status: number; response_body: string }): Promise<void> {
  await trx
    .updateTable('idempotency_keys')
    .set(answer)
    .where('scope', '=', scope)
    .where('key', '=', key)
    .returning('key')
    .executeTakeFirstOrThrow();
}

/** Deletes the keys older than `ttlHours` (a range scan of the created_at index); returns how many. */
export async function deleteExpiredIdempotencyKeys(db: Db, ttlHours: number): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('created_at', '<=', expired(ttlHours)).executeTakeFirst();
  return Number(result.numDeletedRows);
}
