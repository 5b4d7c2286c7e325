/**
 * The route table: every registered route, checked against the rules a new route could forget.
 * - every /v1 route refuses a request without a staff session, unless it declares
 *   `config: { public: true }`;
 * - every state-changing route refuses a cross-site request;
 * - every state-changing route that needs no session declares its abuse budget (`config.limit`);
 * - every answer (pages, assets, JSON, errors) carries the security headers, in production mode.
 */
import t from 'tap';
import type { RouteOptions } from 'fastify';
import { LIMIT_NAMES } from '../src/plugins/external/rate-limit.ts';
import { buildTestApp, entryScriptOf } from './helper.ts';

interface Route {
  method: string;
  url: string;
  config: { public?: boolean; limit?: unknown } | undefined;
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
const ID = '00000000-0000-4000-8000-000000000000';
/** A concrete URL for a route pattern: every parameter becomes an id, a wildcard a file name. */
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, ID).replace(/\*$/, 'no-such-file.js');

t.test('every route keeps the rules, and every answer has the security headers', async (t) => {
  const routes: Route[] = [];
  const record = (route: RouteOptions) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, config: route.config as Route['config'] });
  };
  const app = await buildTestApp(t, { onRoute: record, env: { NODE_ENV: 'production', PUBLIC_URL: 'https://valet.example.nz' } });
  t.ok(routes.length > 20, `${routes.length} routes registered`);

  t.test('/v1 routes refuse a request without a staff session unless they are declared public', async (t) => {
    for (const route of routes.filter((r) => r.url.startsWith('/v1/') && !r.config?.public && r.method !== 'HEAD')) {
      const res = await app.inject({ method: route.method as 'GET', url: concrete(route.url), ...(SAFE.has(route.method) ? {} : { payload: {} }) });
      t.equal(res.statusCode, 401, `${route.method} ${route.url}`);
      t.equal(res.headers['cache-control'], 'no-store', `${route.method} ${route.url}: personal data is never cached`);
    }
  });

  t.test('state-changing routes refuse a cross-site request', async (t) => {
    for (const route of routes.filter((r) => !SAFE.has(r.method))) {
      for (const headers of [{ 'sec-fetch-site': 'cross-site' }, { origin: 'https://evil.example' }]) {
        const res = await app.inject({ method: route.method as 'POST', url: concrete(route.url), headers, payload: {} });
        t.equal(res.statusCode, 403, `${route.method} ${route.url} ${JSON.stringify(headers)}`);
      }
    }
  });

  t.test('state-changing routes anyone may call declare an abuse budget', async (t) => {
    const open = routes.filter((r) => !SAFE.has(r.method) && (!r.url.startsWith('/v1/') || r.config?.public));
    t.ok(open.length >= 7, 'the public writes are found');
    for (const route of open) {
      const limit = route.config?.limit;
      t.ok(typeof limit === 'function' || (LIMIT_NAMES as readonly unknown[]).includes(limit), `${route.method} ${route.url} declares config.limit`);
    }
  });

  t.test('security headers on every page, asset, JSON answer and error, in production', async (t) => {
    const asset = entryScriptOf((await app.inject('/')).body);
    const urls = [
      ...routes.filter((r) => r.method === 'GET').map((r) => concrete(r.url)),
      asset,
      '/no-such-page',
      '/v1/no-such-endpoint',
      `/x${'/'.repeat(5000)}`,
      '/v1/bookings?limit=abc',
    ];
    for (const url of new Set(urls)) {
      const res = await app.inject(url);
      const where = `${url.slice(0, 60)} (${res.statusCode})`;
      t.match(res.headers['content-security-policy'], /default-src 'self'.*script-src 'self'/, where);
      t.notMatch(res.headers['content-security-policy'], /unsafe-inline/, where);
      t.match(res.headers['content-security-policy'], /object-src 'none'.*base-uri 'self'.*frame-ancestors 'none'.*form-action 'self'/, where);
      t.equal(res.headers['x-content-type-options'], 'nosniff', where);
      // A manage, receipt or staff invitation page's address (or a calendar feed's) holds its secret token: no Referer ever leaves the site from it.
      const secretPath = ['/booking/manage/', '/booking/receipt/', '/dashboard/invitation/', '/calendar/'].some((prefix) => url.startsWith(prefix));
      t.equal(res.headers['referrer-policy'], secretPath ? 'same-origin' : 'strict-origin-when-cross-origin', where);
      t.equal(res.headers['cross-origin-opener-policy'], 'same-origin', where);
      t.match(res.headers['strict-transport-security'], /max-age=31536000/, where);
    }
    const page = await app.inject('/');
    const again = await app.inject({ url: '/', headers: { 'if-none-match': page.headers.etag as string } });
    t.equal(again.statusCode, 304, 'cached pages keep their ETag');
    t.match(page.headers['content-security-policy'], /frame-src 'self' https:\/\/www\.google\.com/, 'the map embed and the e-mail preview may be framed');
    t.match(page.headers['content-security-policy'], /style-src 'self' 'sha256-[A-Za-z0-9+/=]+'/, 'the <noscript> style by its hash');
  });
});

t.test('outside production there is no Strict-Transport-Security', async (t) => {
  const app = await buildTestApp(t);
  const res = await app.inject('/healthz');
  t.equal(res.headers['strict-transport-security'], undefined);
  t.notMatch(res.headers['content-security-policy'], /upgrade-insecure-requests/, 'plain HTTP keeps working');
});
