/** The OpenAPI document, generated from the routes' TypeBox schemas, served at /v1/openapi.json. */
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import { sessionCookieName } from '../app/auth.ts';

export const SESSION_SECURITY = 'staffSession';

export default fp(async (app) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${app.config.business.name} API`,
        description: 'Bookings and contact messages for the public site; staff endpoints need a session cookie from POST /v1/auth/login.',
        version: '1.0.0',
      },
      components: {
        securitySchemes: {
          [SESSION_SECURITY]: { type: 'apiKey', in: 'cookie', name: sessionCookieName(app.config.isProduction) },
        },
      },
    },
  });
}, { name: 'swagger', dependencies: ['config'] });
