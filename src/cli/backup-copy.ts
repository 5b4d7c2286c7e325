/**
 * Run by the server, not by hand: takes a backup of a copy of the embedded database's files
 * (src/services/backups.service.ts, takeBackupFromCopy) in a process of its own, so that the
 * server keeps answering while the rows are read.
 *
 *   backup-copy <copy of DATA_DIR> <BACKUP_DIR> <taken at, ISO 8601>
 *
 * Prints the backup as JSON (BackupFile) on standard output; any failure, one line on standard error and exit 1.
 */
import pino from 'pino';
import { openDatabase } from '../db/connect.ts';
import { takeBackup } from '../services/backups.service.ts';

const [copy, dir, takenAt] = process.argv.slice(2);
try {
  if (!copy || !dir || !takenAt || Number.isNaN(Date.parse(takenAt))) throw new Error('usage: backup-copy <copy of DATA_DIR> <BACKUP_DIR> <taken at, ISO 8601>');
  const handle = await openDatabase({ databaseUrl: undefined, dataDir: copy, poolMax: 1, connectTimeoutMs: 10_000 }, pino({ level: 'warn' }));
  try {
    const file = await takeBackup(handle.db, { dir, source: 'pglite', takenAt: new Date(takenAt) });
    process.stdout.write(JSON.stringify(file));
  } finally {
    await handle.close();
  }
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
