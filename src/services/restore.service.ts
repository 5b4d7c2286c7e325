/**
 * `npm run restore` and `npm run move-to-postgres` (issue 42). A restore checks the whole file
 * first, then fills an empty database: a new embedded folder built beside DATA_DIR and put in its
 * place only once complete, or an empty database on a PostgreSQL server in one transaction. A
 * target that holds data is refused; for the embedded database `force` keeps the old folder under
 * a new name.
 */
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { isEmptyDatabase, loadBackupFile, schemaVersionOf, verifyBackupFile, type RestoreResult } from '../db/backup-file.ts';
import { openDatabase, type WarnLogger } from '../db/connect.ts';
import { lockDataDir } from '../db/data-dir-lock.ts';
import { migrationNames } from '../db/migrator.ts';
import { takeBackup } from './backups.service.ts';

export interface RestoreTarget {
  databaseUrl: string | undefined;
  dataDir: string;
  connectTimeoutMs: number;
}

export interface RestoreOutcome extends RestoreResult {
  /** Where the embedded folder that held data was moved (force). */
  keptAs?: string;
}

/** A target a restore or move may not fill, and why, in one line. */
export class RestoreRefusedError extends Error {
  override name = 'RestoreRefusedError';
}

const stamp = (now: Date) => now.toISOString().replaceAll(':', '').replace(/\.\d{3}Z$/, 'Z');

export async function restoreBackup(file: string, target: RestoreTarget, options: { force: boolean; log: WarnLogger; now?: Date }): Promise<RestoreOutcome> {
  await verifyBackupFile(file);
  if (target.databaseUrl) {
    if (options.force) throw new RestoreRefusedError('--force is for the embedded database (DATA_DIR) only: on a PostgreSQL server, create an empty database and restore into it');
    const handle = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir, poolMax: 1, connectTimeoutMs: target.connectTimeoutMs }, options.log);
    try {
      if (!(await isEmptyDatabase(handle.db))) throw new RestoreRefusedError('The database at DATABASE_URL holds data: restore into an empty database');
      return await loadBackupFile(handle.db, file);
    } finally {
      await handle.close();
    }
  }
  return restoreIntoDataDir(file, target, options);
}

async function restoreIntoDataDir(file: string, target: RestoreTarget, options: { force: boolean; log: WarnLogger; now?: Date }): Promise<RestoreOutcome> {
  const dataDir = path.resolve(target.dataDir);
  const holdsData = existsSync(path.join(dataDir, 'PG_VERSION'));
  if (holdsData && !options.force) throw new RestoreRefusedError(`${target.dataDir} holds a database: restore into an empty DATA_DIR, or add --force to keep that one under a new name`);
  // The target may be in use: a server running on it holds its lock for as long as it runs.
  const unlock = existsSync(dataDir) ? lockDataDir(dataDir) : () => {};
  const now = options.now ?? new Date();
  const building = `${dataDir}.restoring-${stamp(now)}`;
  let result: RestoreResult;
  try {
    const handle = await openDatabase({ databaseUrl: undefined, dataDir: building, poolMax: 1, connectTimeoutMs: target.connectTimeoutMs }, options.log);
    try {
      result = await loadBackupFile(handle.db, file);
    } finally {
      await handle.close();
    }
  } catch (error) {
    unlock();
    await rm(building, { recursive: true, force: true });
    throw error;
  }
  try {
    let keptAs: string | undefined;
    if (existsSync(dataDir)) {
      // Backups belong with the business, not with the database they were taken of: they follow DATA_DIR.
      const backups = path.join(dataDir, 'backups');
      if (existsSync(backups)) await rename(backups, path.join(building, 'backups'));
      if (holdsData) {
        keptAs = `${dataDir}.before-restore-${stamp(now)}`;
        await rename(dataDir, keptAs);
      } else {
        unlock();
        // Empty now but for a lock file of its own: a folder with anything else in it stays, and the restore stops here.
        await rmdir(dataDir).catch(() => {
          throw new RestoreRefusedError(`${target.dataDir} is not empty: move its files away first (the restored database is in ${building})`);
        });
      }
    }
    await rename(building, dataDir);
    return { ...result, keptAs };
  } finally {
    unlock();
  }
}

export interface TableCheck {
  table: string;
  rows: number;
  checksum: string;
  matches: boolean;
}

/** Every table's row count and a checksum of its rows (an MD5 of their JSON, in an order any collation agrees on). */
export async function tableChecksums(db: Kysely<any>): Promise<Map<string, { rows: number; checksum: string }>> {
  return db.transaction().setIsolationLevel('repeatable read').execute(async (trx) => {
    await sql`SELECT set_config('TimeZone', 'UTC', true), set_config('DateStyle', 'ISO, YMD', true), set_config('extra_float_digits', '1', true)`.execute(trx);
    const { rows: tables } = await sql<{ name: string }>`
      SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname NOT LIKE 'kysely_migration%' ORDER BY c.relname`.execute(trx);
    const sums = new Map<string, { rows: number; checksum: string }>();
    for (const { name } of tables) {
      const table = `"${name.replaceAll('"', '""')}"`;
      const { rows } = await sql<{ rows: number; checksum: string | null }>`
        SELECT count(*)::int AS rows, md5(string_agg(h, '' ORDER BY h COLLATE "C")) AS checksum
        FROM (SELECT md5(row_to_json(t)::text) AS h FROM ${sql.raw(table)} t) rows`.execute(trx);
      sums.set(name, { rows: rows[0]!.rows, checksum: rows[0]!.checksum ?? '' });
    }
    return sums;
  });
}

/**
 * Copies the embedded database in DATA_DIR into an empty PostgreSQL database (through a backup
 * file in the system's temporary folder, removed after) and compares every table's rows on both
 * sides. DATA_DIR is only read.
 */
export async function moveToPostgres(dataDir: string, toUrl: string, options: { connectTimeoutMs: number; log: WarnLogger; now?: Date }): Promise<TableCheck[]> {
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) throw new RestoreRefusedError(`${dataDir} holds no embedded database`);
  const source = await openDatabase({ databaseUrl: undefined, dataDir, poolMax: 1, connectTimeoutMs: options.connectTimeoutMs }, options.log);
  try {
    const latest = (await migrationNames()).at(-1);
    const version = await schemaVersionOf(source.db);
    if (version !== latest) throw new RestoreRefusedError(`The embedded database is at schema version ${version}, this app's is ${latest}: start the app on it once (or npm run migrate) first`);
    const target = await openDatabase({ databaseUrl: toUrl, dataDir, poolMax: 1, connectTimeoutMs: options.connectTimeoutMs }, options.log);
    const scratch = path.join(tmpdir(), `valet-move-${process.pid}-${Date.now()}`);
    try {
      if (!(await isEmptyDatabase(target.db))) throw new RestoreRefusedError('The PostgreSQL database holds data: move into an empty database');
      await mkdir(scratch, { recursive: true, mode: 0o700 });
      const file = await takeBackup(source.db, { dir: scratch, source: 'pglite', takenAt: options.now ?? new Date() });
      await loadBackupFile(target.db, file!.path);
      const before = await tableChecksums(source.db);
      const after = await tableChecksums(target.db);
      const checks: TableCheck[] = [...before].map(([table, sum]) => {
        const there = after.get(table);
        return { table, ...sum, matches: there !== undefined && there.rows === sum.rows && there.checksum === sum.checksum };
      });
      for (const table of after.keys()) if (!before.has(table)) checks.push({ table, rows: after.get(table)!.rows, checksum: '', matches: false });
      return checks;
    } finally {
      await rm(scratch, { recursive: true, force: true });
      await target.close();
    }
  } finally {
    await source.close();
  }
}
