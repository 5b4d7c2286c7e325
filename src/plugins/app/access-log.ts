/**
 * One access line per request, written once the answer is sent: method, path, status, time and
 * (from the request's logger) the request id. Fastify's own two lines per request are switched
 * off in src/app.ts: they carried the full URL, whose query string holds staff searches (names,
 * e-mail addresses), and they cost about a quarter of a cached page's throughput.
 */
import fp from 'fastify-plugin';
import pino from 'pino';
// The path without its query string (searches and filters can name customers), and a manage
// page's token masked by the route that answered, whatever the path's encoding.
import { loggedPath } from '../../logger.ts';

export default fp(
  async (app) => {
    const mode = app.config.logRequests;
    const infoEnabled = (pino.levels.values[app.log.level] ?? Infinity) <= pino.levels.values.info!;
    if (mode === 'none' || !infoEnabled) return;
    const minimumStatus = mode === 'errors' ? 400 : 0;
    // The lean path's answers (200 and 304 of cached pages) are logged by it, to the same logger.
    if (mode === 'all') app.directPages.logTo(app.log);
    // A callback hook, not an async one: it runs on every request.
    app.addHook('onResponse', (request, reply, done) => {
      const status = reply.statusCode;
      if (status >= minimumStatus) {
        request.log.info({ method: request.method, path: loggedPath(request), status, ms: Math.round(reply.elapsedTime * 10) / 10 }, 'request');
      }
      done();
    });
  },
  { name: 'access-log', dependencies: ['config'] },
);
