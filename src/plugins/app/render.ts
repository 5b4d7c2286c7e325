/**
 * Server-side rendering of the pages and the files of the browser bundle.
 *
 * A public page's HTML depends only on its path and the configuration, so each is rendered once,
 * kept in memory with its ETag, and served from there: a repeat visit is a 304, and rendering
 * React is not paid again per request.
 */
import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import path from 'node:path';
import { CLIENT_DIST_DIR } from '../../paths.ts';
import { loadClientAssets } from '../../render/assets.ts';
import { renderDocument } from '../../render/document.ts';
import { FAVICON_SVG } from '../../render/favicon.ts';
import { NOT_FOUND_PATH } from '../../../client/page-props.ts';
import { findPage } from '../../../client/routes.ts';

declare module 'fastify' {
  interface FastifyReply {
    /** Sends the page for the request's path; `404` sends the not-found page. */
    page(status?: number): FastifyReply;
  }
}

interface CachedDocument {
  html: string;
  etag: string;
}

export default fp(
  async (app) => {
    const assets = loadClientAssets(CLIENT_DIST_DIR);
    const { business } = app.config;
    const cache = new Map<string, CachedDocument>();

    /** Only known pages (and the one 404 page) are cached, so the cache cannot grow without bound. */
    function documentFor(pagePath: string): CachedDocument {
      let doc = cache.get(pagePath);
      if (!doc) {
        const html = renderDocument({ path: pagePath, business, assets });
        doc = { html, etag: `"${createHash('sha1').update(html).digest('base64url')}"` };
        cache.set(pagePath, doc);
      }
      return doc;
    }

    await app.register(fastifyStatic, {
      root: path.join(CLIENT_DIST_DIR, 'assets'),
      prefix: '/assets/',
      // Every file name carries a content hash, so a file never changes under its name.
      immutable: true,
      maxAge: '365d',
      index: false,
      wildcard: true,
    });

    const sendFavicon = (_request: unknown, reply: FastifyReply) =>
      reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(FAVICON_SVG);
    app.get('/favicon.svg', { schema: { hide: true } }, sendFavicon);
    app.get('/favicon.ico', { schema: { hide: true } }, sendFavicon);

    app.decorateReply('page', function page(this: FastifyReply, status = 200) {
      const requestPath = this.request.url.split('?')[0]!.replace(/(.)\/+$/, '$1');
      const pagePath = status === 404 || !findPage(requestPath) ? NOT_FOUND_PATH : requestPath;
      const doc = documentFor(pagePath);
      this.header('cache-control', 'no-cache').header('etag', doc.etag).type('text/html; charset=utf-8');
      if (status === 200 && this.request.headers['if-none-match'] === doc.etag) return this.code(304).send();
      return this.code(pagePath === NOT_FOUND_PATH ? 404 : status).send(doc.html);
    });
  },
  { name: 'render', dependencies: ['config'] },
);
