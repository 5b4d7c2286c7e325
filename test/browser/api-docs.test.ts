/**
 * The API reference at /v1/docs in Chromium, under the site's own security headers: Swagger UI
 * (served from npm by the app) renders every operation, with no CSP violation and no console error.
 */
import t from 'tap';
import { BOOT_SCRIPT_HASH } from '../../src/render/document.ts';
import { baseUrl, buildTestApp, proxiedServerDatabase } from '../helper.ts';
import { launchBrowser, openPage } from '../support/browser.ts';

t.test('the API reference renders under the site CSP', async (t) => {
  const app = await buildTestApp(t, { listen: true, env: { NODE_ENV: 'production', PUBLIC_URL: 'https://valet.example.nz' } });
  const browser = await launchBrowser(t);

  const res = await app.inject('/v1/docs');
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /^text\/html/);
  const csp = res.headers['content-security-policy'] as string;
  t.ok(csp.includes(`script-src 'self' '${BOOT_SCRIPT_HASH}';`), 'the site policy: scripts from files, and the pages\' one boot script by its hash');
  t.notMatch(csp, /unsafe-inline|unsafe-eval/);
  t.notMatch(res.body, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script in the page');
  t.notMatch(res.body, /https?:\/\//, 'nothing loaded from another origin');

  for (const path of ['/v1/docs', '/v1/docs/']) {
    t.test(path, async (t) => {
      const { page, problems } = await openPage(browser, 1280);
      const cspEvents: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) cspEvents.push(message.text());
      });
      await page.goto(`${baseUrl(app)}${path}`);
      await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
      const summaries = await page.locator('.opblock-summary-path').allInnerTexts();
      const paths = summaries.map((text) => text.replace(/\u200b/g, '').trim());
      for (const expected of ['/v1/create-booking', '/v1/availability', '/v1/quote', '/v1/contact-us-form', '/v1/bookings']) {
        t.ok(paths.includes(expected), `${expected} is listed`);
      }
      t.notOk(paths.some((p) => p.startsWith('/v1/docs') || p === '/v1/openapi.json'), 'the reference does not list itself');
      t.ok(paths.length >= 20, `${paths.length} operations listed`);

      // An operation opens with its schema and example.
      await page.locator('.opblock-summary-path', { hasText: 'create-booking' }).first().click();
      await page.locator('.opblock.is-open .opblock-body').first().waitFor();
      await page.locator('.opblock.is-open').getByText(/Request body/i).first().waitFor();

      t.same(problems.cspViolations, [], 'no CSP violation');
      t.same(cspEvents, [], 'no CSP message in the console');
      t.same(problems.consoleErrors, [], 'no console error');
      t.same(problems.failedRequests, [], 'every asset loads');
      await page.context().close();
    });
  }
});

t.test('the API reference answers while the database is unreachable', { skip: process.env.TEST_DATABASE_URL || process.env.DATABASE_URL ? false : 'needs a PostgreSQL server: set TEST_DATABASE_URL' }, async (t) => {
  const { url, proxy } = await proxiedServerDatabase(t);
  await proxy.cut();
  const app = await buildTestApp(t, { env: { DATABASE_URL: url, DB_CONNECT_TIMEOUT_MS: '1000' } });
  t.equal((await app.inject({ method: 'POST', url: '/v1/quote', payload: {} })).statusCode, 503, 'the API itself waits for the database');
  for (const url of ['/v1/docs', '/v1/docs/', '/v1/docs/static/swagger-ui-bundle.js', '/v1/docs/static/swagger-initializer.js', '/v1/docs/json']) {
    t.equal((await app.inject(url)).statusCode, 200, url);
  }
});
