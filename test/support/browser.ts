/** Debian's Chromium driven by playwright-core, one browser per test file. */
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Test } from 'tap';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchBrowser(t: Test): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ARGS });
  t.teardown(() => browser.close());
  return browser;
}

export interface PageProblems {
  consoleErrors: string[];
  failedRequests: string[];
}

/** A new page at the given width that records console errors and failed requests. */
export async function openPage(browser: Browser, width: number, options: { javaScript?: boolean } = {}): Promise<{ page: Page; problems: PageProblems }> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled: options.javaScript ?? true });
  const page = await context.newPage();
  const problems: PageProblems = { consoleErrors: [], failedRequests: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') problems.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => problems.consoleErrors.push(error.message));
  page.on('requestfailed', (request) => problems.failedRequests.push(`${request.url()} ${request.failure()?.errorText}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.failedRequests.push(`${response.url()} ${response.status()}`);
  });
  return { page, problems };
}
