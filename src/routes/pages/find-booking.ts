/**
 * /booking/find: "Find my booking" (issue 22), the page, and its form posted without JavaScript.
 * The post does what POST /v1/find-booking does (the same service, budget and answer); an address
 * that is not one brings the form back with the message beside the field, anything else redirects
 * (POST/redirect/GET) to the page showing the one answer, whatever the address.
 *
 * Nothing is stored for the visitor, so the form needs no submission token: posting it twice
 * sends at most the per-address cap of e-mails.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { FIND_BOOKING_PATH } from '../../domain/find-booking-rules.ts';
import { HONEYPOT_FIELD } from '../../domain/forms.ts';
import { formError } from '../../errors.ts';
import { sendBookingLinks } from '../../services/find-booking.service.ts';
import type { FindBookingState } from '#client/page-state.ts';
import { formPostOnly } from './form-post.ts';

const FindBookingForm = Type.Object(
  {
    // Longer than an address may be, so that a long one gets the field's own message in the page.
    email: Type.Optional(Type.String({ maxLength: 1000 })),
    [HONEYPOT_FIELD]: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);

/** Where the answer is shown: the page, scrolled to its heading. */
const ANSWERED = `${FIND_BOOKING_PATH}?sent=1#find-title`;

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    FIND_BOOKING_PATH,
    { schema: { hide: true, querystring: Type.Object({ sent: Type.Optional(Type.String({ maxLength: 5 })) }) } },
    (request, reply) => {
      const sent = request.query.sent === '1';
      const state: FindBookingState = { email: '', errors: [], formError: null, sent };
      // The same for everyone but the form guard's cookie: the lean path sends it (src/direct-pages.ts).
      return reply.page({ state, cacheKey: sent ? 'sent' : '', setCookie: app.formGuard.cookie, everyone: true });
    },
  );

  app.post(
    FIND_BOOKING_PATH,
    { config: { limit: 'findBooking' }, onRequest: formPostOnly, schema: { hide: true, body: FindBookingForm } },
    async (request, reply) => {
      const { email = '', [HONEYPOT_FIELD]: honeypot } = request.body;
      try {
        app.formGuard.check(request, reply, honeypot);
        const outcome = await sendBookingLinks(app.db, { email }, app.mail, app.config.findBooking);
        request.log.info({ outcome }, 'find my booking (form post)');
        return reply.redirect(ANSWERED, 303);
      } catch (caught) {
        const error = formError(caught);
        if (!error) throw caught;
        const state: FindBookingState = {
          email,
          errors: error.errors,
          formError: error.errors.length === 0 ? error.message : null,
          sent: false,
        };
        return reply.headers(error.headers).page({ status: error.statusCode, state, cacheKey: false });
      }
    },
  );
};

export default route;
