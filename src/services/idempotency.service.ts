/**
 * Idempotent submissions. A request carrying a key (the API's Idempotency-Key header, a form's
 * hidden submission token) is answered once: the answer is stored with the key in the same
 * transaction as the row it reports, and the same key with the same body gets that answer again,
 * never a second row. The same key with another body is refused (422).
 *
 * The key is claimed by the transaction's first statement, which inserts its row (unanswered until
 * the answer is written, before the commit: migrations/025), so a second request sent at the same
 * moment waits on the key's unique index for the first to commit and then finds its answer (read
 * committed: the next statement sees what was committed before it started).
 *
 * Only successful answers are stored. A failure thrown by the work (invalid input, a full or
 * closed slot, a lost database) rolls everything back, the key included, so a retry with the same
 * key is processed afresh: with the input corrected, or once a place has become free. Replaying
 * a 409 would keep a customer from a slot that has since opened, for no gain: the 409 wrote
 * nothing, so processing the retry cannot duplicate anything.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { answerIdempotencyKey, claimIdempotencyKey, deleteExpiredIdempotencyKeys, findIdempotencyKey } from '../db/idempotency-keys.repository.ts';
import { idempotencyKeyReused } from '../errors.ts';

/** How long a key is remembered. */
export const IDEMPOTENCY_KEY_TTL_HOURS = 24;

/** What a route answered: a status and a JSON body (for a form post, where it redirected). */
export interface Answer<T> {
  status: number;
  body: T;
}

export interface IdempotentAnswer<T> extends Answer<T> {
  /** True when this is the stored answer to an earlier request with the same key. */
  replayed: boolean;
}

export interface IdempotentRequest {
  /** The route the key belongs to; keys of different routes never meet. */
  scope: string;
  /** Undefined: the request has no key and is simply processed. */
  key: string | undefined;
  /** The validated body; its canonical JSON tells a retry from another request. */
  payload: unknown;
}

/** SHA-256 of the canonical JSON (RFC 8785): key order and spacing do not change it. */
export function fingerprintOf(payload: unknown): string {
  return createHash('sha256')
    .update(canonicalize(payload) ?? '')
    .digest('hex');
}

/**
 * Answers `request` with `produce`, at most once per key. `produce` gets the transaction to do
 * its writes in (the services run in a transaction they are given) and returns the answer to
 * store; it throws to fail, and then nothing is stored.
 */
export async function answerOnce<T>(
  db: Kysely<Database>,
  request: IdempotentRequest,
  produce: (trx: Kysely<Database>) => Promise<Answer<T>>,
): Promise<IdempotentAnswer<T>> {
  const { scope, key } = request;
  if (key === undefined) return { ...(await produce(db)), replayed: false };
  // A request whose key is being answered in this process right now waits here for that answer,
  // not for a database connection: twenty simultaneous retries would otherwise each hold a pooled
  // connection while they wait on the key's lock, and those behind them could time out waiting
  // for the pool (503). Once the first has settled they are answered from the stored row (or, if
  // it failed, processed afresh) as below. Across instances the key's lock still serialises them.
  const flightKey = `${scope}\u0000${key}`;
  const inFlight = IN_FLIGHT.get(flightKey);
  if (inFlight) {
    await inFlight;
    return answerOnce(db, request, produce);
  }
  const flight = answerInTransaction(db, { ...request, key }, produce);
  const settled = flight.then(
    () => undefined,
    () => undefined,
  );
  IN_FLIGHT.set(flightKey, settled);
  try {
    return await flight;
  } finally {
    if (IN_FLIGHT.get(flightKey) === settled) IN_FLIGHT.delete(flightKey);
  }
}

/** The keys this process is answering now, each with a promise that settles when it has. */
const IN_FLIGHT = new Map<string, Promise<void>>();

async function answerInTransaction<T>(
  db: Kysely<Database>,
  request: IdempotentRequest & { key: string },
  produce: (trx: Kysely<Database>) => Promise<Answer<T>>,
): Promise<IdempotentAnswer<T>> {
  const { scope, key } = request;
  const fingerprint = fingerprintOf(request.payload);
  return db.transaction().execute(async (trx) => {
    // Claimed, or answered already. A stored answer can expire (and be purged) between the claim
    // that found it live and its read: the key is then claimed again.
    for (let attempt = 1; !(await claimIdempotencyKey(trx, { scope, key, fingerprint }, IDEMPOTENCY_KEY_TTL_HOURS)); attempt++) {
      const stored = await findIdempotencyKey(trx, scope, key, IDEMPOTENCY_KEY_TTL_HOURS);
      if (stored) {
        if (stored.fingerprint !== fingerprint) throw idempotencyKeyReused();
        return { status: stored.response_status!, body: stored.response_body as T, replayed: true };
      }
      if (attempt === CLAIM_ATTEMPTS) throw new Error(`Idempotency key ${scope} ${key}: neither claimed nor answered in ${CLAIM_ATTEMPTS} attempts`);
    }
    const answer = await produce(trx);
    await answerIdempotencyKey(trx, scope, key, { response_status: answer.status, response_body: JSON.stringify(answer.body) });
    return { ...answer, replayed: false };
  });
}

/** A key found live, then gone by its read, is claimed again; twice in a row cannot happen within a day's TTL. */
const CLAIM_ATTEMPTS = 3;

/** Deletes the expired keys; returns how many. */
export function purgeExpiredKeys(db: Kysely<Database>): Promise<number> {
  return deleteExpiredIdempotencyKeys(db, IDEMPOTENCY_KEY_TTL_HOURS);
}
