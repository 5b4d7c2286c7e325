/**
 * One process per DATA_DIR: the embedded database is PostgreSQL running inside this process, and
 * a second process opening the same files would corrupt them. A lock file holding the owner's
 * pid is created exclusively; a second process finds it and is refused with a message saying
 * which process holds it. A lock left by a process that died (its pid no longer runs, or is our
 * own pid in a container restarted after a crash) is taken over.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const LOCK_FILE = 'app.lock';

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

/** Lock files this process holds: our own pid in a file not listed here is a previous life's. */
const held = new Set<string>();

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holderOf(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Takes the data directory's lock (the directory must exist); returns the function that releases it. */
export function lockDataDir(dataDir: string): () => void {
  const path = join(resolve(dataDir), LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      held.add(path);
      return () => {
        held.delete(path);
        if (holderOf(path) === process.pid) unlinkSync(path);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const pid = holderOf(path);
    const alive = pid !== undefined && (pid === process.pid ? held.has(path) : isRunning(pid));
    if (alive) {
      throw new DataDirLockedError(
        `The embedded database in ${dataDir} is in use by process ${pid}${pid === process.pid ? ' (this one)' : ''}: one process per DATA_DIR. ` +
          'Stop that process, give this one another DATA_DIR, or use PostgreSQL (DATABASE_URL) to run several instances.',
      );
    }
    // Stale (its owner died) or half-written: remove it and try again.
    try {
      unlinkSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  throw new DataDirLockedError(`Could not take the lock ${path}: another process keeps taking it`);
}
