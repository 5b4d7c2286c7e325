/**
 * The JSON API under /v1. Everything here needs the database, so one hook answers 503 at once
 * while it is unreachable; writes must be JSON, which no cross-site HTML form can send.
 */
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../errors.ts';
import apiDocs from '../../plugins/external/swagger-ui.ts';
import availability from './availability.ts';
import catalogue from './catalogue.ts';
import contactUsForm from './contact-us-form.ts';
import findBooking from './find-booking.ts';
import createBooking from './create-booking.ts';
import login from './auth/login.ts';
import logout from './auth/logout.ts';
import quote from './quote.ts';
import serviceArea from './service-area.ts';
import staffRoutes from './staff/index.ts';
import waitlist from './waitlist.ts';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const v1Routes: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', async (request) => {
    if (BODY_METHODS.has(request.method) && hasBody(request.headers) && !isJson(request.headers['content-type'])) {
      throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported content type: send application/json');
    }
  });
  // The API reference (/v1/docs) is static and answers without the database.
  app.addHook('preHandler', async (request) => {
    if (!request.routeOptions.config.apiDocs) app.database.assertReady();
  });

  await app.register(availability);
  await app.register(catalogue);
  await app.register(contactUsForm);
  await app.register(findBooking);
  await app.register(createBooking);
  await app.register(quote);
  await app.register(serviceArea);
  await app.register(waitlist);
  await app.register(login);
  await app.register(logout);
  await app.register(staffRoutes);
  // The browsable API reference, /v1/docs (Swagger UI served from npm, under the site's CSP).
  await app.register(apiDocs, { indexPrefix: '/v1' });
};

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
}

function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && /^application\/json\s*(;|$)/i.test(contentType);
}

export default v1Routes;
