import t from 'tap';
import { baseUrl, buildTestApp } from '../helper.ts';
import { launchBrowser, openPage, waitForHydration } from '../support/browser.ts';

t.test('home page in Chromium', async (t) => {
  const app = await buildTestApp(t, { listen: true });
  const browser = await launchBrowser(t);

  t.test('loads with no console errors or failed requests, and hydrates', async (t) => {
    const { page, problems } = await openPage(browser, 1280);
    await page.goto(`${baseUrl(app)}/`);
    await waitForHydration(page);
    t.equal(await page.title(), 'Auckland Valet Co. | Mobile Car Valeting & Detailing in Auckland');
    t.ok(await page.getByRole('heading', { level: 1 }).isVisible());
    t.equal(await page.locator('.menu-toggle').isVisible(), false, 'no toggle on a desktop');
    t.ok(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Book Now' }).isVisible());
    t.same(problems, { consoleErrors: [], failedRequests: [], cspViolations: [] });
    await page.context().close();
  });

  t.test('the mobile menu opens and closes after hydration', async (t) => {
    const { page, problems } = await openPage(browser, 390);
    await page.goto(`${baseUrl(app)}/`);
    const toggle = page.getByRole('button', { name: 'Open menu' });
    const nav = page.getByRole('navigation', { name: 'Main' });
    t.equal(await nav.getByRole('link', { name: 'Services' }).isVisible(), false, 'closed at first');
    t.equal(await toggle.getAttribute('aria-expanded'), 'false');

    // Clicking before hydration does nothing: the toggle is clicked once React has attached its handler.
    await waitForHydration(page);
    await toggle.click();
    const close = page.getByRole('button', { name: 'Close menu' });
    await close.waitFor();
    t.equal(await close.getAttribute('aria-expanded'), 'true');
    t.ok(await nav.getByRole('link', { name: 'Services' }).isVisible(), 'links shown');
    t.ok(await nav.getByRole('link', { name: 'Book Now' }).isVisible());
    t.equal(await close.locator('path').getAttribute('d'), 'M6 6l12 12M18 6L6 18', 'the icon is a cross');

    await close.click();
    await page.getByRole('button', { name: 'Open menu' }).waitFor();
    t.equal(await nav.getByRole('link', { name: 'Services' }).isVisible(), false, 'closed again');
    t.equal(await page.getByRole('button', { name: 'Open menu' }).locator('path').getAttribute('d'), 'M4 6h16M4 12h16M4 18h16', 'three bars again');
    t.same(problems, { consoleErrors: [], failedRequests: [], cspViolations: [] });
    await page.context().close();
  });

  t.test('without JavaScript the links are still reachable on a phone', async (t) => {
    const { page } = await openPage(browser, 390, { javaScript: false });
    await page.goto(`${baseUrl(app)}/`);
    const nav = page.getByRole('navigation', { name: 'Main' });
    t.ok(await nav.getByRole('link', { name: 'Services' }).isVisible());
    t.equal(await page.locator('.menu-toggle').isVisible(), false);
    await page.context().close();
  });
});
