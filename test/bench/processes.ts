/**
 * The benchmarks' servers as processes of their own: the built server (`dist/server/server.js`,
 * as the Docker image runs it) and a bare Fastify that sends fixed bytes, so that neither shares
 * a process, a heap or an event loop with the load generator or with the other.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { get } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { ROOT_DIR, SERVER_ENTRY, SERVER_MALLOC_ENV, serverNodeFlags } from '../../src/paths.ts';
import { freePort } from '../support/server-process.ts';

export const BENCH_PASSWORD = 'benchmark-only-password';

export interface BenchServer {
  child: ChildProcess;
  base: string;
  /** From the spawn to the first 200 from /readyz. */
  readyMs: number;
}

async function started(child: ChildProcess, base: string, since: number, readyPath: string): Promise<BenchServer> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const ready = await fetch(`${base}${readyPath}`).then((res) => res.status === 200, () => false);
    if (ready) return { child, base, readyMs: performance.now() - since };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The server's V8 flags: those for its database (as `npm start` and the image choose), or BENCH_NODE_FLAGS (space-separated) instead, to compare others. */
const nodeFlags = (env: Record<string, string>) => process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? serverNodeFlags(env);

/** The production build, started as `npm start` starts it (the flags for its database and the allocator settings), with `env` on top of production defaults; its log goes to /dev/null. */
export async function startBuiltServer(env: Record<string, string>): Promise<BenchServer> {
  const port = await freePort();
  const since = performance.now();
  const child = spawn(process.execPath, [...nodeFlags(env), path.join(ROOT_DIR, SERVER_ENTRY)], {
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', ...SERVER_MALLOC_ENV, HOST: '127.0.0.1', PORT: String(port), ADMIN_PASSWORD: BENCH_PASSWORD, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return started(child, `http://127.0.0.1:${port}`, since, '/readyz');
}

const BARE_SERVER = `
import Fastify from 'fastify';
const [port, headers, body] = [Number(process.argv[1]), JSON.parse(process.argv[2]), Buffer.from(process.argv[3], 'base64')];
const app = Fastify();
app.get('/*', (_request, reply) => reply.headers(headers).send(body));
await app.listen({ port, host: '127.0.0.1' });
`;

const BARE_NODE_SERVER = `
import { createServer } from 'node:http';
const [port, headers, body] = [Number(process.argv[1]), JSON.parse(process.argv[2]), Buffer.from(process.argv[3], 'base64')];
createServer((_request, response) => {
  response.writeHead(200, { ...headers, 'content-length': body.length });
  response.end(body);
}).listen(port, '127.0.0.1');
`;

/** Headers a server writes for itself, whatever the route sets. */
const CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** An answer as it came over the wire: its headers and its body's bytes, still compressed. */
export interface WireAnswer {
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/**
 * GET `url` as the bytes the server sends. Not `fetch`: it decompresses the body and keeps the
 * Content-Encoding header, so that a server sending its "same bytes" would send the whole page
 * uncompressed under a `br` label, five times the bytes of the compressed answer.
 */
export function wireAnswer(url: string, headers: Record<string, string>): Promise<WireAnswer> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ headers: response.headers as Record<string, string | string[]>, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    }).on('error', reject);
  });
}

/**
 * A bare Fastify route answering every GET with the same bytes as `sample`: its body and its
 * headers (security headers, ETag, encoding), so that what differs is the work done per request.
 */
export async function startBareFastify(sample: WireAnswer): Promise<BenchServer> {
  return startBare(BARE_SERVER, sample);
}

/** A bare Node `http` server (no framework) answering every request with the same bytes as `sample`. */
export async function startBareNode(sample: WireAnswer): Promise<BenchServer> {
  return startBare(BARE_NODE_SERVER, sample);
}

async function startBare(source: string, sample: WireAnswer): Promise<BenchServer> {
  const headers = Object.fromEntries(Object.entries(sample.headers).filter(([name]) => !CONNECTION_HEADERS.has(name)));
  const port = await freePort();
  const since = performance.now();
  const child = spawn(process.execPath, ['--input-type=module', '-e', source, String(port), JSON.stringify(headers), sample.body.toString('base64')], {
    cwd: ROOT_DIR,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return started(child, `http://127.0.0.1:${port}`, since, '/');
}

const SMTP_SINK = `
import { SMTPServer } from 'smtp-server';
let delivered = 0;
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  // Not the client's name from DNS: no resolver answers for loopback here, and each lookup waits.
  disableReverseLookup: true,
  onData(stream, _session, callback) {
    stream.on('data', () => {});
    stream.on('end', () => { delivered += 1; callback(); });
  },
});
server.listen(0, '127.0.0.1', () => process.send({ port: server.server.address().port }));
process.on('message', () => process.send({ delivered }));
`;

export interface SmtpSink {
  child: ChildProcess;
  url: string;
  /** How many messages it has accepted so far. */
  delivered(): Promise<number>;
}

/** An SMTP server on loopback, a process of its own, that accepts every message and keeps only their count. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', SMTP_SINK], { cwd: ROOT_DIR, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const next = <T>() => new Promise<T>((resolve) => child.once('message', (message) => resolve(message as T)));
  const { port } = await next<{ port: number }>();
  return {
    child,
    url: `smtp://127.0.0.1:${port}`,
    delivered: async () => {
      const answer = next<{ delivered: number }>();
      child.send('count');
      return (await answer).delivered;
    },
  };
}

/** The process's resident memory, from /proc. */
export async function rssMb(child: ChildProcess): Promise<number> {
  const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * The PostgreSQL database a benchmark may fill: BENCH_DATABASE_URL as it is, else a fresh one on
 * TEST_DATABASE_URL's server, dropped afterwards; undefined when neither is set.
 */
export async function serverDatabase(): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  if (process.env.BENCH_DATABASE_URL) return { url: process.env.BENCH_DATABASE_URL, drop: async () => {} };
  const server = process.env.TEST_DATABASE_URL;
  if (!server) return undefined;
  const name = `bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: server });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
