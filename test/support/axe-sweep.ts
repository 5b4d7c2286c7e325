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
    // The requests under way, and who waits for the last of them to end (told by its event, not
    // found by looking again every few milliseconds).
    let inFlight = 0;
    let settled: (() => void) | undefined;
    const ended = () => {
      if (--inFlight === 0) settled?.();
    };
    page.on('request', () => inFlight++);
    page.on('requestfinished', ended);
    page.on('requestfailed', ended);
    for (const { path } of PAGES.filter((p) => p.index)) {
      await page.goto(`${baseUrl(app)}${path}`);
      await waitForHydration(page);
      t.same(await axeViolations(page), [], `${path} at ${width}px`);
      // What the page still fetches after hydrating (the booking wizard's later steps) is let
      // finish: leaving earlier would abort it, which a visitor may do but is not a failure.
      if (inFlight > 0) await new Promise<void>((resolve) => (settled = resolve));
      settled = undefined;
    }
    t.same(problems, { consoleErrors: [], failedRequests: [], cspViolations: [] }, `no errors at ${width}px`);
    await page.goto(`${baseUrl(app)}/no-such-page`);
    await waitForHydration(page);
    t.same(await axeViolations(page), [], `the 404 page at ${width}px`);
    await page.context().close();
  });
}
