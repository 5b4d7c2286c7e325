/**
 * `npm run set-password`: asks twice for a new staff password (without echoing it), stores only
 * its argon2id hash, and ends every open staff session.
 */
import { stdin, stdout } from 'node:process';
import pino from 'pino';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrator.ts';
import { ADMIN_PASSWORD_HASH_KEY, putSetting } from '../db/settings.repository.ts';
import { hashPassword } from '../services/auth.service.ts';
import { passwordProblem } from '../password-policy.ts';

/** Reads one line from the terminal with echo turned off. */
function askHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    if (!stdin.isTTY) {
      reject(new Error('set-password needs an interactive terminal'));
      return;
    }
    // Echo off before the prompt shows: a fast typist (or a script answering the prompt) must
    // never have the first characters echoed.
    stdin.setRawMode(true);
    stdout.write(question);
    stdin.resume();
    stdin.setEncoding('utf8');
    let answer = '';
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') {
          stdin.setRawMode(false);
          stdin.pause();
          stdin.off('data', onData);
          stdout.write('\n');
          resolve(answer);
          return;
        }
        if (char === '\u0003') {
          stdin.setRawMode(false);
          stdout.write('\n');
          process.exit(130);
        }
        if (char === '\u007f' || char === '\b') answer = answer.slice(0, -1);
        else answer += char;
      }
    };
    stdin.on('data', onData);
  });
}

try {
  const config = loadConfig(process.env);
  const password = await askHidden('New staff password: ');
  const weakness = passwordProblem(password);
  if (weakness) throw new Error(`The password ${weakness}`);
  if ((await askHidden('Repeat it: ')) !== password) throw new Error('The two passwords differ; nothing was changed');

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
