/**
 * `npm run bench`: how close the cached, server-rendered pages come to serving the same bytes
 * from memory. For each page it loads the real app (PGlite in memory) and a bare Fastify that
 * sends the page's (compressed) HTML from a buffer, and drives both with autocannon run as a
 * separate process, so that the load generator does not share the server's core.
 * Issue 3's goal: cached pages at close to the in-memory rate (rendering React per request
 * costs about 5.5 times as much).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import pino from 'pino';
import { ROOT_DIR } from '../../src/paths.ts';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;
const PAGES = ['/', '/pricing', '/booking', '/booking?package=ceramic-coating'];

const AUTOCANNON = path.join(ROOT_DIR, 'node_modules/.bin/autocannon');

async function measure(url: string): Promise<number> {
  const { stdout } = await promisify(execFile)(AUTOCANNON, ['--json', '-c', String(CONNECTIONS), '-d', String(DURATION), '-H', 'accept-encoding=br', url], { maxBuffer: 16 << 20 });
  const result = JSON.parse(stdout) as { non2xx: number; errors: number; requests: { average: number } };
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.average;
}

// Request logging on, as in production (one access line per request), written to /dev/null so
// that the terminal's speed does not count.
const logStream = pino.destination({ dest: '/dev/null', sync: false });
const app = await buildApp(
  loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'info', LOG_REQUESTS: 'all', DATA_DIR: 'memory://', ADMIN_PASSWORD: 'benchmark-only-password' }),
  { logStream },
);
await app.listen({ port: 0, host: '127.0.0.1' });
const appUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

console.log(`\nCached pages against a bare Fastify route sending the same bytes, ${CONNECTIONS} connections, ${DURATION} s each, request logging on (target ≥ 0.9×)\n`);
console.log('| page | app (req/s) | bare Fastify (req/s) | ratio |');
console.log('|---|---:|---:|---:|');
for (const page of PAGES) {
  const sample = await fetch(`${appUrl}${page}`, { headers: { 'accept-encoding': 'br' } });
  const body = Buffer.from(await sample.arrayBuffer());
  const baseline = Fastify();
  baseline.get('/*', (_request, reply) => reply.type('text/html; charset=utf-8').header('content-encoding', 'br').send(body));
  await baseline.listen({ port: 0, host: '127.0.0.1' });
  const baselineUrl = `http://127.0.0.1:${(baseline.server.address() as { port: number }).port}${page}`;

  const appRate = await measure(`${appUrl}${page}`);
  const memoryRate = await measure(baselineUrl);
  await baseline.close();
  console.log(`| \`${page}\` | ${appRate.toFixed(0)} | ${memoryRate.toFixed(0)} | ${(appRate / memoryRate).toFixed(2)}× |`);
}
console.log(`\nServer RSS at the end: ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB (target ≤ 150 MB; the app and the bare Fastify share this process)`);
await app.close();
