/**
 * A migrated database on the PostgreSQL server to copy each PostgreSQL test app's database from,
 * the server's counterpart of the PGlite snapshot: `CREATE DATABASE … TEMPLATE` copies it in a
 * fraction of the time that running every migration in each new database takes (about two
 * seconds per app on a busy 2-core machine). It is made once per set of migrations, kept on the
 * server as `test_template_<hash>` and shared by every test process; nothing ever connects to it
 * once made (connections are refused), as PostgreSQL copies only a database no one is connected to.
 * A template of an older set of migrations is never used again and may be dropped at any time.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { migrateToLatest } from '../../src/db/migrator.ts';
import { MIGRATIONS_DIR } from '../../src/paths.ts';

const templates = new Map<string, Promise<string>>();

/** The name of the migrated template database on `serverUrl`'s server; made on first use. */
export function migratedTemplate(serverUrl: string): Promise<string> {
  let template = templates.get(serverUrl);
  if (!template) {
    template = findOrMake(serverUrl);
    // A failure is not kept: the next test tries again.
    template.catch(() => templates.delete(serverUrl));
    templates.set(serverUrl, template);
  }
  return template;
}

async function findOrMake(serverUrl: string): Promise<string> {
  const name = `test_template_${await migrationsKey()}`;
  if (await exists(serverUrl, name)) return name;
  // One process makes it while the others wait on a lock of the server's database (every test
  // process connects to the same one), then find it made. Two renames at once would not both see
  // 42P04: the second can fail on pg_database's unique index instead (23505), as a CI run saw.
  const lock = new pg.Client({ connectionString: serverUrl });
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock(hashtext($1))', ['test_template']);
    if (await exists(serverUrl, name)) return name;
    // Made under a name of its own and renamed when complete, so that no process copies a
    // half-migrated one, and none is left under the template's name should this one fail.
    const building = `test_building_${randomBytes(6).toString('hex')}`;
    await admin(serverUrl, `CREATE DATABASE ${building}`);
    try {
      const url = new URL(serverUrl);
      url.pathname = `/${building}`;
      const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url.toString(), max: 1 }) }) });
      try {
        await migrateToLatest(db);
      } finally {
        await db.destroy();
      }
      await admin(serverUrl, `ALTER DATABASE ${building} ALLOW_CONNECTIONS false`);
      await admin(serverUrl, `ALTER DATABASE ${building} RENAME TO ${name}`);
    } catch (err) {
      await admin(serverUrl, `DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      throw err;
    }
    return name;
  } finally {
    // Its session's end releases the lock.
    await lock.end();
  }
}

async function exists(serverUrl: string, name: string): Promise<boolean> {
  const { rows } = await admin(serverUrl, 'SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  return rows.length > 0;
}

/** One statement on its own connection to the server's configured database. */
export async function admin(serverUrl: string, statement: string, values?: unknown[]): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await client.query(statement, values);
  } finally {
    await client.end();
  }
}

/** Changes whenever a migration does. */
async function migrationsKey(): Promise<string> {
  const hash = createHash('sha256');
  for (const name of (await readdir(MIGRATIONS_DIR)).sort()) {
    hash.update(`${name}\n`).update(await readFile(path.join(MIGRATIONS_DIR, name)));
  }
  return hash.digest('hex').slice(0, 16);
}
