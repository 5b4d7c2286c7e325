/** Browser entry: hydrates the server-rendered page with the props the server used. */
import { hydrateRoot } from 'react-dom/client';
import { parse } from 'devalue';
import { App } from './App.tsx';
import type { PageProps } from './page-props.ts';
import './styles/site.css';

const data = document.getElementById('__DATA__');
const root = document.getElementById('root');
if (data && root) {
  const props = parse(data.textContent ?? '') as PageProps;
  hydrateRoot(root, <App {...props} />);
}
