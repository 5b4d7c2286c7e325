/** POST /v1/auth/login: exchanges the admin password for a session cookie. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorSchema } from '#api/schemas.ts';
import { MESSAGES } from '../../../domain/messages.ts';
import { STAFF_MEMBER_MESSAGES } from '../../../domain/staff-members.ts';
import { errorResponses } from '../schemas.ts';

export const WRONG_PASSWORD_MESSAGE = 'Incorrect password';

/** The one answer to a refused sign-in: the same for an unknown address and a wrong password. */
export function signInRefusal(email: string | undefined): string {
  return email?.trim() ? STAFF_MEMBER_MESSAGES.wrongEmailOrPassword : WRONG_PASSWORD_MESSAGE;
}

/**
 * What a sign-in sends, through either door: this route, and the sign-in form of /dashboard that
 * works without JavaScript (src/routes/pages/dashboard.ts). One schema, so that a name one door
 * refuses cannot come in through the other.
 */
export const SignInBody = Type.Object(
  {
    email: Type.Optional(
      Type.String({
        maxLength: 254,
        description: "A member of staff's e-mail address; without it (or empty), the password is the owner's configured one",
      }),
    ),
    password: Type.String({ minLength: 1, maxLength: 200 }),
    name: Type.Optional(
      Type.String({
        maxLength: 60,
        // Shown in booking status histories: one line, no control characters (tab allowed, as in the shared text rules).
        pattern: '^[^\\x00-\\x08\\x0A-\\x1F]*$',
        errorMessage: { pattern: MESSAGES.controlCharacters },
        description: "Who is signing in with the owner's password, shown in booking status histories (a member's account name is shown instead)",
      }),
    ),
  },
  { additionalProperties: false },
);

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/auth/login',
    {
      config: { public: true, limit: 'login' },
      schema: {
        operationId: 'login',
        summary: 'Sign in as staff',
        description:
          "A member of staff signs in with their e-mail and password; the owner's configured password alone also signs in. A wrong e-mail and a wrong password get the same 401, in the same time. " +
          'The right password sets the session cookie and a device cookie (sent only to the two sign-in doors). While sign-in is paused after ' +
          'RATE_LIMIT_LOGIN_FAILURES_MAX wrong passwords, a client without a valid device cookie is answered 429; one with a device cookie is still ' +
          'let in until it has sent RATE_LIMIT_LOGIN_DEVICE_FAILURES_MAX wrong passwords itself.',
        security: [],
        tags: ['staff'],
        body: SignInBody,
        response: { 204: Type.Null(), 401: ErrorSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const sessionId = await app.staffAuth.login(request, request.body);
      if (!sessionId) {
        request.log.warn('staff sign-in refused');
        return reply.code(401).send({ message: signInRefusal(request.body.email), errors: [] });
      }
      app.staffAuth.setSessionCookie(reply, sessionId);
      request.log.info('staff signed in');
      return reply.code(204).send(null);
    },
  );
};

export default route;
