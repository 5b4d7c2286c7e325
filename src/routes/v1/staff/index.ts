/**
 * The staff route tree. Its one guard runs before every route registered here, so no staff
 * handler can forget to check the session; each route's OpenAPI entry names the cookie it needs.
 */
import type { FastifyPluginAsync } from 'fastify';
import { SESSION_SECURITY } from '../../../plugins/external/swagger.ts';
import availabilityStaff from './availability-staff.ts';
import backups from './backups.ts';
import bookingCompletion from './booking-completion.ts';
import bookingCreate from './booking-create.ts';
import bookingEdit from './booking-edit.ts';
import bookingMove from './booking-move.ts';
import bookingNotes from './booking-notes.ts';
import bookingRelease from './booking-release.ts';
import bookingServices from './booking-services.ts';
import bookingStatus from './booking-status.ts';
import booking from './booking.ts';
import bookingsExport from './bookings-export.ts';
import bookingsUpcoming from './bookings-upcoming.ts';
import bookings from './bookings.ts';
import closures from './closures.ts';
import contactMessages from './contact-messages.ts';
import customerPrivacy from './customer-privacy.ts';
import customers from './customers.ts';
import emails from './emails.ts';
import getAllBooking from './getall-booking.ts';
import insights from './insights.ts';
import plans from './plans.ts';
import calendarFeeds from './calendar-feeds.ts';
import webhooks from './webhooks.ts';
import resources from './resources.ts';
import schedule from './schedule.ts';
import serviceZones from './service-zones.ts';
import staffMembers from './staff-members.ts';
import takings from './takings.ts';
import weatherDays from './weather-days.ts';
import today from './today.ts';
import waitlist from './waitlist.ts';
import weeklyClosedDays from './weekly-closed-days.ts';
import workingHours from './working-hours.ts';

const staffRoutes: FastifyPluginAsync = async (app) => {
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, security: [{ [SESSION_SECURITY]: [] }] };
  });
  app.addHook('onRequest', (_request, reply, done) => {
    // Personal data: never kept by a browser or a proxy cache, not even the 401.
    reply.header('cache-control', 'no-store');
    done();
  });
  app.addHook('onRequest', app.requireStaff);
  await app.register(getAllBooking);
  await app.register(bookings);
  await app.register(bookingServices);
  await app.register(bookingsUpcoming);
  await app.register(bookingsExport);
  await app.register(booking);
  await app.register(bookingStatus);
  await app.register(bookingCreate);
  await app.register(bookingEdit);
  await app.register(availabilityStaff);
  await app.register(bookingCompletion);
  await app.register(bookingMove);
  await app.register(bookingNotes);
  await app.register(today);
  await app.register(bookingRelease);
  await app.register(contactMessages);
  await app.register(customers);
  await app.register(customerPrivacy);
  await app.register(closures);
  await app.register(weeklyClosedDays);
  await app.register(resources);
  await app.register(workingHours);
  await app.register(schedule);
  await app.register(serviceZones);
  await app.register(takings);
  await app.register(weatherDays);
  await app.register(emails);
  await app.register(staffMembers);
  await app.register(backups);
  await app.register(plans);
  await app.register(calendarFeeds);
  await app.register(waitlist);
  await app.register(webhooks);
  await app.register(insights);
};

export default staffRoutes;
