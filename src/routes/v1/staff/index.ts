/**
 * The staff route tree. Its one guard runs before every route registered here, so no staff
 * handler can forget to check the session; each route's OpenAPI entry names the cookie it needs.
 */
import type { FastifyPluginAsync } from 'fastify';
import { SESSION_SECURITY } from '../../../plugins/external/swagger.ts';
import { AppError } from '../../../errors.ts';
import bookingServices from './booking-services.ts';
import bookingStatus from './booking-status.ts';
import booking from './booking.ts';
import bookingsExport from './bookings-export.ts';
import bookingsUpcoming from './bookings-upcoming.ts';
import bookings from './bookings.ts';
import contactMessages from './contact-messages.ts';
import getAllBooking from './getall-booking.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * State changes must come from our own pages. The session cookie is SameSite=Strict and writes
 * must be JSON already; on top, a browser that says the request is cross-site (Sec-Fetch-Site)
 * or from another origin (Origin) is refused. Clients that send neither (curl, scripts) are not
 * browsers and cannot be made to act by another site.
 */
export function assertSameOrigin(headers: Record<string, string | string[] | undefined>): void {
  const site = headers['sec-fetch-site'];
  const origin = headers.origin;
  const host = headers.host;
  const crossSite = typeof site === 'string' && site !== 'same-origin' && site !== 'none';
  const foreignOrigin = typeof origin === 'string' && originHost(origin) !== withoutDefaultPort(host);
  if (crossSite || foreignOrigin) {
    throw new AppError(403, 'CROSS_SITE_REQUEST', 'This change must be made from the dashboard itself');
  }
}

/** URL drops a scheme's default port from `host`; the Host header may keep it. */
function withoutDefaultPort(host: string | string[] | undefined): string | undefined {
  return typeof host === 'string' ? host.replace(/:(80|443)$/, '') : undefined;
}

function originHost(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

const staffRoutes: FastifyPluginAsync = async (app) => {
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, security: [{ [SESSION_SECURITY]: [] }] };
  });
  app.addHook('onRequest', async (request) => {
    if (!SAFE_METHODS.has(request.method)) assertSameOrigin(request.headers);
  });
  app.addHook('onRequest', app.requireStaff);
  await app.register(getAllBooking);
  await app.register(bookings);
  await app.register(bookingServices);
  await app.register(bookingsUpcoming);
  await app.register(bookingsExport);
  await app.register(booking);
  await app.register(bookingStatus);
  await app.register(contactMessages);
};

export default staffRoutes;
