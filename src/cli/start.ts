/**
 * `npm start`: makes sure the production build is current, then runs it in a child process (with
 * the V8 flags for its database), passing signals on so that the server shuts down gracefully.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT_DIR, SERVER_ENTRY, SERVER_MALLOC_ENV, serverNodeFlags } from '../paths.ts';
import { ensureBuild } from './build-state.ts';

ensureBuild();

const server = spawn(process.execPath, [...serverNodeFlags(process.env), path.join(ROOT_DIR, SERVER_ENTRY)], {
  cwd: ROOT_DIR,
  stdio: 'inherit',
  env: { NODE_ENV: 'production', ...SERVER_MALLOC_ENV, ...process.env },
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
