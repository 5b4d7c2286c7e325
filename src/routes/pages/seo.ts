/** /sitemap.xml and /robots.txt, built once from the page table. */
import type { FastifyPluginAsync } from 'fastify';
import { PAGES } from '#client/routes.ts';
import { escapeHtml } from '../../render/document.ts';

const route: FastifyPluginAsync = async (app) => {
  const origin = app.config.business.publicUrl;
  const sitemap = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...PAGES.filter((page) => page.index).map((page) => `<url><loc>${escapeHtml(`${origin}${page.path}`)}</loc></url>`),
    '</urlset>',
  ].join('\n');
  const robots = ['User-agent: *', 'Allow: /', 'Disallow: /dashboard', 'Disallow: /v1/', '', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n');

  const cached = { schema: { hide: true } };
  app.get('/sitemap.xml', cached, (_request, reply) =>
    reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=3600').send(sitemap),
  );
  app.get('/robots.txt', cached, (_request, reply) =>
    reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(robots),
  );
};

export default route;
