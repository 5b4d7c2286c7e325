/** Real server processes for tests that need more than `inject`: free ports, waiting, the built server. */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import type { Test } from 'tap';
import { ROOT_DIR, SERVER_ENTRY, SERVER_MALLOC_ENV, serverNodeFlags } from '../../src/paths.ts';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

export interface ServerProcess {
  base: string;
  child: ChildProcess;
  /** Everything it wrote to standard output and error so far. */
  output(): string;
}

/** Starts dist/server/server.js (npm test builds it) with `env` on a free port; killed when the test ends. */
export async function startBuiltServer(t: Test, env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...serverNodeFlags(env), path.join(ROOT_DIR, SERVER_ENTRY)], {
    cwd: ROOT_DIR,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', ...SERVER_MALLOC_ENV, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return { base: `http://127.0.0.1:${port}`, child, output: () => output };
}
