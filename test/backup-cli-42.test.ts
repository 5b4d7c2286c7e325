/**
 * Issue 42 through the commands, on the embedded database: `npm run backup` with the server
 * running (it asks the server) and stopped (it opens the database itself), then `npm run restore`
 * into an empty folder and refused into one that holds data; and, on a PostgreSQL server
 * (TEST_DATABASE_URL), two instances taking one scheduled backup per period. The restores across
 * the two kinds of database and `npm run move-to-postgres` are in test/backup-postgres-42.test.ts.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { listBackups } from '../src/services/backups.service.ts';
import { buildTestApp, createServerDatabase } from './helper.ts';
import { seededDataDir } from './support/pglite-snapshot.ts';
import { bookSome, cli, onServer, tempDir } from './support/backup-commands.ts';

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
