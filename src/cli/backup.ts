/**
 * `npm run backup`: takes one backup now and prints its path and size. On the embedded database a
 * running server holds the files, so it is asked through its socket in DATA_DIR (see
 * src/plugins/app/backups.ts); with the server stopped this process opens the database itself. On a
 * PostgreSQL server it always connects itself: its snapshot is as consistent as the server's.
 */
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import pino from 'pino';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/connect.ts';
import { BACKUP_SOCKET } from '../plugins/app/backups.ts';
import { takeBackup } from '../services/backups.service.ts';

interface Taken {
  path: string;
  sizeBytes: number;
}

/** The running server's answer, or undefined when no server listens on the socket. */
function askServer(socketPath: string): Promise<Taken | undefined> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, method: 'POST', path: '/' }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk) => (body += chunk));
      res.on('end', () => {
        const answer = JSON.parse(body) as Taken & { message?: string };
        if (res.statusCode === 201) resolve(answer);
        else reject(new Error(`The server could not take the backup: ${answer.message}`));
      });
    });
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' || error.code === 'ECONNREFUSED' ? resolve(undefined) : reject(error)));
    req.end();
  });
}

const sizeText = (bytes: number) => (bytes >= 1_048_576 ? `${(bytes / 1_048_576).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} kB`);

try {
  const config = loadConfig(process.env);
  const dir = config.backup.dir;
  if (!dir) throw new ConfigError('Backups are off: set BACKUP_DIR (required with DATABASE_URL)');
  let taken = config.databaseUrl ? undefined : await askServer(path.resolve(config.dataDir, BACKUP_SOCKET));
  if (!taken) {
    if (!config.databaseUrl && !existsSync(path.join(config.dataDir, 'PG_VERSION'))) throw new Error(`${config.dataDir} holds no database to back up`);
    const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 1, connectTimeoutMs: config.db.connectTimeoutMs }, pino({ level: 'warn' }));
    try {
      taken = (await takeBackup(handle.db, { dir, source: handle.kind, takenAt: new Date() }))!;
    } finally {
      await handle.close();
    }
  }
  process.stdout.write(`${taken.path} (${sizeText(taken.sizeBytes)})\n`);
} catch (error) {
  process.stderr.write(`${error instanceof ConfigError ? error.message : `Backup failed: ${(error as Error).message}`}\n`);
  process.exit(1);
}
