/**
 * /dashboard/invitation/{token} (issue 22): a new member of staff sets their password through the
 * single-use link the owner's invitation e-mailed them. The form posts `password` and
 * `confirmPassword` URL-encoded to the same address and works without JavaScript; a used, expired
 * or withdrawn link gets a page that says so (410). Like the manage page, every answer is
 * `no-store` with `Referrer-Policy: same-origin`, so the token leaves no trace in caches or
 * referrers.
 */
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { INVITATION_PAGE_PATH, INVITATION_PATH_PREFIX, STAFF_MEMBER_LIMITS } from '../../domain/staff-members.ts';
import { formError } from '../../errors.ts';
import { acceptInvitation, lookUpInvitation } from '../../services/staff-members.service.ts';
import type { InvitationState } from '#client/page-state.ts';
import { formPostOnly } from './form-post.ts';

const TokenParams = Type.Object({ token: Type.String({ maxLength: 100 }) });

const InvitationForm = Type.Object(
  {
    password: Type.Optional(Type.String({ maxLength: STAFF_MEMBER_LIMITS.password })),
    confirmPassword: Type.Optional(Type.String({ maxLength: STAFF_MEMBER_LIMITS.password })),
  },
  { additionalProperties: false },
);

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith(INVITATION_PATH_PREFIX)) reply.header('cache-control', 'no-store').header('referrer-policy', 'same-origin');
    return payload;
  });

  function page(reply: FastifyReply, status: number, state: InvitationState) {
    return reply.page({ path: INVITATION_PAGE_PATH, status, state, cacheKey: false });
  }

  const gone = (token: string): InvitationState => ({ status: 'gone', name: '', email: '', token, errors: [] });

  app.get(`${INVITATION_PATH_PREFIX}:token`, { schema: { hide: true, params: TokenParams } }, async (request, reply) => {
    app.database.assertReady();
    const { token } = request.params;
    const found = await lookUpInvitation(app.db, token, app.now());
    if (found.status === 'gone') return page(reply, 410, gone(token));
    return page(reply, 200, { status: 'open', name: found.name, email: found.email, token, errors: [] });
  });

  app.post(
    `${INVITATION_PATH_PREFIX}:token`,
    { config: { limit: 'login' }, onRequest: formPostOnly, schema: { hide: true, params: TokenParams, body: InvitationForm } },
    async (request, reply) => {
      app.database.assertReady();
      const { token } = request.params;
      const { password = '', confirmPassword = '' } = request.body;
      try {
        const { email } = await acceptInvitation(app.db, token, { password, confirmPassword }, app.now());
        request.log.info('staff invitation accepted');
        return page(reply, 200, { status: 'done', name: '', email, token: '', errors: [] });
      } catch (caught) {
        const error = formError(caught);
        if (!error) throw caught;
        if (error.statusCode === 410) return page(reply, 410, gone(token));
        const found = await lookUpInvitation(app.db, token, app.now());
        if (found.status === 'gone') return page(reply, 410, gone(token));
        const errors = error.errors.length > 0 ? error.errors : [{ field: 'password', message: error.message }];
        return page(reply, error.statusCode, { status: 'open', name: found.name, email: found.email, token, errors });
      }
    },
  );
};

export default route;
