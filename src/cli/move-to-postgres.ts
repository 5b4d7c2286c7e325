/**
 * `npm run move-to-postgres -- --to postgres://…`: copies the embedded database in DATA_DIR into an
 * empty PostgreSQL database, compares every table's row count and checksum on both sides, and
 * prints the one setting to change. DATA_DIR is only read (stop the server first: one process
 * per DATA_DIR).
 */
import { parseArgs } from 'node:util';
import pino from 'pino';
import { ConfigError, loadConfig } from '../config.ts';
import { moveToPostgres } from '../services/restore.service.ts';

try {
  const { values } = parseArgs({ options: { to: { type: 'string' } } });
  if (!values.to || !/^postgres(ql)?:\/\//.test(values.to)) throw new ConfigError('Usage: npm run move-to-postgres -- --to postgres://user:password@host:5432/database');
  const config = loadConfig({ ...process.env, DATABASE_URL: '' });
  const checks = await moveToPostgres(config.dataDir, values.to, { connectTimeoutMs: config.db.connectTimeoutMs, log: pino({ level: 'warn' }) });
  for (const check of checks) process.stdout.write(`${check.matches ? 'same' : 'DIFFERENT'}  ${check.table}: ${check.rows} rows\n`);
  const different = checks.filter((c) => !c.matches);
  if (different.length > 0) throw new Error(`${different.length} table(s) differ after the copy: ${different.map((c) => c.table).join(', ')}`);
  process.stdout.write(`All ${checks.length} tables copied and checked. Set DATABASE_URL to the new database and restart the server (${config.dataDir} is untouched).\n`);
} catch (error) {
  process.stderr.write(`${error instanceof ConfigError ? (error as Error).message : `Move failed: ${(error as Error).message}`}\n`);
  process.exit(1);
}
