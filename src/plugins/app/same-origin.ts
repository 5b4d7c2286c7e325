/**
 * Refuses state changes that another site makes a browser send (CSRF), on every route at once:
 * no POST handler can forget it. The session cookie is SameSite=Strict and /v1 writes must be
 * JSON already; on top, a browser that says the request is cross-site (Sec-Fetch-Site) or comes
 * from another origin (Origin: scheme, host and port) is refused. Clients that send neither
 * (curl, scripts) are not browsers and cannot be made to act by another site. A write without a
 * Host header is refused: without one there is no origin to compare with.
 */
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const CROSS_SITE_MESSAGE = 'This change must be made from this site itself';

/**
 * `expectedOrigin` is PUBLIC_URL's origin when it is configured, so that a proxy rewriting Host
 * does not break our own forms; otherwise the origin the server answers on (`answeringOrigin`).
 * Scheme, host and port must all match: `https://host` is another origin than `http://host`.
 */
export function isSameOrigin(headers: Record<string, string | string[] | undefined>, expectedOrigin: string | undefined): boolean {
  const site = headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') return false;
  // Without a Host the server cannot tell which origin it answers on: HTTP/1.1 requires one.
  if (typeof headers.host !== 'string' || headers.host === '') return false;
  const origin = headers.origin;
  if (typeof origin !== 'string') return true;
  if (expectedOrigin === undefined) return false;
  return originOf(origin) === expectedOrigin;
}

/**
 * The origin a request was addressed to: its scheme as Fastify sees it (X-Forwarded-Proto from a
 * trusted proxy, else the connection's) and its host (X-Forwarded-Host from a trusted proxy, else
 * Host), default ports dropped as a browser's Origin drops them. Undefined when they make no origin.
 */
export function answeringOrigin(request: Pick<FastifyRequest, 'protocol' | 'host'>): string | undefined {
  const { protocol, host } = request;
  if ((protocol !== 'http' && protocol !== 'https') || !host) return undefined;
  // A host with a path, user or query in it is not a host.
  if (/[/?#@\\\s]/.test(host)) return undefined;
  return originOf(`${protocol}://${host}`);
}

/** URL's serialisation: lower-case scheme and host, no default port. Undefined for anything else, "null" included. */
function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

export default fp(
  async (app) => {
    const expected = app.config.publicOrigin;
    app.addHook('onRequest', (request, _reply, done) => {
      if (SAFE_METHODS.has(request.method) || isSameOrigin(request.headers, expected ?? answeringOrigin(request))) return done();
      done(new AppError(403, 'CROSS_SITE_REQUEST', CROSS_SITE_MESSAGE));
    });
  },
  { name: 'same-origin', dependencies: ['config'] },
);
