/**
 * What the Customers and Insights benchmarks share: the database migrated and seeded, then the built
 * server as a process of its own on it, once on the embedded database (PGlite, seeded in this
 * process, then served on the same directory) and once on PostgreSQL (BENCH_DATABASE_URL, else a
 * fresh database on TEST_DATABASE_URL's server; a row saying so when neither is set).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import { openDatabase } from '../../src/db/connect.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';
import { serverDatabase, startBuiltServer, stop } from './processes.ts';

export async function onEachDatabase(
  name: string,
  seed: (db: Kysely<any>) => Promise<string>,
  run: (label: string, base: string) => Promise<void>,
  notRun: (label: string) => void,
): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `valet-bench-${name}-`));
  try {
    const handle = await openDatabase({ databaseUrl: undefined, dataDir, poolMax: 1, connectTimeoutMs: 10_000 }, console);
    try {
      await migrateToLatest(handle.db);
      console.log(`PGlite: ${await seed(handle.db)}`);
    } finally {
      await handle.close();
    }
    const server = await startBuiltServer({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
    try {
      await run('PGlite', server.base);
    } finally {
      await stop(server.child);
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }

  const database = await serverDatabase();
  if (!database) return notRun('PostgreSQL');
  try {
    // Seeded through a pool of its own: the server's pool stops any statement after 15 s.
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 1 }) }) });
    try {
      await migrateToLatest(db);
      console.log(`PostgreSQL: ${await seed(db)}`);
      const server = await startBuiltServer({ DATABASE_URL: database.url, LOG_LEVEL: 'warn', DB_POOL_MAX: '10' });
      try {
        await run('PostgreSQL', server.base);
      } finally {
        await stop(server.child);
      }
    } finally {
      await db.destroy();
    }
  } finally {
    await database.drop();
  }
}
