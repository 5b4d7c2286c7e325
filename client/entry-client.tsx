/** Browser entry: loads the page's chunk and hydrates the server-rendered page with the server's props. */
import { startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import './styles/base.css';
import './styles/shared.css';
import { App } from './App.tsx';
import { loadPage } from './lib/page-loader.ts';
import type { PageProps } from './page-props.ts';
import type { PageModule } from './routes.ts';

const data = document.getElementById('__DATA__');
const root = document.getElementById('root');
if (data && root) {
  const props = JSON.parse(data.textContent ?? '{}') as PageProps<unknown>;
  // The server names the page's module, so the page table (titles, descriptions) stays out of the bundle.
  loadPage(root.dataset.page as PageModule, props.state).then((Page) => {
    // As a transition, hydration yields to the browser between components instead of holding the
    // main thread in one long task (as Next.js hydrates).
    startTransition(() => {
      hydrateRoot(root, <App {...props} Page={Page} />);
    });
  });
}
