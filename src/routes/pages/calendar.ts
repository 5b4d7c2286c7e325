/**
 * /calendar/{token}.ics (issue 44): a van's or bay's private calendar feed, for a calendar app to
 * subscribe to (src/services/calendar-feeds.service.ts). Unknown, revoked or disabled: 404. The
 * answer carries a strong ETag of its bytes (a calendar polling an unchanged feed gets a 304),
 * `Cache-Control: private` (no shared cache keeps it), `Referrer-Policy: same-origin` as the other secret addresses, no indexing; the token never
 * reaches a log line (the route's parameter is masked, src/logger.ts).
 */
import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { feedCalendar } from '../../services/calendar-feeds.service.ts';

const FileParams = Type.Object({ token: Type.String({ maxLength: 100 }) });

/** Whether an If-None-Match header names this ETag (a list, or `*`). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.trim() === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/calendar/:token', { schema: { hide: true, params: FileParams } }, async (request, reply) => {
    app.database.assertReady();
    const ics = await feedCalendar(app.db, request.params.token, { now: app.now(), origin: app.mail.origin, business: app.config.business });
    reply.header('cache-control', 'private, no-cache').header('referrer-policy', 'same-origin').header('x-robots-tag', 'noindex');
    if (ics === undefined) return reply.code(404).type('text/plain; charset=utf-8').send('No such calendar');
    const etag = `"${createHash('sha256').update(ics).digest('base64url')}"`;
    reply.header('etag', etag);
    if (matches(request.headers['if-none-match'], etag)) return reply.code(304).send();
    return reply.type('text/calendar; charset=utf-8').send(ics);
  });
};

export default route;
