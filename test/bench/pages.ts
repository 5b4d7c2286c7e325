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

const app = await buildApp(loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'warn', DATA_DIR: 'memory://', ADMIN_PASSWORD: 'benchmark-only-password' }));
await app.listen({ port: 0, host: '127.0.0.1' });
const appUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

console.log(`pages, ${CONNECTIONS} connections, ${DURATION} s each (requests per second)`);
console.log('page'.padEnd(36), 'app'.padStart(8), 'memory'.padStart(8), 'ratio'.padStart(7));
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
  console.log(page.padEnd(36), appRate.toFixed(0).padStart(8), memoryRate.toFixed(0).padStart(8), (appRate / memoryRate).toFixed(2).padStart(7));
}
await app.close();
