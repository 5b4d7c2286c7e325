/** Data access for idempotency keys: the first answer to a request, kept for a while and replayed. */
import { sql, type Kysely } from 'kysely';
import type { Database, IdempotencyKey, NewIdempotencyKey } from './database.ts';

type Db = Kysely<Database>;

/** Expired keys are ignored at once and deleted by the periodic purge. */
const expired = (hours: number) => sql<Date>`now() - make_interval(hours => ${hours})`;

/**
 * Serialises the requests carrying one key until the end of the transaction, so that the second
 * of two simultaneous requests waits for the first to commit its answer, then finds it.
 */
export async function lockIdempotencyKey(trx: Db, scope: string, key: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`idempotency ${scope} ${key}`}, 0))`.execute(trx);
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
 * Stores the answer for a key. An expired row with the same key, not purged yet, is replaced; a
 * live one is never overwritten (the caller holds the key's lock and found none), so the insert
 * failing to return a row means a bug, and the transaction is rolled back.
 */
export async function insertIdempotencyKey(db: Db, row: NewIdempotencyKey, ttlHours: number): Promise<void> {
  await db
    .insertInto('idempotency_keys')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['scope', 'key'])
        .doUpdateSet((eb) => ({
          fingerprint: eb.ref('excluded.fingerprint'),
          response_status: eb.ref('excluded.response_status'),
          response_body: eb.ref('excluded.response_body'),
          created_at: sql<Date>`now()`,
        }))
        .where('idempotency_keys.created_at', '<=', expired(ttlHours)),
    )
    .returning('key')
    .executeTakeFirstOrThrow();
}

/** Deletes the keys older than `ttlHours` (a range scan of the created_at index); returns how many. */
export async function deleteExpiredIdempotencyKeys(db: Db, ttlHours: number): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('created_at', '<=', expired(ttlHours)).executeTakeFirst();
  return Number(result.numDeletedRows);
}
