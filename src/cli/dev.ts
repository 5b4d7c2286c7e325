/**
 * `npm run dev`: rebuilds the browser bundle on change (vite build --watch) and restarts the
 * server on change (tsx watch); Ctrl-C stops both.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT_DIR } from '../paths.ts';

const children: ChildProcess[] = [
  spawn('npx', ['vite', 'build', '--config', 'client/vite.config.ts', '--watch', '--mode', 'development'], { cwd: ROOT_DIR, stdio: 'inherit' }),
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', '--import', './src/css-in-node.ts', 'src/server.ts'], {
    cwd: ROOT_DIR,
    stdio: 'inherit',
    env: { NODE_ENV: 'development', ...process.env },
  }),
];

function stop(code: number): void {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exit(code);
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
for (const child of children) child.on('exit', (code) => stop(code ?? 0));
