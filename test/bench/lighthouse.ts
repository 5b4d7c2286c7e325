/**
 * `npm run bench` (last part): Lighthouse's mobile profile (simulated slow 4G and a 4× slower CPU,
 * its defaults) on every public page of the production build, each page's four category scores
 * and its Largest Contentful Paint beside issue 24's targets (100 in each category, LCP ≤ 1.2 s).
 * Lighthouse itself is fetched by npx at a pinned version when the benchmark runs (it is not a
 * dependency of the site or of its tests) and drives the same Chromium as the browser tests.
 * Its performance score moves with the machine's load: read it on a quiet machine.
 * BENCH_LIGHTHOUSE_PAGES (comma-separated paths) measures only those pages; BENCH_LIGHTHOUSE=0 skips it.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PAGES } from '../../client/routes.ts';
import { chromiumChoice } from '../support/chromium.ts';
import { startBuiltServer, stop } from './processes.ts';

const LIGHTHOUSE = 'lighthouse@13.5.0';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const LCP_TARGET_MS = 1200;

interface LighthouseResult {
  categories: Record<(typeof CATEGORIES)[number], { score: number | null }>;
  audits: Record<string, { numericValue?: number }>;
}

if (process.env.BENCH_LIGHTHOUSE === '0') {
  console.log('\nLighthouse: skipped (BENCH_LIGHTHOUSE=0)');
  process.exit(0);
}

// Every public page the site lists (the dashboard, the invitation and a customer's own pages are not public).
const pages = process.env.BENCH_LIGHTHOUSE_PAGES?.split(',') ?? PAGES.filter((page) => page.group !== 'none').map((page) => page.path);

const chromium = await chromiumChoice();
const dataDir = await mkdtemp(path.join(tmpdir(), 'valet-bench-lighthouse-'));
const app = await startBuiltServer({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
const run = promisify(execFile);

/**
 * One Lighthouse run of the page; a run whose trace Lighthouse could not record (its own
 * NO_NAVSTART and similar runtime errors, seen now and then) is tried again, up to three times.
 */
async function lighthouse(page: string): Promise<LighthouseResult | undefined> {
  const flags = [...(chromium.options.args ?? []), '--headless=new'].join(' ');
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      const { stdout } = await run(
        'npx',
        ['--yes', LIGHTHOUSE, `${app.base}${page}`, '--output=json', '--output-path=stdout', '--quiet', `--only-categories=${CATEGORIES.join(',')}`, `--chrome-flags=${flags}`],
        { env: { ...process.env, ...(chromium.options.env as Record<string, string> | undefined), CHROME_PATH: chromium.options.executablePath! }, maxBuffer: 64 * 1024 * 1024 },
      );
      const result = JSON.parse(stdout) as LighthouseResult & { runtimeError?: { code: string } };
      if (!result.runtimeError) return result;
    } catch (error) {
      console.error(`Lighthouse on ${page}, attempt ${attempt}: ${String((error as { stderr?: string }).stderr ?? error).split('\n')[0]}`);
    }
  }
  return undefined;
}

console.log(`\nLighthouse ${LIGHTHOUSE.split('@')[1]}, mobile profile, on ${chromium.source}; targets: 100 in every category, LCP ≤ ${LCP_TARGET_MS} ms`);
console.log('| page | performance | accessibility | best practices | SEO | LCP | met |');
console.log('|---|---|---|---|---|---|---|');
let missed = 0;
try {
  for (const page of pages) {
    const result = await lighthouse(page);
    if (!result) {
      missed += 1;
      console.log(`| \`${page}\` | error | | | | | no |`);
      continue;
    }
    const scores = CATEGORIES.map((category) => Math.round((result.categories[category].score ?? 0) * 100));
    const lcp = result.audits['largest-contentful-paint']?.numericValue ?? Number.NaN;
    const met = scores.every((score) => score === 100) && lcp <= LCP_TARGET_MS;
    if (!met) missed += 1;
    console.log(`| \`${page}\` | ${scores.join(' | ')} | ${(lcp / 1000).toFixed(2)} s | ${met ? 'yes' : 'no'} |`);
  }
} finally {
  await stop(app.child);
  await rm(dataDir, { recursive: true, force: true });
}
console.log(missed === 0 ? 'Every page met the targets.' : `${missed} of ${pages.length} pages missed a target.`);
