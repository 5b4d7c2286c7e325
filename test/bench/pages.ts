/**
 * `npm run bench` (first part): how close the cached, server-rendered pages come to serving the
 * same bytes from memory. The production build runs as its own process, as the image runs it (on
 * a new embedded data directory, request logging on, written to /dev/null so the terminal's
 * speed does not count), and so does a bare Fastify route that sends each page's bytes (its
 * compressed body and its headers) from memory; autocannon drives one of them at a time from a
 * third process. Each page is warmed up, then measured in
 * alternating rounds (app, bare, app, bare, …) and compared by the medians, so that a slow
 * moment of the machine does not decide the ratio. Issue 13's target: ≥ 0.9×.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT_DIR } from '../../src/paths.ts';
import { rssMb, startBareFastify, startBuiltServer, stop } from './processes.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = 50;
const PAGES = ['/', '/pricing', '/booking', '/booking?package=ceramic-coating'];

const AUTOCANNON = path.join(ROOT_DIR, 'node_modules/.bin/autocannon');

async function measure(url: string, seconds = DURATION): Promise<number> {
  const { stdout } = await promisify(execFile)(AUTOCANNON, ['--json', '-c', String(CONNECTIONS), '-d', String(seconds), '-H', 'accept-encoding=br', url], { maxBuffer: 16 << 20 });
  const result = JSON.parse(stdout) as { non2xx: number; errors: number; requests: { average: number } };
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.average;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const dataDir = await mkdtemp(path.join(tmpdir(), 'valet-bench-pages-'));
const app = await startBuiltServer({ DATA_DIR: dataDir, LOG_LEVEL: 'info', LOG_REQUESTS: 'all' });
try {
  console.log(
    `\nCached pages of the production build against a bare Fastify route sending the same bytes, ${CONNECTIONS} connections, median of ${ROUNDS} alternating ${DURATION} s rounds, request logging on (target ≥ 0.9×)\n`,
  );
  console.log('| page | app (req/s) | bare Fastify (req/s) | ratio |');
  console.log('|---|---:|---:|---:|');
  for (const page of PAGES) {
    const sample = await fetch(`${app.base}${page}`, { headers: { 'accept-encoding': 'br' } });
    if (sample.headers.get('content-encoding') !== 'br') throw new Error(`${page}: not sent brotli-compressed`);
    const bare = await startBareFastify(sample);
    try {
      await measure(`${app.base}${page}`, 1);
      await measure(`${bare.base}${page}`, 1);
      const appRates: number[] = [];
      const bareRates: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        appRates.push(await measure(`${app.base}${page}`));
        bareRates.push(await measure(`${bare.base}${page}`));
      }
      const [appRate, bareRate] = [median(appRates), median(bareRates)];
      console.log(`| \`${page}\` | ${appRate.toFixed(0)} | ${bareRate.toFixed(0)} | ${(appRate / bareRate).toFixed(2)}× |`);
    } finally {
      await stop(bare.child);
    }
  }
  console.log(`\nThe app server's RSS at the end, on the embedded database: ${(await rssMb(app.child)).toFixed(0)} MB (target ≤ 150 MB; the booking run below gives it on PostgreSQL)`);
} finally {
  await stop(app.child);
  await rm(dataDir, { recursive: true, force: true });
}
