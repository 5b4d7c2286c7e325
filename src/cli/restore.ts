/**
 * `npm run restore -- FILE [--force]`: restores a backup into an empty DATA_DIR, or an empty
 * database at DATABASE_URL. The whole file is checked first; a target that holds data is refused
 * unless --force, which keeps the old embedded folder under a new name.
 */
import { parseArgs } from 'node:util';
import pino from 'pino';
import { ConfigError, loadConfig } from '../config.ts';
import { restoreBackup } from '../services/restore.service.ts';

try {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { force: { type: 'boolean', default: false } } });
  if (positionals.length !== 1) throw new ConfigError('Usage: npm run restore -- FILE [--force]');
  const config = loadConfig(process.env);
  const outcome = await restoreBackup(
    positionals[0]!,
    { databaseUrl: config.databaseUrl, dataDir: config.dataDir, connectTimeoutMs: config.db.connectTimeoutMs },
    { force: values.force ?? false, log: pino({ level: 'warn' }) },
  );
  const rows = Object.values(outcome.rows).reduce((a, b) => a + b, 0);
  const where = config.databaseUrl ? 'the database at DATABASE_URL' : config.dataDir;
  process.stdout.write(`Restored ${rows} rows (${outcome.rows.bookings ?? 0} bookings) of ${outcome.header.takenAt} into ${where}, schema ${outcome.header.schemaVersion}.\n`);
  if (outcome.migratedForward.length > 0) process.stdout.write(`Migrated forward: ${outcome.migratedForward.join(', ')}.\n`);
  if (outcome.keptAs) process.stdout.write(`The database that was there is kept in ${outcome.keptAs}.\n`);
} catch (error) {
  const message = (error as Error).message;
  process.stderr.write(`${error instanceof ConfigError ? message : `Restore refused: ${message}`}\n`);
  process.exit(1);
}
