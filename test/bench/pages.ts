/**
 * `npm run bench` (first part): how close the cached, server-rendered pages come to serving the
 * same bytes from memory. The production build runs as its own process, as the image runs it (on
 * a new embedded data directory, request logging on, written to /dev/null so the terminal's
 * speed does not count), and so do a bare Node `http` server and a bare Fastify route that send
 * each page's bytes (its compressed body and its headers) from memory; autocannon drives one of
 * them at a time from a fourth process. Each page is warmed up, then measured in alternating
 * rounds (app, Node, Fastify, app, …) and compared by the medians, so that a slow moment of the
 * machine does not decide the ratio. Issue 24's target: the app ≥ 0.75× the bare Node server,
 * with the access line on. BENCH_PAGES (comma-separated paths) measures only those pages.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT_DIR } from '../../src/paths.ts';
import { rssMb, startBareFastify, startBareNode, startBuiltServer, stop, wireAnswer } from './processes.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = 50;
const PAGES = process.env.BENCH_PAGES?.split(',') ?? ['/', '/pricing', '/booking', '/booking?package=ceramic-coating', '/contact'];
const TARGET = 0.75;

const AUTOCANNON = path.join(ROOT_DIR, 'node_modules/.bin/autocannon');

/** The CPU time a process has used so far, in microseconds (user and system, from /proc). */
async function cpuMicros(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
}
const CLOCK_TICKS = 100;

/**
 * Requests per second, and the server's CPU time per request: on a machine shared with other
 * work the rate moves with the neighbours' load, the CPU a request costs much less.
 */
async function measure(url: string, pid: number, seconds = DURATION): Promise<{ rate: number; cpu: number }> {
  const before = await cpuMicros(pid);
  const { stdout } = await promisify(execFile)(AUTOCANNON, ['--json', '-c', String(CONNECTIONS), '-d', String(seconds), '-H', 'accept-encoding=br', url], { maxBuffer: 16 << 20 });
  const result = JSON.parse(stdout) as { non2xx: number; errors: number; requests: { average: number; total: number } };
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rate: result.requests.average, cpu: ((await cpuMicros(pid)) - before) / result.requests.total };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const dataDir = await mkdtemp(path.join(tmpdir(), 'valet-bench-pages-'));
// BENCH_PAGES_DATABASE_URL: on that PostgreSQL database instead (its first start skips initdb).
const database: Record<string, string> = process.env.BENCH_PAGES_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_PAGES_DATABASE_URL } : { DATA_DIR: dataDir };
const app = await startBuiltServer({ ...database, LOG_LEVEL: 'info', LOG_REQUESTS: 'all' });
try {
  console.log(
    `\nCached pages of the production build against a bare Node \`http\` server and a bare Fastify route sending the same bytes, ${CONNECTIONS} connections, median of ${ROUNDS} alternating ${DURATION} s rounds, request logging on (target: app ≥ ${TARGET}× bare Node)\n`,
  );
  console.log('| page | app (req/s) | bare Node (req/s) | bare Fastify (req/s) | app / Node (target ≥ 0.75×) | app / Fastify | CPU per request: app / bare Node (µs) | bare Node / app, by CPU |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const page of PAGES) {
    const sample = await wireAnswer(`${app.base}${page}`, { 'accept-encoding': 'br' });
    if (sample.headers['content-encoding'] !== 'br') throw new Error(`${page}: not sent brotli-compressed`);
    const node = await startBareNode(sample);
    const fastify = await startBareFastify(sample);
    try {
      const servers = [app, node, fastify];
      for (const server of servers) await measure(`${server.base}${page}`, server.child.pid!, 1);
      const rates: number[][] = servers.map(() => []);
      const cpus: number[][] = servers.map(() => []);
      for (let round = 0; round < ROUNDS; round += 1) {
        for (const [i, server] of servers.entries()) {
          const { rate, cpu } = await measure(`${server.base}${page}`, server.child.pid!);
          rates[i]!.push(rate);
          cpus[i]!.push(cpu);
        }
      }
      const [appRate, nodeRate, fastifyRate] = rates.map(median) as [number, number, number];
      const [appCpu, nodeCpu] = cpus.map(median) as [number, number];
      const ratio = appRate / nodeRate;
      console.log(
        `| \`${page}\` | ${appRate.toFixed(0)} | ${nodeRate.toFixed(0)} | ${fastifyRate.toFixed(0)} | ${ratio.toFixed(2)}× ${ratio >= TARGET ? '✓' : '✗'} | ${(appRate / fastifyRate).toFixed(2)}× | ${appCpu.toFixed(0)} / ${nodeCpu.toFixed(0)} | ${(nodeCpu / appCpu).toFixed(2)}× |`,
      );
    } finally {
      await stop(node.child);
      await stop(fastify.child);
    }
  }
  console.log(`\nThe app server's RSS at the end, on ${process.env.BENCH_PAGES_DATABASE_URL ? 'PostgreSQL' : 'the embedded database'}: ${(await rssMb(app.child)).toFixed(0)} MB (target ≤ 200 MB on the embedded database; the booking run below gives it on PostgreSQL, target ≤ 150 MB)`);
} finally {
  await stop(app.child);
  await rm(dataDir, { recursive: true, force: true });
}
