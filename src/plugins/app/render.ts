/**
 * Server-side rendering of the pages and the files of the browser bundle.
 *
 * A public page's HTML depends only on its path, the configuration and a bounded page state (a
 * preselected package, the day that sets the earliest booking date), so each variant is rendered
 * once, kept in memory with its ETag, and served from there: a repeat visit is a 304, and React is
 * not paid again per request. Only a form re-rendered with the visitor's own values is rendered
 * per request, and never cached. A cached form page carries what is the visitor's own (when the
 * form was served, its submission token) in a cookie made for each answer: see PageOptions.setCookie.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import path from 'node:path';
import { CLIENT_DIST_DIR } from '../../paths.ts';
import { loadClientAssets } from '../../render/assets.ts';
import { renderDocument } from '../../render/document.ts';
import { FAVICON_SVG } from '../../render/favicon.ts';
import { preferredEncoding, type DirectPages, type Encoding } from '../../direct-pages.ts';
import { securityHeaders } from '../../security-headers.ts';
import { NOT_FOUND_PATH } from '#client/page-props.ts';
import { findPage, pageFor } from '#client/routes.ts';

export interface PageOptions {
  status?: number;
  /** The page to render when it is not the request's own path (a form post's answer). */
  path?: string;
  /** The page's state, or a function that builds it, called only when the page is rendered. */
  state?: unknown;
  /**
   * Names the page variant `state` stands for, so it is rendered once and cached; `false` renders
   * this answer alone (a form with the visitor's input). Callers keep the set of keys bounded.
   */
  cacheKey?: string | false;
  /**
   * A Set-Cookie header made for each answer (the form guard's cookie, with its own token), 304s
   * included, on this path and on the lean path alike; the body stays the same for everyone.
   */
  setCookie?: () => string | undefined;
  /**
   * The answer's body is the same for every GET of this exact address (no state, no query read;
   * at most a cookie made per answer, `setCookie`): after its first answer, later ones are sent
   * from the lean path (src/direct-pages.ts), without Fastify's per-request work.
   */
  everyone?: boolean;
  /**
   * With `everyone`, the exact address (path and query string) whose GETs the lean path then
   * answers, when it is not the path alone: a variant named by a query the route recognised
   * (`/booking?package=ceramic-coating`). Only a GET of exactly this address is handed on, so
   * the lean path keeps as many addresses as the route has variants, whatever queries are sent.
   */
  address?: string;
  /**
   * For a page that is the same for everyone only for a while (the booking wizard's first step,
   * until midnight in Auckland): true while the variant rendered is still the one to send. Once
   * false, the lean path hands the address back to Fastify, which renders the new variant and
   * hands that on.
   */
  current?: () => boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The lean path of the pages that are the same for everyone (src/direct-pages.ts). */
    directPages: DirectPages;
  }
  interface FastifyReply {
    /** Sends the page for the request's path; status 404 (or an unknown path) sends the not-found page. */
    page(options?: PageOptions): FastifyReply;
  }
}

interface CachedDocument {
  html: string;
  etag: string;
  /** The Content-Security-Policy that allows the page's inlined style block. */
  csp: string;
  /** Compressed once, on the first request that accepts each encoding. */
  br?: Buffer;
  gzip?: Buffer;
}

function compressed(doc: CachedDocument, encoding: Encoding): Buffer {
  if (encoding === 'br') return (doc.br ??= brotliCompressSync(doc.html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  return (doc.gzip ??= gzipSync(doc.html, { level: 9 }));
}

/** The path of a request target, without its query string. */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * `/about///` → `/about`, `/` stays `/`. A loop, not a regular expression: a pattern anchored at
 * the end, such as /(.)\/+$/, is retried from every slash and takes quadratic time on a path of
 * many slashes, which any visitor can send.
 */
export function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 47 /* '/' */) end -= 1;
  return end === path.length ? path : path.slice(0, end);
}

/** Upper bound on cached variants (pages × packages × days); the oldest is dropped first. */
const MAX_CACHED = 400;

const TOUCH_ICONS = ['apple-touch-icon.png', 'icon-192.png', 'icon-512.png'] as const;

export default fp(
  async (app) => {
    const assets = loadClientAssets(CLIENT_DIST_DIR);
    const { business } = app.config;
    const cache = new Map<string, CachedDocument>();
    const direct = app.hasDecorator('directPages') ? app.directPages : undefined;

    // Every answer's policy allows the <noscript> style by its hash; a page's answer adds its own
    // style block's hash, one policy string per page module, made once.
    const basePolicy = securityHeaders(app.config)['content-security-policy']!;
    const policies = new Map<string, string>();
    const policyFor = (pagePath: string) => {
      const { module } = pageFor(pagePath);
      let policy = policies.get(module);
      if (policy === undefined) {
        const hash = assets.pages[module]?.cssHash;
        policy = hash ? basePolicy.replace("style-src 'self'", `style-src 'self' ${hash}`) : basePolicy;
        policies.set(module, policy);
      }
      return policy;
    };

    // Weak: the same page is sent compressed or not, byte-different but the same content.
    const render = (pagePath: string, state: unknown): CachedDocument => {
      const html = renderDocument({ path: pagePath, business, assets, state: typeof state === 'function' ? state() : state });
      return { html, etag: `W/"${createHash('sha1').update(html).digest('base64url')}"`, csp: policyFor(pagePath) };
    };

    function documentFor(pagePath: string, state: unknown, cacheKey: string | false): CachedDocument {
      if (cacheKey === false) return render(pagePath, state);
      const key = `${pagePath}\n${cacheKey}`;
      let doc = cache.get(key);
      if (!doc) {
        doc = render(pagePath, state);
        if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
        cache.set(key, doc);
      }
      return doc;
    }

    await app.register(fastifyStatic, {
      root: path.join(CLIENT_DIST_DIR, 'assets'),
      prefix: '/assets/',
      // Every file name carries a content hash, so a file never changes under its name.
      immutable: true,
      // The build writes .br and .gz beside each file (client/vite.config.ts).
      preCompressed: true,
      maxAge: '365d',
      index: false,
      wildcard: true,
    });

    const sendFavicon = (_request: unknown, reply: FastifyReply) =>
      reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(FAVICON_SVG);
    app.get('/favicon.svg', { schema: { hide: true } }, sendFavicon);
    app.get('/favicon.ico', { schema: { hide: true } }, sendFavicon);
    for (const name of TOUCH_ICONS) {
      const png = readFileSync(path.join(CLIENT_DIST_DIR, name));
      app.get(`/${name}`, { schema: { hide: true } }, (_request, reply) =>
        reply.type('image/png').header('cache-control', 'public, max-age=86400').send(png),
      );
    }
    const webManifest = JSON.stringify({
      name: business.name,
      short_name: business.name,
      start_url: '/',
      display: 'browser',
      background_color: '#ffffff',
      theme_color: '#0c1f38',
      icons: [
        { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
        { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
      ],
    });
    app.get('/site.webmanifest', { schema: { hide: true } }, (_request, reply) =>
      reply.type('application/manifest+json').header('cache-control', 'public, max-age=86400').send(webManifest),
    );

    app.decorateReply('page', function page(this: FastifyReply, options: PageOptions = {}) {
      const status = options.status ?? 200;
      const requestPath = options.path ?? withoutTrailingSlashes(pathOf(this.request.url));
      const pagePath = status === 404 || !findPage(requestPath) ? NOT_FOUND_PATH : requestPath;
      const doc = documentFor(pagePath, options.state, pagePath === NOT_FOUND_PATH ? '' : (options.cacheKey ?? ''));
      this.type('text/html; charset=utf-8').header('content-security-policy', doc.csp);
      const cookie = options.setCookie?.();
      if (cookie) this.header('set-cookie', cookie);
      if (options.cacheKey === false) return this.code(status).header('cache-control', 'no-store').send(doc.html);
      this.header('cache-control', 'no-cache').header('etag', doc.etag).header('vary', 'accept-encoding');
      const address = options.address ?? pagePath;
      if (options.everyone && status === 200 && this.request.method === 'GET' && this.request.url === address && !direct?.has(address)) {
        const cached = doc;
        direct?.add(address, {
          etag: doc.etag,
          headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': doc.csp, 'cache-control': 'no-cache', etag: doc.etag, vary: 'accept-encoding' },
          body: (encoding) => (encoding ? compressed(cached, encoding) : cached.html),
          setCookie: options.setCookie,
          current: options.current,
        });
      }
      if (status === 200 && this.request.headers['if-none-match'] === doc.etag) return this.code(304).send();
      this.code(pagePath === NOT_FOUND_PATH ? 404 : status);
      const encoding = preferredEncoding(this.request.headers['accept-encoding']);
      return encoding ? this.header('content-encoding', encoding).send(compressed(doc, encoding)) : this.send(doc.html);
    });
  },
  { name: 'render', dependencies: ['config'] },
);
