/**
 * The public pages. Pages whose HTML depends only on their path are served straight from the
 * render cache; home, booking, contact, a booking's manage page and the owner's Insights read their query string or
 * take a form post (files beside this one).
 */
import type { FastifyPluginAsync } from 'fastify';
import { PAGES } from '#client/routes.ts';
import bookingPage from './booking.ts';
import calendarFeed from './calendar.ts';
import contactPage from './contact.ts';
import dashboardPage from './dashboard.ts';
import findBookingPage from './find-booking.ts';
import homePage from './home.ts';
import insightsPage from './insights.ts';
import invitationPage from './invitation.ts';
import managePage from './manage.ts';
import receiptPage from './receipt.ts';
import seoFiles from './seo.ts';

const WITH_OWN_ROUTES = new Set(['/', '/booking', '/booking/manage', '/booking/plan', '/booking/receipt', '/booking/find', '/contact', '/dashboard', '/dashboard/insights', '/dashboard/invitation']);

const pageRoutes: FastifyPluginAsync = async (app) => {
  for (const page of PAGES) {
    if (WITH_OWN_ROUTES.has(page.path)) continue;
    app.get(page.path, { schema: { hide: true } }, (_request, reply) => reply.page({ everyone: true }));
  }
  await app.register(homePage);
  await app.register(bookingPage);
  await app.register(contactPage);
  await app.register(managePage);
  await app.register(receiptPage);
  await app.register(findBookingPage);
  await app.register(dashboardPage);
  await app.register(invitationPage);
  await app.register(insightsPage);
  await app.register(seoFiles);
  await app.register(calendarFeed);
};

export default pageRoutes;
