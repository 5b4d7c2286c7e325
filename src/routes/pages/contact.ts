/**
 * /contact: the page, and the form posted without JavaScript. The post is checked with the same
 * rules as POST /v1/contact-us-form; on errors the page comes back with the messages and the
 * visitor's values, on success the browser is redirected (POST/redirect/GET) to the thank-you view.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ContactInput } from '../../domain/contact-rules.ts';
import { HONEYPOT_FIELD } from '../../domain/forms.ts';
import { formError } from '../../errors.ts';
import { receiveContactMessage } from '../../services/contact.service.ts';
import type { ContactState } from '#client/page-state.ts';
import { ContactBody } from '../v1/contact-us-form.ts';

const ContactForm = Type.Object(
  { ...ContactBody.properties, [HONEYPOT_FIELD]: Type.Optional(Type.String({ maxLength: 200 })) },
  { additionalProperties: false },
);

const EMPTY: ContactInput = { name: '', email: '', phone: '', message: '' };

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/contact',
    {
      schema: {
        hide: true,
        // email: the footer's newsletter box without JavaScript; only its presence counts (not kept, not shown).
        querystring: Type.Object({ sent: Type.Optional(Type.String({ maxLength: 5 })), email: Type.Optional(Type.Unknown()) }),
      },
    },
    (request, reply) => {
      const sent = request.query.sent === '1';
      const newsletter = request.query.email !== undefined;
      app.formGuard.issue(reply);
      const state: ContactState = { values: EMPTY, errors: [], formError: null, sent, newsletter };
      return reply.page({ state, cacheKey: [sent && 'sent', newsletter && 'newsletter'].filter(Boolean).join('+') });
    },
  );

  app.post(
    '/contact',
    { config: { limit: 'contact' }, schema: { hide: true, body: ContactForm } },
    async (request, reply) => {
      const { [HONEYPOT_FIELD]: honeypot, ...fields } = request.body;
      const values: ContactInput = { ...EMPTY, ...fields };
      try {
        app.formGuard.check(request, reply, honeypot);
        const saved = await receiveContactMessage(app.db, values);
        request.log.info({ contactMessageId: saved.id }, 'contact message received (form post)');
        return reply.redirect('/contact?sent=1#send-message', 303);
      } catch (caught) {
        const error = formError(caught);
        if (!error) throw caught;
        const state: ContactState = {
          values,
          errors: error.errors,
          formError: error.errors.length === 0 ? error.message : null,
          sent: false,
          newsletter: false,
        };
        return reply.headers(error.headers).page({ status: error.statusCode, state, cacheKey: false });
      }
    },
  );
};

export default route;
