/**
 * The parts of the house and what each may import (docs/development.md, the tree diagram): client/ reaches
 * src/ only through the package's `imports` names (#domain/…, #api/…), never by climbing with
 * ../; src/domain/ is pure (no HTTP, React or database); the browser's code never reaches the
 * database, the services, the routes or the server's plugins, and takes only types from the
 * API's shapes (TypeBox stays out of the bundle). Read from the source, so a new file is checked too.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { ROOT_DIR } from '../src/paths.ts';

interface Import {
  specifier: string;
  /** The file it resolves to, or null for a package. */
  target: string | null;
  typeOnly: boolean;
}

const PACKAGE_IMPORTS: Record<string, string> = JSON.parse(readFileSync(path.join(ROOT_DIR, 'package.json'), 'utf8')).imports;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' || name === 'public' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(name) ? [full] : [];
  });
}

function resolve(from: string, specifier: string): string | null {
  if (specifier.startsWith('.')) return path.resolve(path.dirname(from), specifier);
  for (const [pattern, target] of Object.entries(PACKAGE_IMPORTS)) {
    const prefix = pattern.slice(0, -1);
    if (pattern.endsWith('*') && specifier.startsWith(prefix)) return path.resolve(ROOT_DIR, target.slice(0, -1) + specifier.slice(prefix.length));
  }
  return specifier.startsWith('#') ? path.resolve(ROOT_DIR, '#unmapped', specifier) : null;
}

/** Every import of a source text: static, side-effect, re-export, dynamic and import.meta.glob. */
function importsOf(file: string, source: string): Import[] {
  const found: Import[] = [];
  for (const match of source.matchAll(/^\s*(import|export)\s+(type\s+)?[^;]*?\bfrom\s*['"]([^'"]+)['"]/gm)) {
    found.push({ specifier: match[3]!, target: resolve(file, match[3]!), typeOnly: Boolean(match[2]) });
  }
  for (const match of source.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)) found.push({ specifier: match[1]!, target: resolve(file, match[1]!), typeOnly: false });
  for (const match of source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push({ specifier: match[1]!, target: resolve(file, match[1]!), typeOnly: false });
  // A glob of one pattern or of an array of them, relative to the file or to its `base` option.
  for (const match of source.matchAll(/import\.meta\.glob(?:<[^>]*>)?\(\s*(\[[^\]]*\]|['"][^'"]+['"])\s*(?:,\s*\{([^}]*)\})?/g)) {
    const base = /base:\s*['"]([^'"]+)['"]/.exec(match[2] ?? '')?.[1];
    for (const [, specifier] of match[1]!.matchAll(/['"]([^'"]+)['"]/g)) {
      const pattern = base ? path.join(path.dirname(file), base, specifier!) : resolve(file, specifier!)!;
      const name = new RegExp(`^${path.basename(pattern).replace(/\./g, '\\.').replace(/\*/g, '[^/]*')}$`);
      for (const entry of readdirSync(path.dirname(pattern)).filter((entry) => name.test(entry))) {
        found.push({ specifier: specifier!, target: path.join(path.dirname(pattern), entry), typeOnly: false });
      }
    }
  }
  return found;
}

const relative = (file: string) => path.relative(ROOT_DIR, file);
const inside = (file: string, dir: string) => !path.relative(path.join(ROOT_DIR, dir), file).startsWith('..');
const readImports = (file: string) => importsOf(file, readFileSync(file, 'utf8'));

t.test('the scanner sees every kind of import', async (t) => {
  const file = path.join(ROOT_DIR, 'client/staff/components/Example.tsx');
  const found = importsOf(
    file,
    [
      "import { a } from '../../../src/db/database.ts';",
      "import type {\n  B,\n  C,\n} from '#api/schemas.ts';",
      "import './Example.css';",
      "export { d } from '#domain/catalogue.ts';",
      "const e = await import('./lazy.tsx');",
      "import React from 'react';",
    ].join('\n'),
  );
  t.same(
    found.map(({ target, typeOnly }) => [target && relative(target), typeOnly]),
    [
      ['src/db/database.ts', false],
      ['src/api/schemas.ts', true],
      ['src/domain/catalogue.ts', false],
      [null, false],
      ['client/staff/components/Example.css', false],
      ['client/staff/components/lazy.tsx', false],
    ],
  );
});

t.test('client/ never climbs into src/ with a relative path: it names the part (#domain/…, #api/…)', async (t) => {
  const climbs = sourceFiles(path.join(ROOT_DIR, 'client')).flatMap((file) =>
    readImports(file)
      .filter(({ specifier, target }) => specifier.startsWith('.') && target && !inside(target, 'client'))
      .map(({ specifier }) => `${relative(file)}: ${specifier}`),
  );
  t.same(climbs, []);
});

t.test('every #name import resolves to a file', async (t) => {
  const missing = [...sourceFiles(path.join(ROOT_DIR, 'client')), ...sourceFiles(path.join(ROOT_DIR, 'src'))].flatMap((file) =>
    readImports(file)
      .filter(({ specifier, target }) => specifier.startsWith('#') && !statSync(target!, { throwIfNoEntry: false }))
      .map(({ specifier }) => `${relative(file)}: ${specifier}`),
  );
  t.same(missing, []);
});

t.test('src/domain is pure: it imports nothing from HTTP, React, the database or the rest of src', async (t) => {
  const FORBIDDEN = /^(fastify|fastify-plugin|@fastify\/|react|react-dom|kysely|pg|@electric-sql\/|argon2|pino)(\/|$)/;
  const wrong = sourceFiles(path.join(ROOT_DIR, 'src/domain')).flatMap((file) =>
    readImports(file)
      .filter(({ specifier, target }) => (target ? !inside(target, 'src/domain') : FORBIDDEN.test(specifier)))
      .map(({ specifier }) => `${relative(file)}: ${specifier}`),
  );
  t.same(wrong, []);
});

t.test('the browser bundle never reaches the database, services, routes or server plugins, and takes only types from the API shapes', async (t) => {
  const SERVER_ONLY = ['src/db', 'src/services', 'src/routes', 'src/plugins', 'src/render'];
  const reached = new Set<string>();
  const wrong: string[] = [];
  const visit = (file: string, via: string) => {
    if (reached.has(file)) return;
    reached.add(file);
    if (SERVER_ONLY.some((dir) => inside(file, dir))) wrong.push(`${relative(file)} (from ${via})`);
    if (!/\.tsx?$/.test(file)) return;
    for (const { specifier, target, typeOnly } of readImports(file)) {
      if (!target) continue;
      // The API shapes may build on one another (src/api/customer-schemas.ts on schemas.ts); what
      // the browser takes from them must be types alone, which the bundler erases.
      if (inside(target, 'src/api') && !typeOnly && !inside(file, 'src/api')) wrong.push(`${relative(file)} takes values from ${specifier}`);
      visit(target, relative(file));
    }
  };
  visit(path.join(ROOT_DIR, 'client/entry-client.tsx'), 'the entry');
  for (const file of ['client/pages/BookingPage.tsx', 'client/staff/pages/DashboardPage.tsx', 'client/lib/toaster.tsx', 'src/domain/booking-rules.ts', 'src/api/schemas.ts']) {
    t.ok(reached.has(path.join(ROOT_DIR, file)), `the walk reaches ${file}`);
  }
  t.same(wrong, []);
});
