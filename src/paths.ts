/**
 * Where the project's files are, found from this module's own location so that the same code
 * works from `src/` (tsx), from the bundled `dist/server/` and inside the Docker image.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(start: string): string {
  let dir = start;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`No package.json above ${start}`);
    dir = parent;
  }
  return dir;
}

export const ROOT_DIR = findRoot(path.dirname(fileURLToPath(import.meta.url)));
export const MIGRATIONS_DIR = path.join(ROOT_DIR, 'migrations');
export const CLIENT_DIST_DIR = path.join(ROOT_DIR, 'dist', 'client');
