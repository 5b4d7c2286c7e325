/**
 * Whether the production build (dist/) is missing or older than its sources, and building it.
 * `npm start` and `npm test` call this so that a fresh clone just works.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ROOT_DIR } from '../paths.ts';

/** Written by package.json's `postbuild`, so a build run by hand counts as well as one started here. */
const STAMP = path.join(ROOT_DIR, 'dist', '.build-stamp');
const OUTPUTS = [path.join(ROOT_DIR, 'dist/server/server.js'), path.join(ROOT_DIR, 'dist/client/.vite/manifest.json')];
const SOURCE_DIRS = ['src', 'client', 'migrations'];
const SOURCE_FILES = ['package.json', 'package-lock.json', 'tsconfig.json'];

function newestMtime(entry: string): number {
  const stats = statSync(entry);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const child of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

export function buildIsStale(): boolean {
  if (!existsSync(STAMP) || OUTPUTS.some((file) => !existsSync(file))) return true;
  const built = statSync(STAMP).mtimeMs;
  const sources = [...SOURCE_DIRS, ...SOURCE_FILES].map((entry) => path.join(ROOT_DIR, entry)).filter((entry) => existsSync(entry));
  return sources.some((entry) => newestMtime(entry) > built);
}

/** Runs `npm run build` when the build is missing or stale; exits the process if it fails. */
export function ensureBuild(): void {
  if (!buildIsStale()) return;
  process.stdout.write('Building the production bundle (npm run build)…\n');
  const result = spawnSync('npm', ['run', 'build'], { cwd: ROOT_DIR, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
