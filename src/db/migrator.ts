/**
 * Runs the SQL files of `migrations/` (NNN_slug.sql, applied in name order) through Kysely's
 * Migrator, which records them and holds an advisory lock so that several instances starting
 * together apply each migration once. Migrations are frozen once merged: add a new file instead.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely';
import { MIGRATIONS_DIR } from '../paths.ts';

class SqlFileMigrationProvider implements MigrationProvider {
  constructor(private readonly dir: string) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const files = (await readdir(this.dir)).filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f)).sort();
    const migrations: Record<string, Migration> = {};
    for (const file of files) {
      const text = await readFile(path.join(this.dir, file), 'utf8');
      migrations[file.replace(/\.sql$/, '')] = { up: async (db) => void (await sql.raw(text).execute(db)) };
    }
    return migrations;
  }
}

export interface MigrateOptions {
  dir?: string;
  /**
   * The caller has begun a transaction on `db` (one connection) and ends it: a restore applies
   * the schema, loads the rows and migrates forward in one transaction that a failure undoes whole.
   */
  inCallersTransaction?: boolean;
}

/** Applies every pending migration; returns the names applied. Works on any schema type. */
export async function migrateToLatest(db: Kysely<any>, options: MigrateOptions = {}): Promise<string[]> {
  return migrate(db, options, (migrator) => migrator.migrateToLatest());
}

/** Applies the migrations up to and including `name` (a backup's schema version). */
export async function migrateTo(db: Kysely<any>, name: string, options: MigrateOptions = {}): Promise<string[]> {
  return migrate(db, options, (migrator) => migrator.migrateTo(name));
}

async function migrate(db: Kysely<any>, options: MigrateOptions, run: (migrator: Migrator) => Promise<MigrationResultSet>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new SqlFileMigrationProvider(options.dir ?? MIGRATIONS_DIR), disableTransactions: options.inCallersTransaction ?? false });
  const { error, results } = await run(migrator);
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** The names of the migrations this version of the app has, oldest first: its schema versions. */
export async function migrationNames(dir = MIGRATIONS_DIR): Promise<string[]> {
  return Object.keys(await new SqlFileMigrationProvider(dir).getMigrations());
}
