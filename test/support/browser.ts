/** Chromium driven by playwright-core, one browser per test file (see ./chromium.ts for which one). */
import type { Browser, Page } from 'playwright-core';
import axe from 'axe-core';
import type { Test } from 'tap';
import { launchChromium } from './chromium.ts';
import { TEST_ADMIN_PASSWORD } from '../helper.ts';
import { loadClientAssets } from '../../src/render/assets.ts';
import { CLIENT_DIST_DIR } from '../../src/paths.ts';

/**
 * The stylesheets some page inlines in its style block (issue 24): the browser must never fetch
 * one. The others (react-toastify's, a lazy part's own lazy part) are fetched when first needed.
 */
const INLINED_STYLES = (() => {
  const assets = loadClientAssets(CLIENT_DIST_DIR);
  return new Set([...assets.styles, ...Object.values(assets.pages).flatMap((page) => page.styles)]);
})();

export async function launchBrowser(t: Test): Promise<Browser> {
  const browser = await launchChromium();
  t.teardown(() => browser.close());
  return browser;
}

export interface PageProblems {
  consoleErrors: string[];
  /** Requests that failed or answered 4xx/5xx, and any fetch of a stylesheet whose text the page inlines. */
  failedRequests: string[];
  /** Everything the Content-Security-Policy blocked (also reported among the console errors). */
  cspViolations: string[];
}

const inFlight = new WeakMap<Page, { count: number; waiters: (() => void)[] }>();

/** Resolves once every request the page has made so far is answered (or has failed). */
export function requestsAnswered(page: Page): Promise<void> {
  const flight = inFlight.get(page);
  if (!flight) throw new Error('requestsAnswered: the page was not opened by openPage');
  return flight.count === 0 ? Promise.resolve() : new Promise((resolve) => flight.waiters.push(resolve));
}

/** A new page at the given width that records console errors and failed requests. */
export async function openPage(browser: Browser, width: number, options: { javaScript?: boolean } = {}): Promise<{ page: Page; problems: PageProblems }> {
  // Reduced motion, which the site's CSS honours (base.css, toaster.css, DashboardPage.css): no
  // colour is read halfway through its transition and a toast does not fade for 0.3 s, whatever
  // the machine's load. The tests check states, not motion.
  const context = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled: options.javaScript ?? true, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const problems: PageProblems = { consoleErrors: [], failedRequests: [], cspViolations: [] };
  // Reported by the page itself, so that a blocked inline style or script cannot pass unseen.
  await page.exposeFunction('__reportCspViolation', (text: string) => {
    problems.cspViolations.push(text);
    problems.consoleErrors.push(`CSP violation: ${text}`);
  });
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (event) =>
      (window as unknown as { __reportCspViolation(text: string): void }).__reportCspViolation(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`),
    ),
  );
  // Each toast's text as it appears (toastsShown): a toast closes by itself after 5 s, so a test
  // that looked for it, then read it, could miss one that came and went between two looks. The top
  // frame's only: in a sandboxed frame without scripts (an e-mail's preview) the observer's calls
  // would each be refused with a console error.
  await page.addInitScript(() => {
    if (window !== window.top) return;
    const shown: string[] = [];
    (window as unknown as { __toastsShown: string[] }).__toastsShown = shown;
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes)
          if (node instanceof Element)
            for (const toast of [node, ...node.querySelectorAll('.Toastify__toast')])
              if (toast.classList.contains('Toastify__toast')) shown.push(toast.textContent ?? '');
    }).observe(document, { childList: true, subtree: true });
  });
  // Requests still on their way (requestsAnswered): leaving a page before its own requests are
  // answered aborts them, which the failed requests then list.
  const flight = { count: 0, waiters: [] as (() => void)[] };
  inFlight.set(page, flight);
  const answered = () => {
    flight.count -= 1;
    if (flight.count === 0) for (const resolve of flight.waiters.splice(0)) resolve();
  };
  page.on('request', () => (flight.count += 1));
  page.on('requestfinished', answered);
  page.on('requestfailed', answered);
  // Only our own origin counts: the embedded map's host cannot be reached from a closed network.
  const ours = (url: string) => url.startsWith('http://127.0.0.1');
  page.on('console', (message) => {
    if (message.type() === 'error' && ours(message.location().url || 'http://127.0.0.1')) problems.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => problems.consoleErrors.push(error.message));
  page.on('request', (request) => {
    if (ours(request.url()) && INLINED_STYLES.has(new URL(request.url()).pathname)) problems.failedRequests.push(`${request.url()} fetched, though inlined`);
  });
  page.on('requestfailed', (request) => {
    if (ours(request.url())) problems.failedRequests.push(`${request.url()} ${request.failure()?.errorText}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400 && ours(response.url())) problems.failedRequests.push(`${response.url()} ${response.status()}`);
  });
  return { page, problems };
}

/**
 * The texts of the toasts this document has shown, in order, once it has shown at least `count`
 * (recorded by openPage as each appears, whether or not it is still on screen).
 */
export async function toastsShown(page: Page, count = 1, timeout?: number): Promise<string[]> {
  const texts = await page.waitForFunction((n) => {
    const shown = (window as unknown as { __toastsShown: string[] }).__toastsShown;
    return shown.length >= n && shown;
  }, count, { timeout });
  return (await texts.jsonValue()) as string[];
}

/** Waits until React has hydrated the page (App marks <html data-hydrated>). */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true', undefined, { timeout: 10_000 });
}

/** Runs axe-core on the page (external frames such as the map are not ours) and returns the violations. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: an injected <script> would be inline script, which
  // the Content-Security-Policy rightly blocks.
  // A transition still running (a button's colour as it becomes enabled) would be read halfway.
  // Transitions only: they end by themselves, where an animation such as a spinner may run forever.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation instanceof CSSTransition)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  await page.evaluate(axe.source);
  const results = await page.evaluate(() =>
    (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }> } }).axe.run(document, {
      iframes: false,
      resultTypes: ['violations'],
    }),
  );
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
}

/**
 * Signs in to the staff dashboard served at `base` (as `staffName` when given) and waits until
 * the dashboard is shown and hydrated.
 */
export async function signIn(page: Page, base: string, staffName?: string): Promise<void> {
  await page.goto(`${base}/dashboard`);
  await waitForHydration(page);
  if (staffName !== undefined) await page.getByLabel('Your name (shown in booking histories)').fill(staffName);
  await page.getByLabel('Password').fill(TEST_ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Booking Dashboard' }).waitFor();
  await waitForHydration(page);
}

/**
 * Opens a dashboard view from its tab and waits until it is the current one: a view whose code is
 * still on its way keeps the one before on screen meanwhile, so what the test does next must not
 * find the view before.
 */
export async function openView(page: Page, name: string | RegExp): Promise<void> {
  const tab = page.getByRole('navigation', { name: 'Dashboard views' }).getByRole('button', typeof name === 'string' ? { name, exact: true } : { name });
  await tab.click();
  await tab.and(page.locator('[aria-current="page"]')).waitFor();
}
