/** POST /v1/auth/logout: ends the session on the server and clears the cookie. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../schemas.ts';

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/auth/logout',
    {
      config: { public: true, limit: 'logout' },
      schema: { operationId: 'logout', security: [], summary: 'Sign out', tags: ['staff'], response: { 204: Type.Null(), ...errorResponses } },
    },
    async (request, reply) => {
      await app.staffAuth.logout(request, reply);
      return reply.code(204).send(null);
    },
  );
};

export default route;
