/** The hashed files of the browser bundle, read once from the Vite manifest. */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface PageAssets {
  /** Module chunks to preload: the page's own and those it imports. */
  scripts: string[];
  /**
   * Stylesheets of those chunks, each chunk's after those of the chunks it imports, and those of
   * the parts it loads lazily: the server may render those parts.
   */
  styles: string[];
  /**
   * The text of the entry's stylesheets and then of `styles`, in that order: the page's one
   * `<style>` block, so that nothing blocks its first paint (issue 24). The client does not
   * fetch these files again when it loads the page's chunk (client/vite.config.ts).
   */
  css: string;
  /** The Content-Security-Policy source that allows that block: `'sha256-…'`. */
  cssHash: string;
  /**
   * The page's parts loaded when first needed (its dynamic imports, and theirs), by module (as
   * the manifest names it: `staff/components/DayView.tsx`): the part's chunk and every chunk it
   * imports that the page has not loaded already, to be fetched at once when the part is opened
   * (client/staff/lib/lazy-part.ts) instead of one import after another. The staff's pages only.
   */
  lazyParts: Record<string, string[]>;
}

/** A style block's Content-Security-Policy source. */
export function styleHashSource(css: string): string {
  return `'sha256-${createHash('sha256').update(css).digest('base64')}'`;
}

export interface ClientAssets {
  script: string;
  styles: string[];
  /** By page module name (client/pages/{name}.tsx, or client/staff/pages/ for the staff's). */
  pages: Record<string, PageAssets>;
}

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
  dynamicImports?: string[];
  isDynamicEntry?: boolean;
}

const ENTRY = 'entry-client.tsx';
const PAGE_CHUNK = /^(?:staff\/)?pages\/(\w+Page)\.tsx$/;

export function loadClientAssets(clientDir: string): ClientAssets {
  const manifestPath = path.join(clientDir, '.vite', 'manifest.json');
  let manifest: Record<string, ManifestChunk>;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  } catch {
    throw new Error(`The browser bundle is missing (${manifestPath}); run npm run build`);
  }
  const entry = manifest[ENTRY];
  if (!entry) throw new Error(`${manifestPath} has no ${ENTRY} entry; run npm run build`);

  const entryStyles = (entry.css ?? []).map((file) => `/${file}`);
  const cssText = new Map<string, string>();
  const textOf = (url: string) => cssText.get(url) ?? cssText.set(url, readFileSync(path.join(clientDir, url), 'utf8').trim()).get(url)!;
  const pages: Record<string, PageAssets> = {};
  for (const [key, chunk] of Object.entries(manifest)) {
    const name = PAGE_CHUNK.exec(key)?.[1];
    if (!name || !chunk.isDynamicEntry) continue;
    const seen = new Set<string>([ENTRY]);
    const scripts: string[] = [];
    const styles: string[] = [];
    const visit = (chunkKey: string, lazy: boolean) => {
      if (seen.has(chunkKey)) return;
      seen.add(chunkKey);
      const current = manifest[chunkKey];
      if (!current) return;
      if (!lazy) scripts.push(`/${current.file}`);
      for (const imported of current.imports ?? []) visit(imported, lazy);
      // After those of the chunks it imports, as Vite orders them, so a page's rules come last.
      styles.push(...(current.css ?? []).map((file) => `/${file}`));
    };
    visit(key, false);
    // A lazy part's script is fetched when needed, but the server renders it too (the booking
    // wizard's later steps without JavaScript), so its stylesheet is linked with the page.
    for (const lazyPart of chunk.dynamicImports ?? []) visit(lazyPart, true);
    // A stylesheet imported from two chunks (Field.css) is listed by both: linked once, where it first comes.
    const pageStyles = [...new Set(styles)];
    const css = [...entryStyles, ...pageStyles].map(textOf).join('\n');
    // The staff's parts open on a tap (a view, a dialog); a public page loads its own as soon as it
    // has hydrated (the booking wizard's later steps), with nobody waiting on them yet.
    const lazyParts = key.startsWith('staff/') ? lazyPartsOf(manifest, key) : {};
    pages[name] = { scripts, styles: pageStyles, css, cssHash: styleHashSource(css), lazyParts };
  }
  return { script: `/${entry.file}`, styles: entryStyles, pages };
}

/**
 * The chunks of each part `pageKey` loads when first needed, and of their own such parts: the
 * part's chunk and what it imports, less what the page itself loads (the entry, the page's chunk
 * and theirs). A part opened from another part counts what that one loaded as loaded too.
 */
function lazyPartsOf(manifest: Record<string, ManifestChunk>, pageKey: string): Record<string, string[]> {
  const staticChunks = (key: string, into = new Set<string>()): Set<string> => {
    if (into.has(key) || !manifest[key]) return into;
    into.add(key);
    for (const imported of manifest[key].imports ?? []) staticChunks(imported, into);
    return into;
  };
  const parts: Record<string, string[]> = {};
  const visit = (key: string, loaded: Set<string>) => {
    for (const part of manifest[key]?.dynamicImports ?? []) {
      if (part in parts || !manifest[part]) continue;
      const chunks = [...staticChunks(part)].filter((chunk) => !loaded.has(chunk));
      parts[part] = chunks.map((chunk) => `/${manifest[chunk]!.file}`);
      visit(part, new Set([...loaded, ...chunks]));
    }
  };
  visit(pageKey, staticChunks(pageKey, staticChunks(ENTRY)));
  return parts;
}
