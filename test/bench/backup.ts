/**
 * `npm run bench` (last part): a backup and a restore of 100,000 bookings on each database, the
 * embedded one (PGlite) and PostgreSQL (BENCH_DATABASE_URL, else a fresh database on
 * TEST_DATABASE_URL's server; skipped when neither is set). The bookings are test/bench/customers.ts's
 * (one generate_series INSERT; the customers filled by the database's triggers). Each step is the
 * real command (`npm run backup`, `npm run restore`) as a process of its own: its wall time (the
 * process's start and the database's open included) and its peak resident memory. Prints a
 * markdown table.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../../src/db/connect.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';
import { serverDatabase } from './processes.ts';
import { BOOKINGS, CUSTOMER_BOOKINGS_INSERT as INSERT } from './customer-bookings.ts';

const run = promisify(execFile);
// Reports the command's peak resident memory on standard error as it exits.
const REPORT_RSS = `data:text/javascript,process.on('exit',()=>process.stderr.write('maxrss '+process.resourceUsage().maxRSS+'\\n'))`;

interface Step {
  seconds: number;
  peakMb: number;
  stdout: string;
}

async function command(script: 'backup' | 'restore', env: Record<string, string>, args: string[] = []): Promise<Step> {
  const started = performance.now();
  const { stdout, stderr } = await run(process.execPath, ['--import', REPORT_RSS, '--import', 'tsx', `src/cli/${script}.ts`, ...args], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
    maxBuffer: 16 * 1024 * 1024,
  });
  const seconds = (performance.now() - started) / 1000;
  const kb = Number(/maxrss (\d+)/.exec(stderr)?.[1]);
  return { seconds, peakMb: kb / 1024, stdout: stdout.trim() };
}

async function seed(databaseUrl: string | undefined, dataDir: string): Promise<void> {
  // On a server, a pool of its own: the app's has a 15-second statement timeout, and the INSERT takes longer.
  const handle = databaseUrl
    ? { db: new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: databaseUrl, max: 1 }) }) }), close: async () => {} }
    : await openDatabase({ databaseUrl, dataDir, poolMax: 1, connectTimeoutMs: 10_000 }, console);
  try {
    await migrateToLatest(handle.db);
    await sql.raw(INSERT).execute(handle.db);
  } finally {
    if (databaseUrl) await handle.db.destroy();
    await handle.close();
  }
}

const rows: string[] = [];
const scratch = await mkdtemp(path.join(tmpdir(), 'valet-bench-backup-'));
try {
  const dataDir = path.join(scratch, 'data');
  const backups = path.join(scratch, 'backups');
  await seed(undefined, dataDir);
  const backup = await command('backup', { DATA_DIR: dataDir, BACKUP_DIR: backups });
  const file = backup.stdout.split(' ')[0]!;
  const restore = await command('restore', { DATA_DIR: path.join(scratch, 'restored') }, [file]);
  rows.push(`| embedded (PGlite) | backup | ${backup.seconds.toFixed(1)} s | ${backup.peakMb.toFixed(0)} MB | ${backup.stdout.replace(/^.* \(/, '').replace(/\)$/, '')} |`);
  rows.push(`| embedded (PGlite) | restore | ${restore.seconds.toFixed(1)} s | ${restore.peakMb.toFixed(0)} MB | |`);
  process.stderr.write(`${rows.join('\n')}\n`);

  const server = await serverDatabase();
  const target = server && (await serverDatabase());
  if (server && target) {
    try {
      await seed(server.url, dataDir);
      const pgBackup = await command('backup', { DATABASE_URL: server.url, BACKUP_DIR: backups });
      const pgFile = pgBackup.stdout.split(' ')[0]!;
      const pgRestore = await command('restore', { DATABASE_URL: target.url }, [pgFile]);
      rows.push(`| PostgreSQL | backup | ${pgBackup.seconds.toFixed(1)} s | ${pgBackup.peakMb.toFixed(0)} MB | ${pgBackup.stdout.replace(/^.* \(/, '').replace(/\)$/, '')} |`);
      rows.push(`| PostgreSQL | restore | ${pgRestore.seconds.toFixed(1)} s | ${pgRestore.peakMb.toFixed(0)} MB | |`);
    } finally {
      await server.drop();
      await target.drop();
    }
  } else {
    rows.push('| PostgreSQL | skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL | | | |');
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}

process.stdout.write(`\n### Backup and restore, ${BOOKINGS.toLocaleString('en-NZ')} bookings (each the command as its own process)\n\n| Database | Step | Time | Peak RSS | File |\n|---|---|---|---|---|\n${rows.join('\n')}\n`);
