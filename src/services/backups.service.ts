/**
 * Backup files in BACKUP_DIR (issue 42): taking one (src/db/backup-file.ts) under a temporary name
 * that becomes its final name only when it is whole, listing them, and keeping the newest
 * BACKUP_KEEP.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Kysely } from 'kysely';
import { dumpDatabase, type BackupHeader } from '../db/backup-file.ts';

/** valet-2026-11-29T070012.345Z-034_service_area.backup.gz: when (UTC) and the schema version. Nothing else is a backup's name. */
export const BACKUP_NAME_PATTERN = '^valet-\\d{4}-\\d{2}-\\d{2}T\\d{6}\\.\\d{3}Z-\\d{3}_[a-z0-9_]+\\.backup\\.gz$';
const BACKUP_NAME = new RegExp(BACKUP_NAME_PATTERN);
const NAME_PARTS = /^valet-(\d{4}-\d{2}-\d{2})T(\d{2})(\d{2})(\d{2}\.\d{3})Z-(\d{3}_[a-z0-9_]+)\.backup\.gz$/;
const PARTIAL_PREFIX = '.partial-';
/** A partial file this old belongs to a backup whose process died: no backup runs for a day. */
const STALE_PARTIAL_MS = 24 * 60 * 60 * 1000;

export interface BackupFile {
  name: string;
  path: string;
  takenAt: Date;
  schemaVersion: string;
  sizeBytes: number;
}

export function backupName(takenAt: Date, schemaVersion: string): string {
  return `valet-${takenAt.toISOString().replaceAll(':', '')}-${schemaVersion}.backup.gz`;
}

export function isBackupName(name: string): boolean {
  return BACKUP_NAME.test(name);
}

/** The backups in `dir`, newest first (none when it does not exist yet). */
export async function listBackups(dir: string): Promise<BackupFile[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files: BackupFile[] = [];
  for (const name of names) {
    const parts = NAME_PARTS.exec(name);
    if (!parts) continue;
    const [, day, hh, mm, ss, schemaVersion] = parts;
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) continue;
    files.push({ name, path: file, takenAt: new Date(`${day}T${hh}:${mm}:${ss}Z`), schemaVersion: schemaVersion!, sizeBytes: info.size });
  }
  return files.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
}

export interface TakeBackupOptions {
  dir: string;
  source: BackupHeader['source'];
  takenAt: Date;
  /** See DumpOptions.claim: false (another instance is at it, or a backup is recent) takes none. */
  claim?: (trx: Kysely<any>) => Promise<boolean>;
}

/** Writes one backup file (mode 0600) into `dir`: it, or null when `claim` declined. */
export async function takeBackup(db: Kysely<any>, options: TakeBackupOptions): Promise<BackupFile | null> {
  await mkdir(options.dir, { recursive: true, mode: 0o700 });
  const partial = path.join(options.dir, `${PARTIAL_PREFIX}${randomUUID()}`);
  const handle = await open(partial, 'wx', 0o600);
  const gzip = createGzip();
  const written = pipeline(gzip, handle.createWriteStream());
  let finalPath: string | undefined;
  try {
    const header = await dumpDatabase(db, {
      source: options.source,
      takenAt: options.takenAt,
      claim: options.claim,
      async write(text) {
        if (!gzip.write(text)) await once(gzip, 'drain');
      },
      // Still in the snapshot's transaction, so the schedule's lock is held until the file has its name.
      async finish(header) {
        gzip.end();
        await written;
        const file = await open(partial, 'r');
        await file.sync();
        await file.close();
        finalPath = path.join(options.dir, backupName(options.takenAt, header.schemaVersion));
        await rename(partial, finalPath);
        await syncDirectory(options.dir);
      },
    });
    if (!header) {
      gzip.end();
      await written;
      await rm(partial, { force: true });
      return null;
    }
    const info = await stat(finalPath!);
    return { name: path.basename(finalPath!), path: finalPath!, takenAt: options.takenAt, schemaVersion: header.schemaVersion, sizeBytes: info.size };
  } catch (error) {
    gzip.destroy();
    await written.catch(() => {});
    await rm(partial, { force: true });
    if (finalPath) await rm(finalPath, { force: true });
    throw error;
  }
}

/**
 * The embedded database's backup while the server serves: `copyFiles` copies its files at one
 * moment (holding its one connection only for that), and a process of its own opens the copy and
 * takes the backup from it (src/cli/backup-copy.ts), so that this process's requests run while the
 * rows are read and compressed, and the second PGlite's memory goes back when that process ends.
 * The copy sits in `dir` under a partial name and is removed afterwards.
 */
export async function takeBackupFromCopy(copyFiles: (target: string) => Promise<void>, options: Omit<TakeBackupOptions, 'claim' | 'source'>): Promise<BackupFile> {
  await mkdir(options.dir, { recursive: true, mode: 0o700 });
  const copy = path.join(options.dir, `${PARTIAL_PREFIX}${randomUUID()}`);
  try {
    await copyFiles(copy);
    const child = spawn(process.execPath, [...backupCopyCommand(), copy, options.dir, options.takenAt.toISOString()], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
    if (code !== 0) throw new Error(`the backup process ${signal ? `was killed (${signal})` : `failed`}: ${stderr.trim().split('\n').at(-1) ?? ''}`);
    const file = JSON.parse(stdout) as Omit<BackupFile, 'takenAt'> & { takenAt: string };
    return { ...file, takenAt: new Date(file.takenAt) };
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
}

/** How to run src/cli/backup-copy.ts: from the sources through tsx, or the bundle's backup-copy.js beside the server's. */
function backupCopyCommand(): string[] {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts')) return ['--import', import.meta.resolve('tsx'), path.join(path.dirname(here), '../cli/backup-copy.ts')];
  // The bundle: this code is in dist/server/ or one of its chunks in dist/server/assets/.
  const bundle = path.basename(path.dirname(here)) === 'assets' ? path.dirname(path.dirname(here)) : path.dirname(here);
  return [path.join(bundle, 'backup-copy.js')];
}

/** The rename is on disk only once the directory is (a crash just after must not lose the file's name). */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Removes the oldest backups beyond `keep` (0 keeps all) and partial files or copies left by a process that died; the names removed. */
export async function pruneBackups(dir: string, keep: number, now: Date): Promise<string[]> {
  const removed: string[] = [];
  if (keep > 0) {
    for (const file of (await listBackups(dir)).slice(keep)) {
      await rm(file.path, { force: true });
      removed.push(file.name);
    }
  }
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!name.startsWith(PARTIAL_PREFIX)) continue;
    const info = await stat(path.join(dir, name)).catch(() => undefined);
    if (info && now.getTime() - info.mtimeMs > STALE_PARTIAL_MS) {
      // A partial file, or a copy of the embedded database's files (takeBackupFromCopy).
      await rm(path.join(dir, name), { recursive: true, force: true });
      removed.push(name);
    }
  }
  return removed;
}
