/**
 * The browsable API reference at /v1/docs: Swagger UI from the @fastify/swagger-ui package,
 * served by the app itself (no CDN), reading the same document as /v1/openapi.json.
 *
 * It runs under the site's own Content-Security-Policy (src/security-headers.ts: `script-src
 * 'self'`, no `unsafe-inline`): the page's scripts are files (the bundle, the preset and the
 * generated swagger-initializer.js) and its styles are stylesheets; the one inline <style> of
 * Swagger UI, in the top bar's SVG logo, goes with the top bar (BaseLayout). So no `staticCSP`
 * is set here and nothing loosens the policy; the
 * browser test test/browser/api-docs.test.ts checks that the page renders with no violation.
 *
 * Registered inside the /v1 tree (src/routes/v1/index.ts), as an encapsulated plugin: every route
 * it adds (the page, its assets, /v1/docs/json and /yaml) is public and spends no abuse budget,
 * and is flagged `apiDocs` so that the tree's database check lets it through.
 */
import type { FastifyPluginAsync, RouteOptions } from 'fastify';
import swaggerUi from '@fastify/swagger-ui';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route of the API reference (/v1/docs): answered even while the database is unreachable. */
    apiDocs?: boolean;
  }
}

export const API_DOCS_PATH = '/v1/docs';

const apiDocs: FastifyPluginAsync<{ indexPrefix: string }> = async (app, options) => {
  // The plugin's routes declare no `config`; each is declared public here, as it is added (an
  // onRoute hook would come after the route table's own, which reads `config` first). The
  // instances the plugin registers inherit this method, @fastify/static's included.
  const route = app.route;
  app.route = function declarePublic(this: typeof app, routeOptions: RouteOptions) {
    return route.call(this, { ...routeOptions, config: { ...routeOptions.config, public: true, apiDocs: true } });
  } as typeof app.route;

  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // The page's links are absolute (/v1/docs/static/…) when it is opened without a trailing slash.
    indexPrefix: options.indexPrefix,
    // No external validator badge: it would call validator.swagger.io from the reader's browser.
    validatorUrl: false,
    uiConfig: {
      // Without the standalone top bar: its Swagger logo is an SVG with an inline <style>, which
      // the site's `style-src` rightly blocks (and a reader has no other document to explore).
      layout: 'BaseLayout',
      deepLinking: true,
      displayOperationId: true,
      docExpansion: 'list',
      defaultModelsExpandDepth: 1,
      tryItOutEnabled: false,
    },
    theme: { title: `${app.config.business.name} API reference` },
  });
};

export default apiDocs;
