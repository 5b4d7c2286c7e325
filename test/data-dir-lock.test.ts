import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import { buildTestApp } from './helper.ts';
import { DataDirLockedError, LOCK_FILE, lockDataDir } from '../src/db/data-dir-lock.ts';
import { seededDataDir } from './support/pglite-snapshot.ts';
import { startBuiltServer } from './support/server-process.ts';

async function tempDataDir(t: Test): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'valet-lock-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

t.test('a second holder of one DATA_DIR is refused until the first lets go', async (t) => {
  const dir = await tempDataDir(t);
  const release = lockDataDir(dir);
  t.equal((await readFile(path.join(dir, LOCK_FILE), 'utf8')).trim(), String(process.pid), 'the lock names its process');
  t.throws(() => lockDataDir(dir), DataDirLockedError);
  release();
  const again = lockDataDir(dir);
  again();
});

t.test('a lock left by a process that died is taken over', async (t) => {
  const dir = await tempDataDir(t);
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  await writeFile(path.join(dir, LOCK_FILE), `${dead.stdout}\n`);
  const release = lockDataDir(dir);
  t.equal((await readFile(path.join(dir, LOCK_FILE), 'utf8')).trim(), String(process.pid));
  release();
});

t.test("a lock holding this process's own pid from an earlier life (a restarted container) is taken over", async (t) => {
  const dir = await tempDataDir(t);
  await writeFile(path.join(dir, LOCK_FILE), `${process.pid}\n`);
  const release = lockDataDir(dir);
  release();
});

t.test('a second server on the same DATA_DIR stops with a clear message; the first keeps serving', async (t) => {
  const dir = await seededDataDir(t);
  const first = await buildTestApp(t, { env: { DATA_DIR: dir } });
  const second = await startBuiltServer(t, { DATA_DIR: dir, ADMIN_PASSWORD: 'correct horse battery staple' });
  const code = await new Promise<number | null>((resolve) => second.child.on('exit', resolve));
  const output = second.output();
  t.equal(code, 1, 'refused');
  t.match(output, new RegExp(`^The embedded database in ${dir} is in use by process ${process.pid}: one process per DATA_DIR`));
  t.equal(output.trim().split('\n').length, 1, 'one line, no stack trace');
  t.equal((await first.inject('/readyz')).statusCode, 200);
});
