/**
 * Each test file is a Node process of its own that loads the app from source through tsx, whose
 * loader hooks run in a thread of their own: every module costs two round trips to it. TypeBox,
 * Kysely and date-fns ship their ES modules as about 1,250 small files, three quarters of the
 * 1,600 modules a test loaded, and about half of each test process's 5 to 6 seconds of start on
 * a 2-core machine. As Vite does for its dev server (dependency pre-bundling), this hook answers
 * `import` of those packages with one bundle each, made by esbuild once per set of versions and
 * kept in node_modules/.cache, with the code they share split into common chunks so that every
 * entry of a package sees one copy of its internals. `require` still gets the packages as they are.
 * Loaded by tap (package.json) with `--import`, after tsx.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { register } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The specifiers answered from the bundles: every one the app, the tests or their libraries import. */
const ENTRIES = [
  'typebox',
  ...['compile', 'error', 'format', 'guard', 'schema', 'system', 'type', 'value'].map((sub) => `typebox/${sub}`),
  'kysely',
  'kysely/helpers/postgres',
  'date-fns',
  '@date-fns/tz',
];
/** The packages whose versions the bundles depend on: those named above, and esbuild. */
const PACKAGES = [...new Set(ENTRIES.map((specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/'))), 'esbuild'];

const fileName = (specifier: string) => specifier.replaceAll('/', '__');

/** The bundles' directory for the installed versions, made when missing (under another name, then renamed: test processes start in parallel). */
function bundles(): string {
  const hash = createHash('sha256').update(JSON.stringify(ENTRIES));
  for (const name of PACKAGES) hash.update(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json')));
  const dir = path.join(ROOT, 'node_modules/.cache/prebundled-deps', hash.digest('hex').slice(0, 16));
  if (existsSync(dir)) return dir;
  const temporary = `${dir}.${process.pid}.tmp`;
  buildSync({
    entryPoints: Object.fromEntries(ENTRIES.map((specifier) => [fileName(specifier), specifier])),
    absWorkingDir: ROOT,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    outdir: temporary,
    // .mjs: there is no package.json above the bundles to say that .js files are ES modules.
    outExtension: { '.js': '.mjs' },
    logLevel: 'error',
  });
  mkdirSync(path.dirname(dir), { recursive: true });
  try {
    renameSync(temporary, dir);
  } catch (error) {
    // Another test process made it first.
    rmSync(temporary, { recursive: true, force: true });
    if (!existsSync(dir)) throw error;
  }
  return dir;
}

const HOOKS = `
let map;
export function initialize(data) {
  map = new Map(data.entries);
}
export async function resolve(specifier, context, nextResolve) {
  const url = map.get(specifier);
  if (url && context.conditions.includes('import')) return { url, format: 'module', shortCircuit: true };
  return nextResolve(specifier, context);
}
`;

const dir = bundles();
register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, {
  data: { entries: ENTRIES.map((specifier) => [specifier, pathToFileURL(path.join(dir, `${fileName(specifier)}.mjs`)).href]) },
});
