/**
 * Issue 42 in Chromium: the owner's Backups panel on a phone (390 px): the empty list, "Back up
 * now", the new backup listed with its download link, which fetches the file itself. Nothing wider
 * than the screen, and axe finds no violation.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import type { Page } from 'playwright-core';
import { baseUrl, buildTestApp } from '../helper.ts';
import { seededDataDir } from '../support/pglite-snapshot.ts';
import { axeViolations, launchBrowser, openPage, openView, signIn } from '../support/browser.ts';

const fits = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

t.test('the Backups panel in Chromium at 390 px', async (t) => {
  const browser = await launchBrowser(t);
  const dataDir = await seededDataDir(t);
  const app = await buildTestApp(t, { listen: true, env: { DATA_DIR: dataDir, BACKUP_EVERY_HOURS: '24' } });
  const { page, problems } = await openPage(browser, 390);
  await signIn(page, baseUrl(app));
  await openView(page, 'Backups');
  await page.getByRole('heading', { name: 'Backups', level: 2 }).waitFor();
  await page.getByText('No backups yet.').waitFor();
  t.match(await page.locator('.backups').innerText(), /every 24 hours; the newest 14 are kept/);
  t.same(await axeViolations(page), [], 'no axe violation on the empty panel');

  // A backup takes as long as the machine lets it (a copy, then a process that dumps it): the test
  // waits for the server's answer itself, bounded by the test's own limit rather than a click's.
  const answered = page.waitForResponse((res) => res.url().endsWith('/v1/backups') && res.request().method() === 'POST', { timeout: 0 });
  await page.getByRole('button', { name: 'Back up now' }).click();
  t.equal((await answered).status(), 201, 'the backup is taken');
  await page.getByRole('status').filter({ hasText: 'Backup taken:' }).waitFor();
  // The list is read again after the answer: its row is waited for, not assumed there with the status.
  const rows = page.locator('.backups-table tbody tr');
  await rows.first().waitFor();
  t.equal(await rows.count(), 1, 'listed');
  const [file] = await app.backups.list();
  t.match(await rows.first().innerText(), new RegExp(file!.schemaVersion.slice(0, 3)));
  t.ok(await fits(page), 'nothing wider than the screen');
  t.same(await axeViolations(page), [], 'no axe violation with a backup listed');

  const [download] = await Promise.all([page.waitForEvent('download'), rows.first().getByRole('link', { name: /^Download/ }).click()]);
  t.equal(download.suggestedFilename(), file!.name);
  const saved = await download.path();
  t.same(await readFile(saved!), await readFile(path.join(dataDir, 'backups', file!.name)), 'the download is the file');
  t.same(problems.consoleErrors, []);
  t.same(problems.cspViolations, []);
  await page.context().close();
});
