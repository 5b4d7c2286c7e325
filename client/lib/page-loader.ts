/**
 * Each page is its own chunk, so a visitor downloads only the code of the page in front of them
 * (the server preloads it alongside the entry, so there is no extra round trip).
 */
import type { ComponentType } from 'react';
import type { PageProps } from '../page-props.ts';
import type { PageModule } from '../routes.ts';

type PageChunk = {
  default: ComponentType<PageProps<never>>;
  /** Loads what the page needs to hydrate in the state the server rendered (its lazy parts). */
  prepare?(state: unknown): Promise<void>;
};

// Public pages in pages/, the staff's in staff/pages/, by file name (short keys: this table is on every page).
const chunks = {
  ...import.meta.glob<PageChunk>('./*Page.tsx', { base: '../pages' }),
  ...import.meta.glob<PageChunk>('./*Page.tsx', { base: '../staff/pages' }),
};

export async function loadPage(module: PageModule, state: unknown): Promise<ComponentType<PageProps<never>>> {
  const load = chunks[`./${module}.tsx`];
  if (!load) throw new Error(`No chunk for page ${module}`);
  const chunk = await load();
  await chunk.prepare?.(state);
  return chunk.default;
}
