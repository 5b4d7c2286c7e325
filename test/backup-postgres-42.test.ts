/**
 * Issue 42 across the two kinds of database: an embedded backup restored on a PostgreSQL server
 * and back, and `npm run move-to-postgres` checked table by table. They need a server
 * (TEST_DATABASE_URL). The commands on the embedded database are in test/backup-cli-42.test.ts.
 */
import path from 'node:path';
import t from 'tap';
import { openDatabase } from '../src/db/connect.ts';
import { restoreBackup, tableChecksums } from '../src/services/restore.service.ts';
import { buildTestApp, createServerDatabase } from './helper.ts';
import { seededDataDir } from './support/pglite-snapshot.ts';
import { bookSome, checkStartsOn, cli, log, onServer, tempDir } from './support/backup-commands.ts';

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
