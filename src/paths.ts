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
 * How the built server is started (the Docker image's CMD, `npm start`, the benchmarks):
 * `node <flags> dist/server/server.js`. `--optimize-for-size`: V8 keeps a young generation of
 * 1 MB (whatever `--max-semi-space-size` says: checked on Node 20 and 24; without the flag it
 * grows to 32 MB on Node 20 and 64 MB on Node 24), grows the old generation in smaller steps and
 * keeps less free space. Measured after the booking benchmark (`npx tsx test/bench/booking.ts`,
 * 2026-11-27): without it the server's RSS was 180–227 MB on PostgreSQL and 217–301 MB on the
 * embedded database (semi-spaces of 1, 2, 4 or 8 MB), against 118–120 and 194–197 MB with it.
 * Its price is CPU: a cached page `/` took 68 µs per request with it and 57–63 without, and the
 * 62-day availability's p95 was 18–20 ms against 8. An
 * earlier `--max-semi-space-size=8` beside it had no effect and is gone. `--no-liftoff`: the
 * embedded database's WebAssembly is compiled by the optimizing compiler only, as each function
 * is first called, without V8's baseline copy first (50-60 MB of machine code for the functions
 * PostgreSQL runs, kept for as long as the process lives): about 30 MB less on the embedded
 * database, for about 3 s more to start on it (issue 24). Nothing else in the server is WebAssembly.
 */
export const SERVER_NODE_FLAGS = ['--optimize-for-size', '--no-liftoff'];
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
