/**
 * Issue 42, "Nothing lost": a backup taken while bookings are made restores them whole into a
 * fresh folder that the server starts on; damaged or foreign files are refused before anything is
 * written; the schedule keeps BACKUP_KEEP files; the owner's API lists, takes and downloads them.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { sql, type Kysely } from 'kysely';
import argon2 from 'argon2';
import pino from 'pino';
import t, { type Test } from 'tap';
import type { App } from '../src/app.ts';
import { verifyBackupFile } from '../src/db/backup-file.ts';
import { openDatabase } from '../src/db/connect.ts';
import { migrateTo, migrationNames } from '../src/db/migrator.ts';
import { listBackups, takeBackup } from '../src/services/backups.service.ts';
import { restoreBackup, RestoreRefusedError } from '../src/services/restore.service.ts';
import { buildTestApp, login } from './helper.ts';
import { inDays, originalClientPayload, testNow } from './support/payloads.ts';
import { seededDataDir } from './support/pglite-snapshot.ts';

const log = pino({ level: 'silent' });
const MEMBER_PASSWORD = 'tama kia kaha ake ake ake';

async function tempDir(t: Test, prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A backup's text with its final line's hash made again, as a forger who knew the format would. */
function resealed(plain: string): string {
  const body = plain.slice(0, plain.lastIndexOf('#end '));
  const trailer = JSON.parse(plain.slice(plain.lastIndexOf('#end ') + 5));
  return `${body}#end ${JSON.stringify({ ...trailer, sha256: createHash('sha256').update(body).digest('hex') })}\n`;
}

/** The backup with a line this app never writes just after its header, and 1,000 lines after it that do not compress away. */
function damagedEarly(plain: string): string {
  const afterHeader = plain.indexOf('\n') + 1;
  const filler = Array.from({ length: 1000 }, () => `{"x":"${randomBytes(40).toString('hex')}"}\n`).join('');
  return `${plain.slice(0, afterHeader)}a damaged line\n${filler}${plain.slice(afterHeader)}`;
}

/** The gzip file with its CRC (the trailer's first four bytes) changed. */
function crcBroken(gzip: Buffer): Buffer {
  const copy = Buffer.from(gzip);
  copy[copy.length - 6]! ^= 0xff;
  return copy;
}

async function book(app: App, i: number): Promise<{ status: number; id?: string }> {
  const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: inDays(40 + i), time: '10:00', email: `backup${i}@example.com` }) });
  return { status: res.statusCode, id: res.statusCode === 201 ? (res.json() as { id: string }).id : undefined };
}

async function rowsOf(db: Kysely<any>, table: 'outbox_emails' | 'booking_status_changes', bookingIds: string[]) {
  const rows = await db.selectFrom(table).selectAll().where('booking_id', 'in', bookingIds).orderBy('id').execute();
  return rows.map((row) => JSON.stringify(row));
}

/** The server on a restored database: ready, every migration recorded, the bookings' exclusion constraint in force. */
async function checkStartsOn(t: Test, app: App) {
  t.equal((await app.inject('/readyz')).statusCode, 200, '/readyz 200');
  const applied = await app.db.selectFrom('kysely_migration' as any).select('name').orderBy('name').execute();
  t.same(applied.map((r: any) => r.name), await migrationNames(), 'every migration recorded');
  const { rows } = await sql<{ convalidated: boolean }>`SELECT convalidated FROM pg_constraint WHERE conname = 'bookings_no_overlap'`.execute(app.db);
  t.same(rows, [{ convalidated: true }], 'bookings_no_overlap in force');
}

t.test('a backup taken while twenty bookings are made restores every booking answered before it, into a folder the server starts on', async (t) => {
  const dataDir = await seededDataDir(t);
  const app = await buildTestApp(t, { env: { DATA_DIR: dataDir, BACKUP_EVERY_HOURS: '0' } });
  const answered: string[] = [];
  let answeredBeforeBackup: string[] = [];
  let backup: Promise<Awaited<ReturnType<App['backups']['takeNow']>>> | undefined;
  const bookings = Promise.all(
    Array.from({ length: 20 }, async (_, i) => {
      const res = await book(app, i);
      t.equal(res.status, 201, `booking ${i} made`);
      answered.push(res.id!);
      if (answered.length === 8) {
        answeredBeforeBackup = [...answered];
        backup = app.backups.takeNow();
      }
    }),
  );
  await bookings;
  const file = await backup!;
  t.equal(answered.length, 20);
  t.equal((await stat(file.path)).mode & 0o777, 0o600, 'only its owner may read it');
  t.match(file.name, /^valet-\d{4}-\d{2}-\d{2}T\d{6}\.\d{3}Z-\d{3}_[a-z0-9_]+\.backup\.gz$/);
  t.equal(file.schemaVersion, (await migrationNames()).at(-1), 'named with the schema version');
  t.equal(file.path, path.join(dataDir, 'backups', file.name), 'in DATA_DIR/backups');

  const target = path.join(await tempDir(t, 'valet-restore-'), 'data');
  const outcome = await restoreBackup(file.path, { databaseUrl: undefined, dataDir: target, connectTimeoutMs: 10_000 }, { force: false, log });
  t.same(outcome.migratedForward, []);
  const restored = await buildTestApp(t, { env: { DATA_DIR: target, BACKUP_EVERY_HOURS: '0' } });
  const ids = (await restored.db.selectFrom('bookings').select('id').execute()).map((r) => r.id);
  for (const id of answeredBeforeBackup) t.ok(ids.includes(id), `booking ${id} answered before the backup is there`);
  t.same(await rowsOf(restored.db, 'outbox_emails', answeredBeforeBackup), await rowsOf(app.db, 'outbox_emails', answeredBeforeBackup), 'with its e-mails');
  t.same(await rowsOf(restored.db, 'booking_status_changes', answeredBeforeBackup), await rowsOf(app.db, 'booking_status_changes', answeredBeforeBackup), 'with its history');
  t.ok((await rowsOf(restored.db, 'outbox_emails', answeredBeforeBackup)).length >= answeredBeforeBackup.length, 'the e-mails are there to compare');
  await checkStartsOn(t, restored);
  const customers = await restored.db.selectFrom('customers').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  t.equal(Number(customers.n), ids.length, 'one customer per booking, as in the original (the triggers did not add them twice)');
  const next = await book(restored, 30);
  t.equal(next.status, 201, 'a new booking is taken on the restored database');
});

t.test('on the embedded database a backup holds the database only to copy its files: a booking made meanwhile is answered before it ends', async (t) => {
  const dataDir = await seededDataDir(t);
  const app = await buildTestApp(t, { env: { DATA_DIR: dataDir, BACKUP_EVERY_HOURS: '0' } });
  t.equal((await book(app, 60)).status, 201);
  const order: string[] = [];
  const backup = app.backups.takeNow().then((file) => (order.push('backup'), file));
  // The booking waits at most for the copy of the files; the backup then needs a process of its own to start and read them.
  const during = await book(app, 61);
  order.push('booking');
  const file = await backup;
  t.equal(during.status, 201);
  t.same(order, ['booking', 'backup'], 'the booking was answered while the backup ran');
  t.same((await readdir(path.join(dataDir, 'backups'))).filter((name) => name.startsWith('.')), [], 'the copy of the files is gone');
  t.ok(((await verifyBackupFile(file.path)).trailer.rows.bookings ?? 0) >= 1, 'a whole backup, with the booking made before it (restored whole in the first test)');
});

/** A real backup of a small database, shared by the refusal tests. */
async function smallBackup(t: Test): Promise<string> {
  const dataDir = await seededDataDir(t);
  const app = await buildTestApp(t, { env: { DATA_DIR: dataDir, BACKUP_EVERY_HOURS: '0' } });
  await book(app, 1);
  const file = await app.backups.takeNow();
  await app.close();
  return file.path;
}

t.test('a cut-short, changed, empty or foreign file is refused with one clear line, and the target is left as it was', async (t) => {
  const good = await smallBackup(t);
  const dir = await tempDir(t, 'valet-bad-');
  const bytes = await readFile(good);
  const plain = (await import('node:zlib')).gunzipSync(bytes).toString();
  const cases: [string, Buffer, RegExp][] = [
    ['cut short', bytes.subarray(0, Math.floor(bytes.length / 2)), /cut short/],
    ['one byte changed (compressed)', Buffer.from(bytes.map((b, i) => (i === Math.floor(bytes.length / 2) ? b ^ 0x01 : b))), /changed or damaged|cut short/],
    ['a line this app never writes (gzip and hash made again)', gzipSync(resealed(plain.replace('#sequence ', '#sequel '))), /changed or damaged \(a line is neither a table, a row nor a sequence\)/],
    // A damaged file whose damage shows first as a line, then at its end as gzip's failed check:
    // the refusal must be the only error (the line reader once passed the later one on, unheard).
    ['damage seen as a line before gzip sees it', crcBroken(gzipSync(damagedEarly(plain))), /changed or damaged/],
    ['one byte changed (its content, gzip made again)', gzipSync(plain.replace('backup1@example.com', 'backup2@example.com')), /changed or damaged \(its SHA-256/],
    ['the final line missing', gzipSync(plain.slice(0, plain.lastIndexOf('#end '))), /cut short \(its final line is missing\)/],
    ['empty', Buffer.alloc(0), /empty|cut short/],
    ['a pg_dump of another database', gzipSync('--\n-- PostgreSQL database dump\n--\nSET statement_timeout = 0;\nCREATE TABLE other (id int);\n'), /not a backup of this app/],
    ['not gzip', Buffer.from('PGDMP custom format'), /not a gzip file/],
    ['a newer schema version', gzipSync(resealed(plain.replace(/"schemaVersion":"\d{3}_[a-z0-9_]+"/, '"schemaVersion":"999_from_the_future"'))), /schema version 999_from_the_future, newer than this app's/],
  ];
  const target = path.join(dir, 'data');
  for (const [name, content, message] of cases) {
    const file = path.join(dir, `${name.replaceAll(' ', '-')}.backup.gz`);
    await writeFile(file, content);
    await t.rejects(restoreBackup(file, { databaseUrl: undefined, dataDir: target, connectTimeoutMs: 10_000 }, { force: false, log }), { name: 'BackupFileError', message }, name);
    t.notOk(existsSync(target), `${name}: nothing written`);
    t.same((await readdir(dir)).filter((n) => n.includes('restoring')), [], `${name}: no half-built folder left`);
  }
  await t.resolves(verifyBackupFile(good), 'the file they were made from is whole');
});

t.test('a DATA_DIR that holds a database is refused; --force keeps it under a new name', async (t) => {
  const file = await smallBackup(t);
  const target = await seededDataDir(t);
  const before = await readdir(target);
  await t.rejects(restoreBackup(file, { databaseUrl: undefined, dataDir: target, connectTimeoutMs: 10_000 }, { force: false, log }), RestoreRefusedError);
  t.same(await readdir(target), before, 'left as it was');
  const outcome = await restoreBackup(file, { databaseUrl: undefined, dataDir: target, connectTimeoutMs: 10_000 }, { force: true, log });
  t.teardown(() => rm(outcome.keptAs!, { recursive: true, force: true }));
  t.ok(outcome.keptAs && existsSync(path.join(outcome.keptAs, 'PG_VERSION')), 'the old database is kept');
  t.equal(outcome.rows.bookings, 1);
  const app = await buildTestApp(t, { env: { DATA_DIR: target, BACKUP_EVERY_HOURS: '0' } });
  await checkStartsOn(t, app);
});

t.test('a backup of an older schema version is restored, then migrated forward', async (t) => {
  const names = await migrationNames();
  const older = names.at(-2)!;
  const source = await openDatabase({ databaseUrl: undefined, dataDir: 'memory://', poolMax: 1, connectTimeoutMs: 10_000 }, log);
  t.teardown(() => source.close());
  await migrateTo(source.db, older);
  const file = await takeBackup(source.db, { dir: await tempDir(t, 'valet-older-'), source: 'pglite', takenAt: new Date() });
  t.equal(file!.schemaVersion, older);
  const target = path.join(await tempDir(t, 'valet-forward-'), 'data');
  const outcome = await restoreBackup(file!.path, { databaseUrl: undefined, dataDir: target, connectTimeoutMs: 10_000 }, { force: false, log });
  t.same(outcome.migratedForward, [names.at(-1)], 'migrated forward');
  const app = await buildTestApp(t, { env: { DATA_DIR: target, BACKUP_EVERY_HOURS: '0' } });
  await checkStartsOn(t, app);
});

t.test('a process killed during a backup leaves no file with the final name', async (t) => {
  const dataDir = await seededDataDir(t);
  const backupDir = await tempDir(t, 'valet-killed-');
  // A child that starts a backup and is killed while it writes: its dump waits, so it is caught mid-file.
  const script = `
    import { openDatabase } from './src/db/connect.ts';
    import { takeBackup } from './src/services/backups.service.ts';
    const handle = await openDatabase({ databaseUrl: undefined, dataDir: ${JSON.stringify(dataDir)}, poolMax: 1, connectTimeoutMs: 10000 }, console);
    await takeBackup(handle.db, { dir: ${JSON.stringify(backupDir)}, source: 'pglite', takenAt: new Date(), claim: async () => { process.stdout.write('writing\\n'); await new Promise((r) => setTimeout(r, 60000)); return true; } });
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.teardown(() => child.kill('SIGKILL'));
  await new Promise<void>((resolve) => child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('writing') && resolve()));
  child.kill('SIGKILL');
  await new Promise((resolve) => child.on('exit', resolve));
  const names = await readdir(backupDir);
  t.ok(names.some((n) => n.startsWith('.partial-')), 'its partial file is there');
  t.same(await listBackups(backupDir), [], 'no backup by its final name');
});

t.test('the schedule takes one backup per BACKUP_EVERY_HOURS by the app clock and keeps BACKUP_KEEP', async (t) => {
  // The schedule's rule, on an in-memory database whose backups are taken in this process: a
  // database on disk would start a process for each of the five (the copy, tested above).
  const backupDir = await tempDir(t, 'valet-schedule-');
  let now = new Date(testNow);
  const app = await buildTestApp(t, { env: { BACKUP_DIR: backupDir, BACKUP_EVERY_HOURS: '6', BACKUP_KEEP: '3' }, now: () => now });
  const taken: string[] = [];
  for (let hour = 0; hour < 30; hour += 1) {
    const file = await app.backups.runSchedule();
    if (file) taken.push(file.name);
    now = new Date(now.getTime() + 3_600_000);
  }
  t.equal(taken.length, 5, 'hours 0, 6, 12, 18 and 24');
  t.same((await listBackups(backupDir)).map((f) => f.name), taken.slice(-3).reverse(), 'the newest three kept, the oldest gone');
});

t.test('the owner lists, takes and downloads backups; staff and names outside BACKUP_DIR are refused', async (t) => {
  const dataDir = await seededDataDir(t);
  const lines: string[] = [];
  const app = await buildTestApp(t, {
    env: { DATA_DIR: dataDir, BACKUP_EVERY_HOURS: '0', LOG_LEVEL: 'info' },
    logStream: { write: (line: string) => void lines.push(line) },
  });
  const cookie = await login(app);
  t.equal((await app.inject({ method: 'GET', url: '/v1/backups' })).statusCode, 401, 'anonymous: 401');
  const empty = await app.inject({ method: 'GET', url: '/v1/backups', headers: { cookie } });
  t.same(empty.json(), { backups: [], enabled: true, everyHours: 0, keep: 14 });
  const made = await app.inject({ method: 'POST', url: '/v1/backups', headers: { cookie } });
  t.equal(made.statusCode, 201);
  const backup = made.json() as { name: string; sizeBytes: number; schemaVersion: string; takenAt: string };
  const list = await app.inject({ method: 'GET', url: '/v1/backups', headers: { cookie } });
  t.same(list.json().backups, [backup]);
  const download = await app.inject({ method: 'GET', url: `/v1/backups/${backup.name}`, headers: { cookie } });
  t.equal(download.statusCode, 200);
  t.equal(download.headers['cache-control'], 'no-store');
  t.equal(download.headers['content-type'], 'application/gzip');
  t.same(download.rawPayload, await readFile(path.join(dataDir, 'backups', backup.name)), 'the file itself');
  t.ok(lines.some((l) => l.includes('"backup downloaded"') && l.includes(backup.name) && l.includes('"by"')), 'the download is logged with who');
  for (const name of ['..%2F..%2Fapp.lock', '..%2Fapp.lock', '%2Fetc%2Fpasswd', `${backup.name}%00`, 'valet-2026-01-01T000000.000Z-034_x.backup.gz']) {
    const res = await app.inject({ method: 'GET', url: `/v1/backups/${name}`, headers: { cookie } });
    t.ok([400, 404].includes(res.statusCode), `${decodeURIComponent(name)}: ${res.statusCode}`);
    t.match(res.json(), { message: String, errors: Array });
  }
  const invited = await app.inject({ method: 'POST', url: '/v1/staff-members', headers: { cookie }, payload: { name: 'Tama', email: 'tama@valet.test', role: 'staff' } });
  const hash = await argon2.hash(MEMBER_PASSWORD, { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 });
  await app.db.updateTable('staff_members').set({ password_hash: hash, password_changed_at: new Date() }).where('id', '=', invited.json().id).execute();
  const signIn = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'tama@valet.test', password: MEMBER_PASSWORD } });
  const staff = `session=${signIn.cookies.find((c) => c.name === 'session')!.value}`;
  for (const [method, url] of [['GET', '/v1/backups'], ['POST', '/v1/backups'], ['GET', `/v1/backups/${backup.name}`]] as const) {
    t.equal((await app.inject({ method, url, headers: { cookie: staff } })).statusCode, 403, `staff: ${method} ${url} 403`);
  }
});
