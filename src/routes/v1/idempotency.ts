/**
 * The Idempotency-Key header of the public form endpoints, and answering a request through it:
 * the first answer is given and stored; a retry with the same key and body gets it again, marked
 * `Idempotent-Replayed: true`.
 */
import type { FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { Database } from '../../db/database.ts';
import { answerOnce, IDEMPOTENCY_KEY_TTL_HOURS, type Answer } from '../../services/idempotency.service.ts';

export const REPLAYED_HEADER = 'idempotent-replayed';

/** A key or a form's submission token: 1 to 255 visible ASCII characters (no spaces). */
export const submissionKey = (description: string) =>
  Type.String({
    pattern: '^[\\x21-\\x7E]{1,255}$',
    errorMessage: 'Must be 1 to 255 visible ASCII characters (letters, digits, punctuation; no spaces)',
    description,
  });

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    submissionKey(
      `Makes a retry safe: the same key with the same body within ${IDEMPOTENCY_KEY_TTL_HOURS} hours gets the first answer again ` +
      '(same status and body, with `Idempotent-Replayed: true`) and stores nothing more, also when both arrive at once; ' +
      'the same key with another body is a 422. Send a new random key (a UUID) for each new submission.',
    ),
  ),
});

/** Answers with `produce`, or with the stored answer when the request's key was answered before. */
export async function sendOnce<T, Reply extends FastifyReply>(
  reply: Reply,
  db: Kysely<Database>,
  request: { scope: string; payload: unknown },
  produce: (trx: Kysely<Database>) => Promise<Answer<T>>,
): Promise<Reply> {
  const key = reply.request.headers['idempotency-key'];
  const answer = await answerOnce(db, { ...request, key: typeof key === 'string' ? key : undefined }, produce);
  if (answer.replayed) {
    reply.request.log.info({ scope: request.scope }, 'answer replayed for an idempotency key');
    reply.header(REPLAYED_HEADER, 'true');
  }
  // Sent as the route's own answer would be, through its response schema.
  (reply as FastifyReply).code(answer.status).send(answer.body);
  return reply;
}
