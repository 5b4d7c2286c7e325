import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { buildTestApp } from './helper.ts';
import { seededDataDir } from './support/pglite-snapshot.ts';

/** Kills a process and every process below it (Linux: /proc lists each one's children). */
function killTree(pid: number): void {
  let children: string[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(/\s+/).filter((id) => /^[1-9][0-9]*$/.test(id));
  } catch {
    // Already gone.
  }
  for (const child of children) killTree(Number(child));
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/**
 * Runs `npm run set-password`'s script in a real terminal (util-linux `script` gives it a pty),
 * typing each answer when its prompt appears. Returns what the terminal showed and the exit code.
 */
function runSetPassword(dataDir: string, answers: string[]): Promise<{ output: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', 'node --import tsx src/cli/set-password.ts', '/dev/null'], {
      env: { ...process.env, DATA_DIR: dataDir, ADMIN_PASSWORD: '', ADMIN_PASSWORD_HASH: '', DATABASE_URL: '', LOG_LEVEL: 'warn' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    const pending = [...answers];
    let prompts = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const seen = (output.match(/New staff password: |Repeat it: /g) ?? []).length;
      while (prompts < seen && pending.length > 0) {
        prompts += 1;
        child.stdin.write(`${pending.shift()}\r`);
      }
    });
    // Generous: on a busy machine tsx, the embedded database's first start and argon2 take a while.
    // The whole tree: `script` runs node in a session of its own, and killing `script` alone left
    // that node process running, holding DATA_DIR's lock against the next step.
    const timer = setTimeout(() => killTree(child.pid!), 90_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ output, code });
    });
  });
}

t.test('set-password asks twice without echo and stores a hash the server accepts', async (t) => {
  // An existing embedded database, as an operator who changes the password has.
  const dataDir = await seededDataDir(t);

  const mismatch = await runSetPassword(dataDir, ['first-password-1', 'second-password-2']);
  t.equal(mismatch.code, 1);
  t.match(mismatch.output, /differ/);

  const { output, code } = await runSetPassword(dataDir, ['a-brand-new-password', 'a-brand-new-password']);
  t.equal(code, 0, output);
  t.match(output, /Password changed/);
  t.notMatch(output, /a-brand-new-password/, 'the password is never echoed');

  const app = await buildTestApp(t, { env: { DATA_DIR: dataDir, ADMIN_PASSWORD: '' } });
  const login = (password: string) => app.inject({ method: 'POST', url: '/v1/auth/login', payload: { password } });
  t.equal((await login('a-brand-new-password')).statusCode, 204);
  t.equal((await login('first-password-1')).statusCode, 401);
});

t.test('set-password refuses a short password', async (t) => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'valet-setpw-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const { output, code } = await runSetPassword(dataDir, ['short']);
  t.equal(code, 1);
  t.match(output, /at least 12 characters/);
});
