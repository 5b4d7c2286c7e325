/** The public pages: each path answers with its server-rendered document. */
import type { FastifyPluginAsync } from 'fastify';
import { PAGES } from '../../client/routes.ts';

const pageRoutes: FastifyPluginAsync = async (app) => {
  for (const page of PAGES) {
    app.get(page.path, { schema: { hide: true } }, (_request, reply) => reply.page());
  }
};

export default pageRoutes;
