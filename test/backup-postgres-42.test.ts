/**
 * Issue 42 across the two kinds of database and through the commands: an embedded backup restored
 * on a PostgreSQL server and back, `npm run move-to-postgres` checked table by table, one
 * scheduled backup per period with two instances, and `npm run backup` with the server running
 * and stopped. The PostgreSQL parts need a server (TEST_DATABASE_URL).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import pino from 'pino';
import t, { type Test } from 'tap';
import type { App } from '../src/app.ts';
import { openDatabase } from '../src/db/connect.ts';
import { migrationNames } from '../src/db/migrator.ts';
import { listBackups } from '../src/services/backups.service.ts';
import { restoreBackup, tableChecksums } from '../src/services/restore.service.ts';
import { backends, buildTestApp, createServerDatabase } from './helper.ts';
import { inDays, originalClientPayload } from './support/payloads.ts';
import { seededDataDir } from './support/pglite-snapshot.ts';

const log = pino({ level: 'silent' });
const run = promisify(execFile);
const onServer = backends().includes('postgres');

async function tempDir(t: Test, prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function bookSome(app: App, count: number, from = 0): Promise<string[]> {
  const ids: string[] = [];
  for (let i = from; i < from + count; i += 1) {
    const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: inDays(40 + i), time: '10:00', email: `move${i}@example.com` }) });
    if (res.statusCode !== 201) throw new Error(`booking ${i}: ${res.statusCode} ${res.body}`);
    ids.push((res.json() as { id: string }).id);
  }
  return ids;
}

async function checkStartsOn(t: Test, app: App, bookings: string[]) {
  t.equal((await app.inject('/readyz')).statusCode, 200, '/readyz 200');
  const applied = await app.db.selectFrom('kysely_migration' as any).select('name').orderBy('name').execute();
  t.same(applied.map((r: any) => r.name), await migrationNames(), 'every migration recorded');
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_constraint WHERE conname = 'bookings_no_overlap'`.execute(app.db);
  t.equal(rows[0]!.n, 1, 'bookings_no_overlap in force');
  const ids = (await app.db.selectFrom('bookings').select('id').execute()).map((r) => r.id);
  t.same(ids.sort(), [...bookings].sort(), 'every booking');
  const outbox = await app.db.selectFrom('outbox_emails').select('booking_id').where('booking_id', 'in', bookings).execute();
  t.ok(outbox.length >= bookings.length, 'with their e-mails');
}

const cli = (script: string, env: Record<string, string>, args: string[] = []) =>
  run(process.execPath, ['--import', 'tsx', `src/cli/${script}.ts`, ...args], { env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env }, timeout: 120_000 });

t.test('npm run backup asks the running server, and opens the database itself when it is stopped', async (t) => {
  const dataDir = await seededDataDir(t);
  const app = await buildTestApp(t, { env: { DATA_DIR: dataDir, BACKUP_EVERY_HOURS: '0' } });
  await bookSome(app, 2);
  const running = await cli('backup', { DATA_DIR: dataDir });
  const [, file, size] = /^(\S+) \((\d+\.\d) kB\)\n$/.exec(running.stdout) ?? [];
  t.ok(file, `prints the path and size: ${running.stdout}`);
  t.equal((await stat(file!)).mode & 0o777, 0o600);
  t.equal(path.dirname(file!), path.join(dataDir, 'backups'));
  t.ok(Number(size) > 0);
  await app.close();
  const stopped = await cli('backup', { DATA_DIR: dataDir });
  t.match(stopped.stdout, /^\S+\.backup\.gz \(\d+\.\d kB\)\n$/);
  t.equal((await listBackups(path.join(dataDir, 'backups'))).length, 2);
  const restoreTarget = path.join(await tempDir(t, 'valet-cli-'), 'data');
  const restored = await cli('restore', { DATA_DIR: restoreTarget }, [file!]);
  t.match(restored.stdout, /^Restored \d+ rows \(2 bookings\)/);
  const refused = await cli('restore', { DATA_DIR: restoreTarget }, [file!]).catch((error: { code: number; stderr: string }) => error);
  t.match(refused, { code: 1, stderr: /^Restore refused: .* holds a database: restore into an empty DATA_DIR, or add --force/ });
  t.equal((refused as { stderr: string }).stderr.trim().split('\n').length, 1, 'one line');
});

t.test('embedded → PostgreSQL server → embedded', { skip: !onServer && 'needs TEST_DATABASE_URL' }, async (t) => {
  const dataDir = await seededDataDir(t);
  const embedded = await buildTestApp(t, { env: { DATA_DIR: dataDir, BACKUP_EVERY_HOURS: '0' } });
  const bookings = await bookSome(embedded, 5);
  const first = await embedded.backups.takeNow();
  const url = await createServerDatabase(t);
  await restoreBackup(first.path, { databaseUrl: url, dataDir: 'unused', connectTimeoutMs: 10_000 }, { force: false, log });
  const backupDir = await tempDir(t, 'valet-pg-backups-');
  const server = await buildTestApp(t, { backend: 'postgres', env: { DATABASE_URL: url, BACKUP_DIR: backupDir, BACKUP_EVERY_HOURS: '0' } });
  await checkStartsOn(t, server, bookings);
  const more = await bookSome(server, 2, 100);
  const second = await server.backups.takeNow();
  t.equal(second.path, path.join(backupDir, second.name));
  const back = path.join(await tempDir(t, 'valet-back-'), 'data');
  await restoreBackup(second.path, { databaseUrl: undefined, dataDir: back, connectTimeoutMs: 10_000 }, { force: false, log });
  const again = await buildTestApp(t, { env: { DATA_DIR: back, BACKUP_EVERY_HOURS: '0' } });
  await checkStartsOn(t, again, [...bookings, ...more]);
  await t.rejects(restoreBackup(second.path, { databaseUrl: url, dataDir: 'unused', connectTimeoutMs: 10_000 }, { force: false, log }), /holds data/, 'a server database with data is refused');
});

t.test('npm run move-to-postgres copies every table and checks each on both sides', { skip: !onServer && 'needs TEST_DATABASE_URL' }, async (t) => {
  const dataDir = await seededDataDir(t);
  const app = await buildTestApp(t, { env: { DATA_DIR: dataDir, BACKUP_EVERY_HOURS: '0' } });
  await bookSome(app, 40);
  await app.close();
  const source = await openDatabase({ databaseUrl: undefined, dataDir, poolMax: 1, connectTimeoutMs: 10_000 }, log);
  const before = await tableChecksums(source.db);
  await source.close();
  const url = await createServerDatabase(t);
  const moved = await cli('move-to-postgres', { DATA_DIR: dataDir }, ['--to', url]);
  t.match(moved.stdout, /^same {2}bookings: 40 rows$/m);
  t.match(moved.stdout, /Set DATABASE_URL to the new database and restart the server/);
  t.notMatch(moved.stdout, /DIFFERENT/);
  const target = await openDatabase({ databaseUrl: url, dataDir: 'unused', poolMax: 1, connectTimeoutMs: 10_000 }, log);
  t.teardown(() => target.close());
  t.same([...(await tableChecksums(target.db))], [...before], 'every table: the same rows and checksum');
  const reopened = await openDatabase({ databaseUrl: undefined, dataDir, poolMax: 1, connectTimeoutMs: 10_000 }, log);
  t.same([...(await tableChecksums(reopened.db))], [...before], 'the embedded database is as it was');
  await reopened.close();
  const again = await cli('move-to-postgres', { DATA_DIR: dataDir }, ['--to', url]).catch((error: { code: number; stderr: string }) => error);
  t.match(again, { code: 1, stderr: /^Move failed: The PostgreSQL database holds data/ }, 'only into an empty database');
});

t.test('two instances on one server take one scheduled backup per period', { skip: !onServer && 'needs TEST_DATABASE_URL' }, async (t) => {
  const url = await createServerDatabase(t, { migrated: true });
  const backupDir = await tempDir(t, 'valet-two-');
  const env = { DATABASE_URL: url, BACKUP_DIR: backupDir, BACKUP_EVERY_HOURS: '24' };
  const [a, b] = await Promise.all([buildTestApp(t, { backend: 'postgres', env }), buildTestApp(t, { backend: 'postgres', env })]);
  const first = await Promise.all([a.backups.runSchedule(), b.backups.runSchedule(), a.backups.runSchedule(), b.backups.runSchedule()]);
  t.equal(first.filter(Boolean).length, 1, 'one of them took it');
  t.equal((await listBackups(backupDir)).length, 1, 'one file');
  t.same(await Promise.all([a.backups.runSchedule(), b.backups.runSchedule()]), [null, null], 'none due again within the period');
});
