/**
 * @fastify/cookie for setting cookies and parsing them on demand. Its automatic parsing (an
 * onRequest hook) is off: only the staff session check and the forms' bot guard read a cookie,
 * and every cached page would otherwise parse the Cookie header for nothing.
 */
import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';
import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** The value of one cookie of the request, parsed only when asked for. */
    cookieOf(request: FastifyRequest, name: string): string | undefined;
  }
}

export default fp(async (app) => {
  await app.register(cookie, { hook: false });
  app.decorate('cookieOf', (request: FastifyRequest, name: string) => {
    const header = request.headers.cookie;
    return header ? app.parseCookie(header)[name] : undefined;
  });
}, { name: 'cookie' });
