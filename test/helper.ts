/**
 * Builds the real application for a test, on an in-memory PGlite database or on a fresh
 * database of its own on the PostgreSQL server named by TEST_DATABASE_URL (or DATABASE_URL).
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import argon2 from 'argon2';
import pg from 'pg';
import type { DestinationStream } from 'pino';
import type { Test } from 'tap';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { ROOT_DIR } from '../src/paths.ts';
import { testNow } from './support/payloads.ts';
import { pgliteSnapshot } from './support/pglite-snapshot.ts';
import { migratedTemplate } from './support/server-template.ts';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.ts';

export type Backend = 'pglite' | 'postgres';

export const TEST_ADMIN_PASSWORD = 'correct horse battery staple';

const serverUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || undefined;

// Every test connection to the PostgreSQL server plans the app's prepared statements
// (src/db/prepared-statements.ts) generically from their first run. A statement that works only
// with a plan made for its values (an ON CONFLICT whose partial index's predicate is a parameter,
// say) then fails in the first test that runs it, not on its sixth run on one connection in
// production, when PostgreSQL may switch to the generic plan. Results are the same either way.
process.env.PGOPTIONS = [process.env.PGOPTIONS, '-c plan_cache_mode=force_generic_plan'].filter(Boolean).join(' ');

/**
 * The backends each database test runs on: TEST_BACKENDS when given (`postgres`, `pglite` or
 * both, comma-separated: CI runs one pass on each), else PGlite and, when one is configured, the
 * PostgreSQL server too. The first is also where a test that names no backend runs.
 */
const chosenBackends: Backend[] = (() => {
  const given = process.env.TEST_BACKENDS?.split(',').map((b) => b.trim()).filter(Boolean);
  if (!given?.length) return serverUrl ? ['pglite', 'postgres'] : ['pglite'];
  for (const backend of given) {
    if (backend !== 'pglite' && backend !== 'postgres') throw new Error(`TEST_BACKENDS: unknown backend ${backend} (pglite, postgres)`);
    if (backend === 'postgres' && !serverUrl) throw new Error('TEST_BACKENDS names postgres but no server is configured (TEST_DATABASE_URL)');
  }
  return given as Backend[];
})();

/**
 * TEST_PGLITE_TOO: test files (paths from the project root, separated by spaces or commas) that
 * run on PGlite as well as on the backends chosen, in the same process, one after the other. CI
 * runs the whole suite on the PostgreSQL server and, this way, the files about what the database
 * itself guarantees on the embedded one too, in one pass rather than a second one.
 */
const pgliteToo = (() => {
  const listed = (process.env.TEST_PGLITE_TOO ?? '').split(/[\s,]+/).filter(Boolean);
  const file = process.argv[1] ? path.relative(ROOT_DIR, path.resolve(process.argv[1])) : '';
  return listed.includes(file) && !chosenBackends.includes('pglite');
})();

export function backends(): Backend[] {
  return pgliteToo ? [...chosenBackends, 'pglite'] : chosenBackends;
}

/** Runs `fn` once per backend, each as its own subtest named after the backend. */
export async function forEachBackend(t: Test, fn: (t: Test, backend: Backend) => Promise<void>): Promise<void> {
  for (const backend of backends()) {
    await t.test(backend, (st) => fn(st, backend));
  }
}

export interface TestAppOptions {
  backend?: Backend;
  /** Environment variables on top of the test defaults. */
  env?: Record<string, string>;
  /** Start listening on a random local port (for browser tests). */
  listen?: boolean;
  /** Receives the app's log lines. */
  logStream?: DestinationStream;
  /** The app's clock for business dates; pinned to the test file's `testNow` unless given. */
  now?: () => Date;
  /** Sees every route as it is registered. */
  onRoute?: (route: import('fastify').RouteOptions) => void;
}

/**
 * A database of its own on the PostgreSQL server, dropped when the test ends: empty, or with
 * `migrated`, a copy of the migrated template (test/support/server-template.ts), as a test app's is.
 */
export async function createServerDatabase(t: Test, options: { migrated?: boolean } = {}): Promise<string> {
  if (!serverUrl) throw new Error('No PostgreSQL server configured (TEST_DATABASE_URL)');
  const name = `test_${randomBytes(6).toString('hex')}`;
  const template = options.migrated ? ` TEMPLATE ${await migratedTemplate(serverUrl)}` : '';
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template}`);
  await admin.end();
  t.teardown(async () => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A database of its own on the PostgreSQL server, reached through a TCP proxy that the test can
 * cut and restore to play an outage without touching the real server.
 */
export async function proxiedServerDatabase(t: Test): Promise<{ url: string; proxy: TcpProxy }> {
  const direct = new URL(await createServerDatabase(t));
  const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
  t.teardown(() => proxy.close());
  const viaProxy = new URL(direct);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  return { url: viaProxy.toString(), proxy };
}

let passwordHash: Promise<string> | undefined;

/** TEST_ADMIN_PASSWORD hashed once per test process with the cheapest parameters the app accepts. */
function testPasswordHash(): Promise<string> {
  passwordHash ??= argon2.hash(TEST_ADMIN_PASSWORD, { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 });
  return passwordHash;
}

export async function testConfig(t: Test, options: TestAppOptions = {}): Promise<Config> {
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: 'memory://',
    RATE_LIMIT_FORMS_MAX: '1000',
    RATE_LIMIT_LOGIN_MAX: '1000',
    RATE_LIMIT_BOOKINGS_PER_DAY: '100000',
    RATE_LIMIT_LOGIN_FAILURES_MAX: '100000',
    RATE_LIMIT_FORMS_PER_DAY: '100000',
    BOOKING_MAX_ACTIVE_PER_EMAIL: '1000',
    // The hourly brake on new customers' bookings is tested on its own (test/booking-brake.test.ts);
    // off here, as for a load test, since several tests make dozens of bookings in one app.
    ONLINE_NEW_BOOKINGS_PER_HOUR: '0',
    // The bot checks of the no-JavaScript forms are tested on their own (test/abuse-limits.test.ts).
    FORM_MIN_SECONDS: '0',
    // How long a request waits for one of the pool's connections before answering 503. The tests
    // that fire dozens of requests at once (scheduling-concurrency, idempotency) queue them on the
    // pool, and on a busy 2-core machine the queue outlasted the production 2 s: a 503 that says
    // nothing of the races they check. The outage tests set their own (and test/operations.test.ts
    // checks the fail-fast answer).
    DB_CONNECT_TIMEOUT_MS: '30000',
    ...options.env,
  };
  // The staff password as a ready-made hash at OWASP's minimum cost, unless the test chose one:
  // hashing ADMIN_PASSWORD at argon2's full cost for every app, and verifying every sign-in at
  // it, cost about a second each on a busy 2-core machine.
  if (!('ADMIN_PASSWORD' in env) && !('ADMIN_PASSWORD_HASH' in env)) env.ADMIN_PASSWORD_HASH = await testPasswordHash();
  // A test that names no backend runs on the first one, unless it chose a data directory of its own.
  const backend = options.backend ?? (options.env?.DATA_DIR ? 'pglite' : chosenBackends[0]);
  if (backend === 'postgres' && !env.DATABASE_URL) env.DATABASE_URL = await createServerDatabase(t, { migrated: true });
  return loadConfig(env);
}

export async function buildTestApp(t: Test, options: TestAppOptions = {}): Promise<App> {
  const config = await testConfig(t, options);
  // An in-memory embedded database starts from the migrated snapshot instead of running initdb.
  const snapshot = !config.databaseUrl && config.dataDir === 'memory://' ? await pgliteSnapshot() : undefined;
  const app = await buildApp(config, {
    logStream: options.logStream,
    now: options.now ?? (() => testNow),
    onRoute: options.onRoute,
    pgliteSnapshot: snapshot,
  });
  t.teardown(() => app.close());
  if (options.listen) {
    await app.listen({ port: 0, host: '127.0.0.1' });
  } else {
    await app.ready();
  }
  return app;
}

/** Base URL of an app started with `listen: true`. */
export function baseUrl(app: App): string {
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('app is not listening on TCP');
  return `http://127.0.0.1:${address.port}`;
}

/** The address of the client entry a page's boot script loads (the first module it names). */
export function entryScriptOf(html: string): string {
  const entry = /<script data-modules="([^" ]+)/.exec(html)?.[1];
  if (!entry) throw new Error('the page names no entry script');
  return entry;
}

/** Signs in as staff and returns the Cookie header to send with later requests. */
export async function login(app: App, password = TEST_ADMIN_PASSWORD): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { password } });
  if (res.statusCode !== 204) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const cookie = res.cookies[0];
  if (!cookie) throw new Error('login set no cookie');
  return `${cookie.name}=${cookie.value}`;
}
