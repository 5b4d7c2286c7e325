/** Liveness (/healthz: the process answers) and readiness (/readyz: the database answers). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';

const Status = Type.Object({ status: Type.String() });

const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/healthz', { schema: { hide: true, response: { 200: Status } } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true, response: { 200: Status, 503: Status } } }, async (_request, reply) => {
    const ready = app.database.ready && (await app.database.ping());
    reply.header('cache-control', 'no-store');
    return ready ? { status: 'ok' } : reply.code(503).send({ status: 'database unavailable' });
  });
};

export default healthRoutes;
