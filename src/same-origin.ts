/** Refusing state changes that another site makes a signed-in browser send (CSRF). */
import { AppError } from './errors.ts';

/**
 * State changes must come from our own pages. The session cookie is SameSite=Strict and writes
 * must be JSON already; on top, a browser that says the request is cross-site (Sec-Fetch-Site)
 * or from another origin (Origin) is refused. Clients that send neither (curl, scripts) are not
 * browsers and cannot be made to act by another site.
 */
export function assertSameOrigin(headers: Record<string, string | string[] | undefined>): void {
  const site = headers['sec-fetch-site'];
  const origin = headers.origin;
  const host = headers.host;
  const crossSite = typeof site === 'string' && site !== 'same-origin' && site !== 'none';
  const foreignOrigin = typeof origin === 'string' && originHost(origin) !== withoutDefaultPort(host);
  if (crossSite || foreignOrigin) {
    throw new AppError(403, 'CROSS_SITE_REQUEST', 'This change must be made from the dashboard itself');
  }
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
