/**
 * `npm run set-password`: asks twice for a new staff password (without echoing it), stores only
 * its argon2id hash, and ends every open staff session.
 */
import { stdout } from 'node:process';
import pino from 'pino';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrator.ts';
import { ADMIN_PASSWORD_HASH_KEY, putSetting } from '../db/settings.repository.ts';
import { hashPassword } from '../services/auth.service.ts';
import { askNewPassword } from './ask-password.ts';

try {
  const config = loadConfig(process.env);
  const password = await askNewPassword();

  const log = pino({ level: 'warn' });
  const handle = await openDatabase(
    { databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 1, connectTimeoutMs: config.db.connectTimeoutMs },
    log,
  );
  try {
    await migrateToLatest(handle.db);
    await putSetting(handle.db, ADMIN_PASSWORD_HASH_KEY, await hashPassword(password));
    await handle.db.deleteFrom('staff_sessions').execute();
  } finally {
    await handle.close();
  }
  stdout.write('Password changed; staff sessions were signed out.\n');
  if (config.adminPasswordHash || config.adminPassword) {
    stdout.write('Note: ADMIN_PASSWORD_HASH or ADMIN_PASSWORD is set and takes precedence over the stored password.\n');
  }
} catch (error) {
  process.stderr.write(`${error instanceof ConfigError ? error.message : (error as Error).message}\n`);
  process.exit(1);
}
