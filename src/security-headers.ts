/**
 * The security headers of every answer (pages, assets, JSON, errors), computed once from the
 * configuration by helmet and then set by one callback hook: the same bytes for every request,
 * so cached pages keep their ETag and nothing is built per request. (@fastify/helmet builds
 * helmet's middleware again on every request, which cost the cached pages a tenth of their
 * throughput.)
 *
 * One inline script, the same on every page, is allowed by its hash (BOOT_SCRIPT_HASH: it loads the
 * page's modules once the page has painted); the hydration data and JSON-LD are non-executable data
 * blocks, and the bundle is files. The one inline style (the <noscript> menu) is allowed by its hash.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { Config } from './config.ts';
import { BOOT_SCRIPT_HASH, NOSCRIPT_STYLE_HASH } from './render/document.ts';

export function securityHeaders(config: Config): Record<string, string> {
  const https = config.business.publicUrl.startsWith('https://');
  const middleware = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", `'${BOOT_SCRIPT_HASH}'`],
        styleSrc: ["'self'", `'${NOSCRIPT_STYLE_HASH}'`],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        // The map embed, and the dashboard's preview of an e-mail (served sandboxed by /v1/emails/{id}/html).
        frameSrc: ["'self'", new URL(config.business.mapEmbedUrl).origin],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        // Only where the site is served over HTTPS: on plain HTTP it would break every asset.
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: config.isProduction ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  middleware({} as IncomingMessage, response as unknown as ServerResponse, () => undefined);
  return headers;
}
