/**
 * Where the project's files are, found from this module's own location so that the same code
 * works from `src/` (tsx), from the bundled `dist/server/` and inside the Docker image.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(start: string): string {
  let dir = start;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`No package.json above ${start}`);
    dir = parent;
  }
  return dir;
}

export const ROOT_DIR = findRoot(path.dirname(fileURLToPath(import.meta.url)));
export const MIGRATIONS_DIR = path.join(ROOT_DIR, 'migrations');
export const CLIENT_DIST_DIR = path.join(ROOT_DIR, 'dist', 'client');

/**
 * How the built server is started: `node <flags> dist/server/server.js`, with V8 flags for the
 * database it runs on. `npm start`, the tests' and the benchmarks' servers choose them by
 * `serverNodeFlags`; the Docker image's CMD has the embedded database's, and docker-compose.yml's
 * app services, on PostgreSQL, PostgreSQL's (test/production-boot.test.ts checks both). Each set was measured with the booking benchmark (`npx tsx
 * test/bench/booking.ts`, and its 5-connection part alone, alternating the sets).
 *
 * On the embedded database, memory first (RSS ≤ 200 MB, issue 24): `--optimize-for-size` makes V8
 * keep a young generation of 1 MB (whatever `--max-semi-space-size` says: checked on Node 20 and
 * 24; without the flag it grows to 32 MB on Node 20 and 64 MB on Node 24), grow the old generation
 * in smaller steps and keep less free space: 194–197 MB after the benchmark, against 217–301 MB
 * without it (semi-spaces of 1, 2, 4 or 8 MB) and 208 MB with the PostgreSQL set below. Its price
 * is CPU: a collection of the small young generation every few milliseconds under load (290–380
 * in a 5-second booking run, 8 % of the time, against 25–50 without the flag), a cached page `/`
 * at 68 µs per request against 57–63, the 62-day availability's p95 at 18–20 ms against 8.
 * `--no-liftoff`: the embedded database's WebAssembly is compiled by the optimizing compiler only,
 * as each function is first called, without V8's baseline copy first (50-60 MB of machine code
 * for the functions PostgreSQL runs, kept for as long as the process lives): about 30 MB less,
 * for about 3 s more to start.
 *
 * On a PostgreSQL server, where the database's memory is not the process's (RSS ≤ 150 MB):
 * young-generation semi-spaces of 4 MB, and an old generation that grows by 10 % at a time
 * (`--heap-growing-percent`; V8 otherwise lets a small heap grow up to fourfold before collecting
 * it). Against the embedded set, in six alternating 5-second runs at 5 connections (2026-11-28):
 * 107–134 bookings a second (median 118) against 69–107 (103), p99 74–92 ms (median 80) against
 * 93–226 (104), RSS after the runs 129–132 MB against 118. Without the growth limit RSS was
 * 146–208 MB, and with 16 MB semi-spaces 154 MB, neither faster. Nothing on this path is
 * WebAssembly, so `--no-liftoff` would change nothing. `--no-maglev`: Node 22 and later (the
 * image's Node 24) compile hot code with Maglev before TurboFan, and on Node 24.21 that ended the
 * booking benchmark at 149–155 MB (five runs) against 144–145 without it (four), the rates within
 * their spread; Node 20 has no Maglev by default, so there it changes nothing. On the embedded
 * database it saved nothing (216 MB either way on Node 24, which then ended there at 216–221 MB
 * against Node 20's 193–195; what brought it under 200 is in embeddedNodeFlags).
 */
const EMBEDDED_FLAGS: readonly string[] = ['--optimize-for-size', '--no-liftoff'];
export const POSTGRES_NODE_FLAGS: readonly string[] = ['--heap-growing-percent=10', '--max-semi-space-size=4', '--no-maglev'];

/** The major version of the Node running this code (a server it starts runs on the same binary). */
export const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/**
 * The embedded database's flags for Node `nodeMajor`. From Node 24 (V8 13.6) on, V8 inlines
 * WebAssembly functions into each other by default (`--wasm-inlining`); with every PGlite
 * function compiled by the optimizing compiler (`--no-liftoff`) that inlining made the server
 * start about 2 s later and hold more machine code, so it is turned off there, as Node 20 and 22
 * have it. Measured on Node 24.22 (2026-11-28, alternating): a later start 3.1–3.3 s and 159–163 MB
 * against 5.3–5.5 s and 168–172; a first start 7.3–7.7 s against 10.6–11.3; after the booking
 * benchmark 191–192 MB against 204 (its bookings 122–128 a second against 115–120). Node 25 the
 * same (3.1 s against 5.4). Node 22 does not know the flag (it would refuse to start) and does
 * not inline by default; Node 23 inlines under the flag's older name, `--experimental-wasm-inlining`,
 * and started as fast without turning it off (3.3 s), so nothing is added below 24.
 */
export function embeddedNodeFlags(nodeMajor: number = NODE_MAJOR): readonly string[] {
  return nodeMajor >= 24 ? [...EMBEDDED_FLAGS, '--no-wasm-inlining'] : EMBEDDED_FLAGS;
}

/** The V8 flags for a server started with `env` on this Node: on PostgreSQL when it names a DATABASE_URL. */
export function serverNodeFlags(env: { DATABASE_URL?: string | undefined }): readonly string[] {
  return env.DATABASE_URL ? POSTGRES_NODE_FLAGS : embeddedNodeFlags();
}

export const SERVER_ENTRY = 'dist/server/server.js';

/**
 * glibc's allocator, as the built server is started (the image's ENV, `npm start`, the tests'
 * and benchmarks' servers; an operator's own value wins): two arenas instead of eight per core,
 * memory above 32 KB freed back to the system from the top of the heap, and blocks of 32 KB and
 * more in mappings of their own (returned when freed) rather than the heap. 32 KB is the size of
 * V8's compiler zones' largest segments: at 64 KB and above, the zones of the embedded database's
 * WebAssembly compilation (about 47 MB at their peak, on start-up and as PostgreSQL first runs
 * each function) stay in the heap as free but resident holes. Measured after the booking benchmark
 * (`npx tsx test/bench/booking.ts`, 2026-11-27), the embedded database's server: 214–219 MB at
 * 128 KB and 64 KB, 195–196 MB at 32 KB (194 MB at 16 KB, with its bookings 15 % slower); on
 * PostgreSQL 125 → 120 MB; start on the embedded database about 0.7 s longer, and its bookings
 * per second about 8 % fewer (no difference the benchmark can tell on PostgreSQL or on the cached
 * pages). Before any of these settings: 236–237 MB after the page benchmark. Ignored by other C
 * libraries.
 */
export const SERVER_MALLOC_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_TRIM_THRESHOLD_: '32768',
  MALLOC_MMAP_THRESHOLD_: '32768',
};
