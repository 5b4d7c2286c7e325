/**
 * /dashboard: the staff dashboard page, and its sign-in and sign-out forms (which work without
 * JavaScript: form posts, checked to come from this site, answered with a redirect).
 *
 * DASHBOARD_AUTH=session shows a sign-in form to a browser without a session; =prompt serves the
 * original's gate, a browser prompt whose answer is checked by POST /v1/auth/login. Either way the
 * server decides, and the staff API stays behind the session.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { SignInBody, signInRefusal } from '../v1/auth/login.ts';
import { toFieldErrors } from '../../validation.ts';
import { SCHEDULE_SHAPE } from '../../domain/schedule.ts';
import type { DashboardState } from '#client/page-state.ts';

const route: FastifyPluginAsyncTypebox = async (app) => {
  const mode = app.config.dashboardAuth;

  async function stateFor(request: FastifyRequest, signInEmail = ''): Promise<DashboardState> {
    app.database.assertReady();
    const staff = await app.staffAuth.signedInStaff(request);
    return { mode, signedIn: staff !== undefined, staffName: staff?.name ?? null, staffRole: staff?.role ?? null, staffAccount: Boolean(staff?.memberId), signInEmail, signInError: null, schedule: SCHEDULE_SHAPE };
  }

  app.get(
    '/dashboard',
    // ?email= fills the sign-in form's address (the invitation page's "Sign in" link).
    { schema: { hide: true, querystring: Type.Object({ email: Type.Optional(Type.String({ maxLength: 254 })) }) } },
    async (request, reply) =>
      // Depends on the visitor's cookie: rendered for this request alone, never cached.
      reply.page({ state: await stateFor(request, request.query.email ?? ''), cacheKey: false }),
  );

  app.post(
    '/dashboard/login',
    {
      config: { limit: 'login' },
      // POST /v1/auth/login's schema: a name that door refuses is refused here too, with the same
      // message, shown on the page instead of as JSON.
      attachValidation: true,
      schema: { hide: true, body: SignInBody },
    },
    async (request, reply) => {
      const signInEmail = typeof request.body?.email === 'string' ? request.body.email.slice(0, 254) : '';
      const refused = (status: number, signInError: string) =>
        reply.page({
          path: '/dashboard',
          status,
          state: { mode, signedIn: false, staffName: null, staffRole: null, staffAccount: false, signInEmail, signInError, schedule: SCHEDULE_SHAPE } satisfies DashboardState,
          cacheKey: false,
        });
      if (request.validationError) {
        const errors = toFieldErrors(request.validationError.validation, request.validationError.validationContext);
        // An empty password was always answered as a wrong one on this form; an over-long one is now too.
        const other = errors.find((e) => e.field !== 'password');
        request.log.warn('staff sign-in refused (form, invalid)');
        return other ? refused(400, other.message) : refused(401, signInRefusal(signInEmail));
      }
      const sessionId = await app.staffAuth.login(request, request.body);
      if (!sessionId) {
        request.log.warn('staff sign-in refused (form)');
        return refused(401, signInRefusal(request.body.email));
      }
      app.staffAuth.setSessionCookie(reply, sessionId);
      request.log.info('staff signed in (form)');
      return reply.redirect('/dashboard', 303);
    },
  );

  app.post('/dashboard/logout', { config: { limit: 'logout' }, schema: { hide: true } }, async (request, reply) => {
    await app.staffAuth.logout(request, reply);
    return reply.redirect(mode === 'prompt' ? '/' : '/dashboard', 303);
  });
};

export default route;
