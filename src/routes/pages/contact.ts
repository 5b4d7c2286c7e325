/**
 * /contact: the page, and the form posted without JavaScript. The post is checked with the same
 * rules as POST /v1/contact-us-form; on errors the page comes back with the messages and the
 * visitor's values, on success the browser is redirected (POST/redirect/GET) to the thank-you view.
 *
 * The post has a submission token, so that the same form posted twice stores one message and gets
 * the same redirect. The token must differ for every page view, and a token in the HTML would make
 * every answer's body its own (compressed anew for each view, about ten times a cached page's
 * cost). So it travels in the form guard's cookie, made for each answer with the time the form was
 * served (src/plugins/app/form-guard.ts): the page itself is the same for everyone, cached,
 * compressed once and sent from the lean path (src/direct-pages.ts). A form posted with a
 * `submission` field (a page served before this change) uses that token instead.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ContactInput } from '../../domain/contact-rules.ts';
import { HONEYPOT_FIELD } from '../../domain/forms.ts';
import { MESSAGES } from '../../domain/messages.ts';
import { formError } from '../../errors.ts';
import { receiveContactMessage } from '../../services/contact.service.ts';
import { answerOnce } from '../../services/idempotency.service.ts';
import type { ContactState } from '#client/page-state.ts';
import { ContactBody } from '../v1/contact-us-form.ts';
import { submissionKey } from '../v1/idempotency.ts';
import { formPostOnly } from './form-post.ts';

const EMPTY: ContactInput = { name: '', email: '', phone: '', message: '' };

const ContactForm = Type.Object(
  {
    ...ContactBody.properties,
    [HONEYPOT_FIELD]: Type.Optional(Type.String({ maxLength: 200 })),
    submission: Type.Optional(submissionKey("The form's submission token")),
  },
  { additionalProperties: false },
);

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
      const state: ContactState = { values: EMPTY, errors: [], formError: null, sent, newsletter, submission: null };
      return reply.page({
        state,
        cacheKey: [sent && 'sent', newsletter && 'newsletter'].filter(Boolean).join('+'),
        setCookie: app.formGuard.cookie,
        everyone: true,
      });
    },
  );

  app.post(
    '/contact',
    { config: { limit: 'contact' }, onRequest: formPostOnly, schema: { hide: true, body: ContactForm } },
    async (request, reply) => {
      const { [HONEYPOT_FIELD]: honeypot, submission, ...fields } = request.body;
      const values: ContactInput = { ...EMPTY, ...fields };
      try {
        app.formGuard.check(request, reply, honeypot);
        const key = submission ?? app.formGuard.tokenOf(request);
        const answer = await answerOnce(app.db, { scope: 'contact-form', key, payload: values }, async (trx) => {
          const saved = await receiveContactMessage(trx, values, app.mail);
          request.log.info({ contactMessageId: saved.id }, 'contact message received (form post)');
          return { status: 303, body: { location: '/contact?sent=1#send-message' } };
        });
        if (answer.replayed) request.log.info('contact form posted again; the first answer is repeated');
        return reply.redirect(answer.body.location, answer.status);
      } catch (caught) {
        const error = formError(caught);
        if (!error) throw caught;
        // The token was used for another message (the page kept by the browser after sending, then
        // changed): this one is not stored until the visitor sends it again, with a new token (a
        // new cookie, whose time to fill starts now).
        const reused = error.code === 'IDEMPOTENCY_KEY_REUSED';
        if (reused) app.formGuard.issue(reply);
        const state: ContactState = {
          values,
          errors: reused ? [] : error.errors,
          formError: reused ? MESSAGES.submissionChanged : error.errors.length === 0 ? error.message : null,
          sent: false,
          newsletter: false,
          // A token the form posted is kept while nothing was stored with it; else the cookie's.
          submission: reused ? null : (submission ?? null),
        };
        return reply.headers(error.headers).page({ status: error.statusCode, state, cacheKey: false });
      }
    },
  );
};

export default route;
