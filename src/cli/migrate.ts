/** `npm run migrate`: applies pending migrations to the configured database and exits. */
import pino from 'pino';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrator.ts';

try {
  const config = loadConfig(process.env);
  const log = pino({ level: config.logLevel });
  const handle = await openDatabase(
    { databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 1, connectTimeoutMs: config.db.connectTimeoutMs },
    log,
  );
  try {
    const applied = await migrateToLatest(handle.db);
    log.info({ applied }, applied.length > 0 ? 'migrations applied' : 'database already up to date');
  } finally {
    await handle.close();
  }
} catch (error) {
  process.stderr.write(`${error instanceof ConfigError ? error.message : `Migration failed: ${(error as Error).message}`}\n`);
  process.exit(1);
}
