/**
 * Backups while the server serves (issue 42): every BACKUP_EVERY_HOURS (0 turns the schedule off)
 * one backup in the cluster, then the oldest beyond BACKUP_KEEP are removed. Every instance's
 * timer asks; an advisory lock held for the whole backup, and the newest file's time in the
 * shared BACKUP_DIR, let one of them take it.
 *
 * On the embedded database only this process may open the files: it copies them at one moment and
 * a process of its own reads the copy (takeBackupFromCopy), so requests wait only for the copy.
 * `npm run backup` asks it through a unix socket in DATA_DIR (mode 0600: whoever may use it may
 * read the database files anyway) instead of opening the database itself.
 */
import { chmod, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import fp from 'fastify-plugin';
import { sql, type Kysely } from 'kysely';
import { AppError } from '../../errors.ts';
import { listBackups, pruneBackups, takeBackup, takeBackupFromCopy, type BackupFile } from '../../services/backups.service.ts';

/** The file `npm run backup` looks for in DATA_DIR. */
export const BACKUP_SOCKET = 'backup.sock';
/** How often each instance asks whether a scheduled backup is due (at most BACKUP_EVERY_HOURS). */
const SCHEDULE_CHECK_MS = 10 * 60 * 1000;
/** A unix socket's path is at most 107 bytes on Linux (104 on macOS). */
const MAX_SOCKET_PATH = 100;

export interface Backups {
  /** BACKUP_DIR, or undefined when backups are off. */
  dir: string | undefined;
  list(): Promise<BackupFile[]>;
  /** Takes a backup now (409 when one is being taken by another instance) and removes the oldest beyond BACKUP_KEEP. */
  takeNow(): Promise<BackupFile>;
  /** Takes the scheduled backup when one is due by the app's clock: it, or null when none was due or another instance took it. */
  runSchedule(): Promise<BackupFile | null>;
}

declare module 'fastify' {
  interface FastifyInstance {
    backups: Backups;
  }
}

export const backupsOff = () => new AppError(409, 'BACKUPS_OFF', 'Backups are off: set BACKUP_DIR (required with DATABASE_URL)');

async function tryBackupLock(trx: Kysely<any>): Promise<boolean> {
  const { rows } = await sql<{ locked: boolean }>`SELECT pg_try_advisory_xact_lock(4022, 1042) AS locked`.execute(trx);
  return rows[0]?.locked === true;
}

export default fp(
  async (app) => {
    const { dir, everyMs, keep } = app.config.backup;
    let timer: NodeJS.Timeout | undefined;
    let socket: Server | undefined;
    // One backup at a time in this process (the embedded database's one connection would queue them anyway).
    let running: Promise<unknown> = Promise.resolve();
    const serially = <T>(work: () => Promise<T>): Promise<T> => {
      const result = running.then(work, work);
      running = result.catch(() => {});
      return result;
    };

    const take = async (claim: (trx: Kysely<any>) => Promise<boolean>) => {
      if (!dir) throw backupsOff();
      const started = Date.now();
      const { copyFiles } = app.database;
      let file: BackupFile | null;
      if (copyFiles) {
        // The embedded database on disk: one process, so the claim needs no lock held throughout.
        if (!(await app.db.transaction().execute(claim))) return null;
        file = await takeBackupFromCopy(copyFiles, { dir, takenAt: app.now() });
      } else {
        file = await takeBackup(app.db, { dir, source: app.database.kind, takenAt: app.now(), claim });
      }
      if (!file) return null;
      const removed = await pruneBackups(dir, keep, app.now());
      app.log.info({ backup: file.name, sizeBytes: file.sizeBytes, ms: Date.now() - started, removed }, 'backup taken');
      return file;
    };

    const backups: Backups = {
      dir,
      list: async () => (dir ? listBackups(dir) : []),
      takeNow: () =>
        serially(async () => {
          const file = await take(tryBackupLock);
          if (!file) throw new AppError(409, 'BACKUP_RUNNING', 'Another instance is taking a backup: try again in a minute');
          return file;
        }),
      runSchedule: () =>
        serially(async () => {
          if (!dir || everyMs === 0) return null;
          return take(async (trx) => {
            if (!(await tryBackupLock(trx))) return false;
            const newest = (await listBackups(dir))[0];
            // A little under the interval, so a check that comes a moment early still takes it.
            return newest === undefined || app.now().getTime() - newest.takenAt.getTime() >= everyMs - 60_000;
          });
        }),
    };
    app.decorate('backups', backups);

    app.addHook('onReady', async () => {
      if (!dir) {
        if (app.config.databaseUrl) app.log.warn('backups are off: set BACKUP_DIR (docs/operating.md, "Backups and restore")');
        return;
      }
      if (everyMs > 0) {
        timer = setInterval(() => {
          if (!app.database.ready) return;
          backups.runSchedule().catch((err: Error) => app.log.error({ err: { message: err.message } }, 'scheduled backup failed'));
        }, Math.min(everyMs, SCHEDULE_CHECK_MS)).unref();
      }
      if (app.database.kind === 'pglite' && app.config.dataDir !== 'memory://') socket = await listenForBackupRequests(app.config.dataDir, backups, app.log);
    });
    app.addHook('onClose', async () => {
      clearInterval(timer);
      if (socket) await new Promise<void>((resolve) => socket!.close(() => resolve()));
      // A backup in flight finishes before the database closes.
      await running;
    });
  },
  { name: 'backups', dependencies: ['database', 'config'] },
);

/**
 * The socket `npm run backup` asks while this process holds the embedded database: POST / takes a
 * backup and answers its name, path and size as JSON. Only its owner may connect (mode 0600).
 */
async function listenForBackupRequests(dataDir: string, backups: Backups, log: { warn(obj: object, msg: string): void }): Promise<Server | undefined> {
  const socketPath = path.resolve(dataDir, BACKUP_SOCKET);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    log.warn({ socketPath }, 'DATA_DIR is too long a path for the backup socket: npm run backup works only with the server stopped');
    return undefined;
  }
  // Left by a process that died: this one holds DATA_DIR's lock, so no live process owns it.
  await rm(socketPath, { force: true });
  const server = createServer((request, response) => {
    const answer = (status: number, body: object) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (request.method !== 'POST' || request.url !== '/') return answer(404, { message: 'POST / takes a backup' });
    backups.takeNow().then(
      (file) => answer(201, { name: file.name, path: file.path, sizeBytes: file.sizeBytes }),
      (error: Error) => answer(error instanceof AppError ? error.statusCode : 500, { message: error.message }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  await chmod(socketPath, 0o600);
  return server;
}
