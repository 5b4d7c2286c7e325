/**
 * A part of a staff page loaded when first opened (a view, a dialog), as React.lazy loads it, and
 * with it, at once, every chunk it imports that the page has not loaded yet. The build leaves
 * Vite's preload helper out (client/vite.config.ts), so on its own the browser would find those
 * chunks only once the part's chunk had arrived and been parsed, one round trip after another on
 * a phone's connection. The server names them in the boot script's `data-lazy` (from the
 * manifest: src/render/assets.ts), by the part's module as the manifest names it. A chunk that
 * cannot be fetched here fails again, visibly, when the part's own import asks for it.
 */
import { lazy, type ComponentType } from 'react';

/**
 * Starts fetching the chunks of `part` (`staff/components/DayView.tsx`) that the page lacks. The
 * list is read where it is needed, once per part (React.lazy loads a part once), with no map kept.
 */
function fetchPart(part: string): void {
  for (const entry of (document.querySelector<HTMLScriptElement>('script[data-lazy]')?.dataset.lazy ?? '').split(';')) {
    const [module, ...chunks] = entry.split(' ');
    if (module === part) for (const href of chunks) import(/* @vite-ignore */ href).catch(() => undefined);
  }
}

/** React.lazy for `part`, whose chunks are all asked for together when it is first rendered (typed as React.lazy is). */
export function lazyPart<T extends ComponentType<any>>(part: string, load: () => Promise<{ default: T }>) {
  return lazy(() => {
    fetchPart(part);
    return load();
  });
}
