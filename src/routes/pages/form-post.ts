/**
 * The no-JavaScript forms take what an HTML form sends (application/x-www-form-urlencoded), and
 * nothing else: a JSON body belongs to /v1, whose answers are JSON. Refused before the body is
 * read.
 */
import type { onRequestHookHandler } from 'fastify';
import { AppError } from '../../errors.ts';

const FORM = 'application/x-www-form-urlencoded';

export const formPostOnly: onRequestHookHandler = (request, _reply, done) => {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === FORM) return done();
  done(new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', `Unsupported content type: send ${FORM}`));
};
