/**
 * The staff route tree. Its one guard runs before every route registered here, so no staff
 * handler can forget to check the session; each route's OpenAPI entry names the cookie it needs.
 */
import type { FastifyPluginAsync } from 'fastify';
import { SESSION_SECURITY } from '../../../plugins/external/swagger.ts';
import getAllBooking from './getall-booking.ts';

const staffRoutes: FastifyPluginAsync = async (app) => {
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, security: [{ [SESSION_SECURITY]: [] }] };
  });
  app.addHook('onRequest', app.requireStaff);
  await app.register(getAllBooking);
};

export default staffRoutes;
