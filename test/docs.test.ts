/**
 * Issue 45: the docs stay honest. docs/configuration.md lists exactly the environment variables
 * the application reads (the settings schema, `EnvSchema` in src/config.ts, and any variable read
 * straight from the environment anywhere in src/), and every relative link and image in README.md
 * and docs/*.md leads to a file that exists, and to a heading of it when it names one.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { EnvSchema } from '../src/config.ts';
import { ROOT_DIR } from '../src/paths.ts';

const read = (file: string) => readFileSync(file, 'utf8');

function filesUnder(dir: string, extension: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(extension))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** A markdown file without its fenced code blocks. */
function withoutCodeBlocks(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** The text of a markdown file without its code, where a link is only an example. */
function prose(markdown: string): string {
  return withoutCodeBlocks(markdown).replace(/`[^`\n]*`/g, '');
}

/** Upper-case names read from the environment in source: `process.env.X`, `env.X`, `env['X']`. */
function variablesReadIn(source: string): string[] {
  const names = new Set<string>();
  for (const match of source.matchAll(/\benv(?:\.([A-Z][A-Z0-9_]*)\b|\[\s*['"]([A-Z][A-Z0-9_]*)['"]\s*\])/g)) names.add(match[1] ?? match[2]!);
  return [...names];
}

/** The variables a configuration page documents: the backticked names in the first cell of its tables' rows. */
function documentedVariables(markdown: string): string[] {
  const names: string[] = [];
  for (const line of markdown.split('\n')) {
    const firstCell = /^\|([^|]*)\|/.exec(line)?.[1];
    if (firstCell) for (const match of firstCell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.push(match[1]!);
  }
  return names;
}

/** GitHub's anchor for a heading: lower case, inline markup and punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

/** The anchors of a markdown file's headings, repeated ones numbered as GitHub numbers them. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of withoutCodeBlocks(markdown).replace(/`/g, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(match[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Every relative link and image of a markdown file that leads nowhere, as `target: why`. */
function brokenLinks(file: string): string[] {
  const text = read(file);
  const targets = [
    ...[...prose(text).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
    ...[...prose(text).matchAll(/<img\b[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]!),
  ];
  const problems: string[] = [];
  for (const target of targets) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: and the like
    const [pathPart, anchor] = target.split('#') as [string, string | undefined];
    const resolved = pathPart === '' ? file : path.resolve(path.dirname(file), decodeURIComponent(pathPart));
    if (!existsSync(resolved)) {
      problems.push(`${target}: no such file`);
      continue;
    }
    if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(read(resolved)).has(anchor.toLowerCase())) {
      problems.push(`${target}: no heading #${anchor} in ${path.relative(ROOT_DIR, resolved)}`);
    }
  }
  return problems;
}

const DOCS_DIR = path.join(ROOT_DIR, 'docs');
const pages = [path.join(ROOT_DIR, 'README.md'), ...readdirSync(DOCS_DIR).filter((name) => name.endsWith('.md')).map((name) => path.join(DOCS_DIR, name))];

t.test('docs/configuration.md lists exactly the variables the application reads', async (t) => {
  const schema = Object.keys(EnvSchema.properties);
  const readInSource = filesUnder(path.join(ROOT_DIR, 'src'), '.ts').flatMap((file) => variablesReadIn(read(file)));
  t.ok(readInSource.includes('DATABASE_URL'), 'the scan of src/ finds what it looks for (src/paths.ts reads env.DATABASE_URL)');
  const readByApp = [...new Set([...schema, ...readInSource])].sort();
  const documented = documentedVariables(read(path.join(DOCS_DIR, 'configuration.md')));
  t.same(
    documented.filter((name, i) => documented.indexOf(name) !== i),
    [],
    'each variable documented once',
  );
  t.same(readByApp.filter((name) => !documented.includes(name)), [], 'every variable read is documented');
  t.same([...new Set(documented)].filter((name) => !readByApp.includes(name)).sort(), [], 'every variable documented is read');
});

t.test('every relative link and image in README.md and docs/ resolves', async (t) => {
  t.ok(pages.length > 5, 'the README and the docs pages are found');
  for (const page of pages) t.same(brokenLinks(page), [], path.relative(ROOT_DIR, page));
});

t.test('the README stays short and each docs page says who it is for', async (t) => {
  t.ok(read(path.join(ROOT_DIR, 'README.md')).split('\n').length <= 250, 'README.md has at most 250 lines');
  t.match(read(path.join(ROOT_DIR, 'README.md')), /^npm test\b/m, "the README's test command is the one CI runs (npm test)");
  for (const page of pages.filter((p) => p.startsWith(DOCS_DIR))) {
    t.match(read(page), /^# .+\n\n\*For [^\n]+\*\n/, `${path.basename(page)} starts with who it is for`);
  }
});

t.test('the link check finds a missing file, a missing heading and an image that is not there', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'docs-test-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'other.md'), '# Other\n\n## A `code` heading, with punctuation!\n\n## Twice\n\n## Twice\n');
  const page = path.join(dir, 'page.md');
  writeFileSync(
    page,
    [
      '# Page',
      '[fine](other.md) [fine](other.md#a-code-heading-with-punctuation) [fine](other.md#twice-1) [self](#page) [web](https://example.com/x.md)',
      '[gone](missing.md) [no heading](other.md#nowhere) ![gone](images/none.png) <img src="images/none.svg" alt="">',
      '`[in code](ignored.md)`',
      '```',
      '[in a block](ignored-too.md)',
      '```',
    ].join('\n'),
  );
  t.same(brokenLinks(page), ['missing.md: no such file', 'other.md#nowhere: no heading #nowhere in ' + path.relative(ROOT_DIR, path.join(dir, 'other.md')), 'images/none.png: no such file', 'images/none.svg: no such file']);
  t.same(documentedVariables('| Variable | Default |\n|---|---|\n| `A_B`, `C` | `D` |\n\nText `E` and `F_G`.'), ['A_B', 'C']);
  t.same(variablesReadIn("process.env.ONE; env.TWO_2; env['THREE']; env.npm_lifecycle_event; config.env.x"), ['ONE', 'TWO_2', 'THREE']);
});
