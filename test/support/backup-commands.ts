/**
 * What the tests of issue 42's commands share (test/backup-postgres-42.test.ts and
 * test/backup-cli-42.test.ts, split so that each stays well inside the file time limit on a
 * loaded machine): temporary folders, bookings made through the API, the checks of a database
 * started from a restore, and running a command of src/cli as `npm run` does.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import pino from 'pino';
import type { Test } from 'tap';
import type { App } from '../../src/app.ts';
import { migrationNames } from '../../src/db/migrator.ts';
import { backends } from '../helper.ts';
import { inDays, originalClientPayload } from './payloads.ts';

export const log = pino({ level: 'silent' });
const run = promisify(execFile);
export const onServer = backends().includes('postgres');

export async function tempDir(t: Test, prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

export async function bookSome(app: App, count: number, from = 0): Promise<string[]> {
  const ids: string[] = [];
  for (let i = from; i < from + count; i += 1) {
    const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: inDays(40 + i), time: '10:00', email: `move${i}@example.com` }) });
    if (res.statusCode !== 201) throw new Error(`booking ${i}: ${res.statusCode} ${res.body}`);
    ids.push((res.json() as { id: string }).id);
  }
  return ids;
}

export async function checkStartsOn(t: Test, app: App, bookings: string[]) {
  t.equal((await app.inject('/readyz')).statusCode, 200, '/readyz 200');
  const applied = await app.db.selectFrom('kysely_migration' as any).select('name').orderBy('name').execute();
  t.same(applied.map((r: any) => r.name), await migrationNames(), 'every migration recorded');
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_constraint WHERE conname = 'bookings_no_overlap'`.execute(app.db);
  t.equal(rows[0]!.n, 1, 'bookings_no_overlap in force');
  const ids = (await app.db.selectFrom('bookings').select('id').execute()).map((r) => r.id);
  t.same(ids.sort(), [...bookings].sort(), 'every booking');
  const outbox = await app.db.selectFrom('outbox_emails').select('booking_id').where('booking_id', 'in', bookings).execute();
  t.ok(outbox.length >= bookings.length, 'with their e-mails');
}

export const cli = (script: string, env: Record<string, string>, args: string[] = []) =>
  run(process.execPath, ['--import', 'tsx', `src/cli/${script}.ts`, ...args], { env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env }, timeout: 120_000 });
