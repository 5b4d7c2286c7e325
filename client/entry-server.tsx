/** Server entry: renders a page to HTML with the same App the browser hydrates. */
import { renderToString } from 'react-dom/server';
import { App } from './App.tsx';
import type { PageProps } from './page-props.ts';
import { PAGE_COMPONENTS } from './pages/index.ts';
import { pageFor, type PageDefinition } from './routes.ts';

export interface RenderedPage {
  html: string;
  page: PageDefinition;
}

export function renderPage(props: PageProps<unknown>): RenderedPage {
  const page = pageFor(props.path);
  return { html: renderToString(<App {...props} Page={PAGE_COMPONENTS[page.module]} />), page };
}
