/**
 * `npm run bench` (last part): a backup and a restore of 100,000 bookings on each database, the
 * embedded one (PGlite) and PostgreSQL (BENCH_DATABASE_URL, else a fresh database on
 * TEST_DATABASE_URL's server; skipped when neither is set). The bookings are test/bench/customers.ts's
 * (one generate_series INSERT; the customers filled by the database's triggers). Each step is the
 * real command (`npm run backup`, `npm run restore`) as a process of its own: its wall time (the
 * process's start and the database's open included) and its peak resident memory. Then, on the
 * embedded database, the built server serving one request at a time (an availability answer, which
 * reads the bookings) before and during a backup it takes when `npm run backup` asks it: the
 * latencies side by side. Prints markdown tables.
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
import { serverDatabase, startBuiltServer, stop } from './processes.ts';
import { percentile } from './latency.ts';
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

/** One availability request after another until `until` settles (or for `ms`): their latencies, sorted. */
async function serveWhile(base: string, until: Promise<unknown> | number): Promise<number[]> {
  let done = false;
  if (typeof until === 'number') setTimeout(() => (done = true), until);
  else void until.finally(() => (done = true));
  const latencies: number[] = [];
  for (let i = 0; !done; i++) {
    const day = new Date(Date.now() + (7 + (i % 60)) * 86_400_000).toISOString().slice(0, 10);
    const started = performance.now();
    const res = await fetch(`${base}/v1/availability?date=${day}&service=Deluxe%20Clean&vehicleType=suv&serviceType=onsite&postalCode=0622`);
    await res.text();
    if (res.status !== 200) throw new Error(`availability: ${res.status}`);
    latencies.push(performance.now() - started);
  }
  return latencies.sort((a, b) => a - b);
}

const latencyRow = (what: string, sorted: number[]) =>
  `| ${what} | ${sorted.length} | ${percentile(sorted, 0.5).toFixed(1)} ms | ${percentile(sorted, 0.99).toFixed(1)} ms | ${sorted.at(-1)!.toFixed(0)} ms |`;

const rows: string[] = [];
const served: string[] = [];
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

  // The server on the same 100,000 bookings, answering while it takes a backup that `npm run backup` asks for.
  const embedded = await startBuiltServer({ DATA_DIR: dataDir, BACKUP_DIR: backups, BACKUP_EVERY_HOURS: '0', LOG_LEVEL: 'warn' });
  try {
    await serveWhile(embedded.base, 3_000);
    served.push(latencyRow('no backup (10 s)', await serveWhile(embedded.base, 10_000)));
    const asked = command('backup', { DATA_DIR: dataDir, BACKUP_DIR: backups });
    served.push(latencyRow('during a backup', await serveWhile(embedded.base, asked)));
    const during = await asked;
    served.push(`| (the backup: ${during.seconds.toFixed(1)} s, asked through the socket) | | | | |`);
  } finally {
    await stop(embedded.child);
  }
  process.stderr.write(`${served.join('\n')}\n`);

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

process.stdout.write(
  `\n### Answers while the embedded server backs itself up (100,000 bookings; availability, one request at a time)\n\n| | requests | p50 | p99 | slowest |\n|---|---|---|---|---|\n${served.join('\n')}\n`,
);
process.stdout.write(`\n### Backup and restore, ${BOOKINGS.toLocaleString('en-NZ')} bookings (each the command as its own process)\n\n| Database | Step | Time | Peak RSS | File |\n|---|---|---|---|---|\n${rows.join('\n')}\n`);
