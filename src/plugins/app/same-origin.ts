/**
 * Refuses state changes that another site makes a browser send (CSRF), on every route at once:
 * no POST handler can forget it. The session cookie is SameSite=Strict and /v1 writes must be
 * JSON already; on top, a browser that says the request is cross-site (Sec-Fetch-Site) or comes
 * from another origin (Origin) is refused. Clients that send neither (curl, scripts) are not
 * browsers and cannot be made to act by another site.
 */
import fp from 'fastify-plugin';
import { AppError } from '../../errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const CROSS_SITE_MESSAGE = 'This change must be made from this site itself';

/**
 * `expectedOrigin` is PUBLIC_URL's origin when it is configured, so that a proxy rewriting Host
 * does not break our own forms; otherwise the Host the browser addressed.
 */
export function isSameOrigin(headers: Record<string, string | string[] | undefined>, expectedOrigin: string | undefined): boolean {
  const site = headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') return false;
  const origin = headers.origin;
  if (typeof origin !== 'string') return true;
  if (expectedOrigin !== undefined) return origin === expectedOrigin;
  return originHost(origin) === withoutDefaultPort(headers.host);
}

/** URL drops a scheme's default port from `host`; the Host header may keep it. */
function withoutDefaultPort(host: string | string[] | undefined): string | undefined {
  return typeof host === 'string' ? host.replace(/:(80|443)$/, '') : undefined;
}

function originHost(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

export default fp(
  async (app) => {
    const expected = app.config.publicOrigin;
    app.addHook('onRequest', (request, _reply, done) => {
      if (SAFE_METHODS.has(request.method) || isSameOrigin(request.headers, expected)) return done();
      done(new AppError(403, 'CROSS_SITE_REQUEST', CROSS_SITE_MESSAGE));
    });
  },
  { name: 'same-origin', dependencies: ['config'] },
);
