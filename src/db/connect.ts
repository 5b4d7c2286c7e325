/**
 * One Kysely instance over a `pg` pool, whichever PostgreSQL runs underneath: a server named by
 * DATABASE_URL, or PGlite (real PostgreSQL compiled to WebAssembly) embedded in the process.
 * PGlite speaks to `pg` through its own adapter, so every query takes the same path.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './database.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { preparingClient } from './prepared-statements.ts';

export interface DatabaseOptions {
  databaseUrl: string | undefined;
  dataDir: string;
  poolMax: number;
  connectTimeoutMs: number;
  /** Statements each connection prepares, at most (src/db/prepared-statements.ts); absent or 0: none. */
  preparedStatements?: number;
  /** For an in-memory embedded database: a data directory dump to start from (see BuildOptions). */
  pgliteSnapshot?: Blob;
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: 'postgres' | 'pglite';
  close(): Promise<void>;
  /** The embedded database's data directory as a tarball (PGlite only), for pgliteSnapshot. */
  dumpDataDir?(): Promise<Blob>;
  /** An embedded database on disk: a copy of its files that PGlite opens as they were at one moment (copyQuietFiles). */
  copyFiles?(target: string): Promise<void>;
}

const DATE_OID = 1082;
const INT8_OID = 20;

/** Dates stay the 'YYYY-MM-DD' text PostgreSQL sends, so no time zone can shift them; counts are numbers. */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === DATE_OID) return (value: string) => value;
    if (oid === INT8_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/** Where the pool reports a lost idle connection. */
export interface WarnLogger {
  warn(obj: object, msg: string): void;
}

/**
 * The contrib modules the migrations use, for every open of an embedded database (an open without
 * btree_gist fails on the bookings table, whose exclusion constraint needs it).
 */
export async function pgliteExtensions() {
  const [{ pg_trgm }, { btree_gist }] = await Promise.all([import('@electric-sql/pglite/contrib/pg_trgm'), import('@electric-sql/pglite/contrib/btree_gist')]);
  return { pg_trgm, btree_gist };
}

export async function openDatabase(options: DatabaseOptions, log: WarnLogger): Promise<DatabaseHandle> {
  const Client = preparingClient(options.preparedStatements ?? 0);
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolMax,
      connectionTimeoutMillis: options.connectTimeoutMs,
      idleTimeoutMillis: 30_000,
      statement_timeout: 15_000,
      types,
      Client,
    });
    // A client losing its server must never crash the process, whether it sits idle in the pool
    // or was just handed out; its query fails (503) and the pool opens a new connection next time.
    pool.on('error', (err) => log.warn({ err: { message: err.message } }, 'idle database connection lost'));
    pool.on('connect', (client) => {
      client.on('error', (err) => log.warn({ err: { message: err.message } }, 'database connection lost'));
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }

  const { PGlite } = await import('@electric-sql/pglite');
  const { createPgConfig } = await import('@electric-sql/pglite/node-postgres');
  const inMemory = options.dataDir === 'memory://';
  if (!inMemory) await mkdir(options.dataDir, { recursive: true });
  const unlock = inMemory ? () => {} : lockDataDir(options.dataDir);
  const extensions = await pgliteExtensions();
  let pglite;
  try {
    if (!inMemory && !existsSync(path.join(options.dataDir, 'PG_VERSION'))) await initDataDirApart(options.dataDir);
    pglite = await PGlite.create({
      // PostgreSQL's 128 MB of shared buffers live inside PGlite's WebAssembly memory, which
      // never shrinks: 8 MB hold a small business's working set (the weeks around today), and
      // a page not there is read from the operating system's cache. 128 → 16 MB cut the server's
      // resident memory by about 110 MB; 16 → 8 MB by 5–8 MB more after the booking benchmark
      // (200–202 → 194–195 MB, 2026-11-28), with the Customers benchmark's p50/p95 on 100,000
      // bookings no slower (3.6/7.0 ms → 2.6/6.1 ms on its first pages).
      // Its shared lock and process tables are sized by max_connections (100 by default) and
      // made at start, in that same memory. An embedded database has one session: 10 of them,
      // with room for 256 locks each (2,560 at once; applying every migration to a new database
      // in one transaction holds 754), take 2 MB less than the defaults (64 each, 6,400).
      startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=8MB', '-c', 'max_connections=10', '-c', 'max_locks_per_transaction=256'],
      dataDir: inMemory ? undefined : options.dataDir,
      loadDataDir: inMemory ? options.pgliteSnapshot : undefined,
      extensions,
    });
  } catch (error) {
    unlock();
    throw error;
  }
  const pool = new pg.Pool({ ...createPgConfig(pglite), max: 1, types, Client });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    kind: 'pglite',
    dumpDataDir: () => pglite.dumpDataDir('none'),
    copyFiles: inMemory ? undefined : (target) => copyQuietFiles(db, options.dataDir, target),
    close: async () => {
      await db.destroy();
      await pglite.close();
      unlock();
    },
  };
}

/** PostgreSQL's own entries in a data directory; DATA_DIR also holds the app's lock, the backup socket and, by default, the backups. */
const PG_DATA_ENTRY = /^(base|global|PG_VERSION|pg_[a-z_]+|pg_hba\.conf|pg_ident\.conf|postgresql(\.auto)?\.conf)$/;
const WAL_SEGMENT = /^[0-9A-F]{24}$/;

/**
 * Copies the embedded database's files to `target` (which must not exist) as they are at one
 * moment, for a backup that reads them in another process while this one serves (issue 42). The
 * pool's one connection is held throughout, so no statement runs and PGlite, which has no
 * background processes, writes nothing: a CHECKPOINT puts every change in the data files, and
 * the copy takes them with the write-ahead log from the checkpoint's redo point to its end (the
 * segments PostgreSQL recycled ahead are left). Requests wait only for the copy, which libuv's
 * threads make while the event loop runs.
 */
async function copyQuietFiles(db: Kysely<Database>, dataDir: string, target: string): Promise<void> {
  await db.connection().execute(async (conn) => {
    await sql`CHECKPOINT`.execute(conn);
    const { rows } = await sql<{ first: string; last: string }>`
      SELECT pg_walfile_name(redo_lsn) AS first, pg_walfile_name(pg_current_wal_insert_lsn()) AS last FROM pg_control_checkpoint()`.execute(conn);
    const { first, last } = rows[0]!;
    const root = path.resolve(dataDir);
    await mkdir(target, { mode: 0o700 });
    // Entry by entry: the target may be inside DATA_DIR (BACKUP_DIR's default), which fs.cp refuses whole.
    for (const entry of await readdir(root)) {
      if (!PG_DATA_ENTRY.test(entry)) continue;
      await cp(path.join(root, entry), path.join(target, entry), {
        recursive: true,
        errorOnExist: true,
        filter: (source) => {
          const [top, name, ...deeper] = path.relative(root, source).split(path.sep);
          if (top !== 'pg_wal' || name === undefined || deeper.length > 0 || !WAL_SEGMENT.test(name)) return true;
          return name >= first && name <= last;
        },
      });
    }
  });
}

/**
 * Creates a new embedded data directory (initdb) in a short-lived process of its own. initdb grows
 * PGlite's WebAssembly memory to several hundred megabytes, which a process never gives back: done
 * in the server's own process, the first start would keep about 750 MB resident for as long as
 * it runs, against about 270 MB for every later start on the same directory.
 */
async function initDataDirApart(dataDir: string): Promise<void> {
  const pgliteUrl = import.meta.resolve('@electric-sql/pglite');
  const script = `const { PGlite } = await import(${JSON.stringify(pgliteUrl)}); const db = await PGlite.create({ dataDir: ${JSON.stringify(dataDir)} }); await db.close();`;
  await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { timeout: 120_000 });
}
