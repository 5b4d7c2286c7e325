/**
 * A migrated embedded database to start each PGlite test app from. A fresh PGlite runs initdb in
 * WebAssembly and then every migration: several seconds per app on a busy 2-core machine. Loading
 * a dump of the same state takes a fraction of that. The dump is made once per set of migrations
 * and PGlite version, kept in the system's temporary directory and shared by every test process
 * (written under a temporary name and renamed, so that no process reads a half-written one).
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Test } from 'tap';
import { openDatabase, pgliteExtensions } from '../../src/db/connect.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';
import { MIGRATIONS_DIR, ROOT_DIR } from '../../src/paths.ts';

let snapshot: Promise<Blob> | undefined;

/** The dump for the migrations as they are now; made on first use. */
export function pgliteSnapshot(): Promise<Blob> {
  snapshot ??= loadOrMake();
  return snapshot;
}

async function loadOrMake(): Promise<Blob> {
  const file = path.join(tmpdir(), `auckland-valet-pglite-${await stateKey()}.tar`);
  try {
    return new Blob([await readFile(file)]);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const handle = await openDatabase({ databaseUrl: undefined, dataDir: 'memory://', poolMax: 1, connectTimeoutMs: 10_000 }, console);
  let dump: Blob;
  try {
    await migrateToLatest(handle.db);
    dump = await handle.dumpDataDir!();
  } finally {
    await handle.close();
  }
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, new Uint8Array(await dump.arrayBuffer()));
  await rename(temporary, file);
  return dump;
}

/** Changes whenever a migration or the PGlite version does. */
async function stateKey(): Promise<string> {
  const hash = createHash('sha256');
  // The package does not export its package.json; read it where npm put it.
  hash.update(await readFile(path.join(ROOT_DIR, 'node_modules/@electric-sql/pglite/package.json')));
  for (const name of (await readdir(MIGRATIONS_DIR)).sort()) {
    hash.update(`${name}\n`).update(await readFile(path.join(MIGRATIONS_DIR, name)));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * A data directory holding the migrated snapshot, as a first start leaves one, for tests of what
 * happens on an existing embedded database: without the initdb and migrations (a fresh
 * directory's first start is tested on its own, in test/auth.test.ts).
 */
export async function seededDataDir(t: Test): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'valet-seeded-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const [{ PGlite }, extensions] = await Promise.all([import('@electric-sql/pglite'), pgliteExtensions()]);
  const db = await PGlite.create({ dataDir: dir, loadDataDir: await pgliteSnapshot(), extensions });
  await db.close();
  return dir;
}
