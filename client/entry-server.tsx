/** Server entry: renders a page to HTML with the same App the browser hydrates. */
import { renderToString } from 'react-dom/server';
import { App } from './App.tsx';
import type { PageProps } from './page-props.ts';
import { pageFor } from './routes.ts';

export interface RenderedPage {
  html: string;
  title: string;
  description: string;
  index: boolean;
}

export function renderPage(props: PageProps): RenderedPage {
  const page = pageFor(props.path);
  return {
    html: renderToString(<App {...props} />),
    title: page.title(props.business),
    description: page.description,
    index: page.index,
  };
}
