/**
 * /contact: the page, and the form posted without JavaScript. The post is checked with the same
 * rules as POST /v1/contact-us-form; on errors the page comes back with the messages and the
 * visitor's values, on success the browser is redirected (POST/redirect/GET) to the thank-you view.
 *
 * The form carries a submission token, so that the same form posted twice stores one message and
 * gets the same redirect. The token must differ for every page view: baked into the cached page it
 * would be shared by every visitor (and by every visit of one browser, whose revalidated copy
 * keeps it), merging their messages. So the page is rendered once with a placeholder, which each
 * answer replaces with a new token (PageOptions.fill), and no answer is stored by the browser.
 * Rendering per request would do too, at about ten times the cost of a page view.
 */
import { randomUUID } from 'node:crypto';
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

/** Where the cached page's submission token goes; replaced in every answer. */
const TOKEN_PLACEHOLDER = '__SUBMISSION_TOKEN__';

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
      app.formGuard.issue(reply);
      const state: ContactState = { values: EMPTY, errors: [], formError: null, sent, newsletter, submission: TOKEN_PLACEHOLDER };
      return reply.page({
        state,
        cacheKey: [sent && 'sent', newsletter && 'newsletter'].filter(Boolean).join('+'),
        fill: { [TOKEN_PLACEHOLDER]: randomUUID() },
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
        const answer = await answerOnce(app.db, { scope: 'contact-form', key: submission, payload: values }, async (trx) => {
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
        // changed): this one is not stored until the visitor sends it again, with a new token.
        const reused = error.code === 'IDEMPOTENCY_KEY_REUSED';
        const state: ContactState = {
          values,
          errors: reused ? [] : error.errors,
          formError: reused ? MESSAGES.submissionChanged : error.errors.length === 0 ? error.message : null,
          sent: false,
          newsletter: false,
          // Kept while nothing was stored with it.
          submission: reused || !submission ? randomUUID() : submission,
        };
        return reply.headers(error.headers).page({ status: error.statusCode, state, cacheKey: false });
      }
    },
  );
};

export default route;
