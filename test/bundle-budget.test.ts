/**
 * The performance budget of issue 3, checked on the production build: no page loads more than
 * 80 KB of gzipped JavaScript or 15 KB of gzipped CSS. Sizes, not timings, so the check is exact.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import t from 'tap';
import { CLIENT_DIST_DIR } from '../src/paths.ts';
import { loadClientAssets } from '../src/render/assets.ts';
import { PAGES, NOT_FOUND_PAGE } from '../client/routes.ts';

const KB = 1024;
const gzipped = (url: string) => gzipSync(readFileSync(path.join(CLIENT_DIST_DIR, url))).length;
const total = (urls: string[]) => [...new Set(urls)].reduce((sum, url) => sum + gzipped(url), 0);

t.test('every page stays within its JavaScript and CSS budgets', async (t) => {
  const assets = loadClientAssets(CLIENT_DIST_DIR);
  for (const module of new Set([...PAGES, NOT_FOUND_PAGE].map((page) => page.module))) {
    const page = assets.pages[module];
    t.ok(page, `${module} has its own chunk`);
    const js = total([assets.script, ...page!.scripts]);
    const css = total([...assets.styles, ...page!.styles]);
    t.ok(js <= 80 * KB, `${module}: ${(js / KB).toFixed(1)} KB of JavaScript`);
    t.ok(css <= 15 * KB, `${module}: ${(css / KB).toFixed(1)} KB of CSS`);
  }
});

t.test('the toast library is loaded only when a toast is shown, and stays small', async (t) => {
  const manifest = JSON.parse(readFileSync(path.join(CLIENT_DIST_DIR, '.vite/manifest.json'), 'utf8'));
  const toaster = manifest['lib/toaster.tsx'];
  t.ok(toaster?.isDynamicEntry, 'a chunk of its own, imported on demand');
  const js = gzipped(toaster.file);
  const css = total(toaster.css);
  t.ok(js <= 8 * KB, `react-toastify: ${(js / KB).toFixed(1)} KB of JavaScript`);
  t.ok(css <= 4 * KB, `react-toastify: ${(css / KB).toFixed(1)} KB of CSS`);
});
