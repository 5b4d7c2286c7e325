/**
 * Axe on every indexed page and the 404 page at one width, with no console error, failed request or
 * CSP violation on the way. One file per width (test/browser/axe-*.test.ts), so that the two sweeps
 * run side by side and each stays well inside tap's per-file time limit.
 */
import t from 'tap';
import { PAGES } from '../../client/routes.ts';
import { baseUrl, buildTestApp } from '../helper.ts';
import { axeViolations, launchBrowser, openPage, waitForHydration } from './browser.ts';

export function axeSweep(width: number): void {
  t.test(`no page has an axe violation at ${width}px, and none logs an error`, async (t) => {
    const app = await buildTestApp(t, { listen: true });
    const browser = await launchBrowser(t);
    const { page, problems } = await openPage(browser, width);
    for (const { path } of PAGES.filter((p) => p.index)) {
      await page.goto(`${baseUrl(app)}${path}`);
      await waitForHydration(page);
      t.same(await axeViolations(page), [], `${path} at ${width}px`);
    }
    t.same(problems, { consoleErrors: [], failedRequests: [], cspViolations: [] }, `no errors at ${width}px`);
    await page.goto(`${baseUrl(app)}/no-such-page`);
    await waitForHydration(page);
    t.same(await axeViolations(page), [], `the 404 page at ${width}px`);
    await page.context().close();
  });
}
