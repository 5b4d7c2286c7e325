/**
 * Client components import their own stylesheets (`import './Header.css'`) for Vite, which
 * bundles them per page for the browser. Node cannot load CSS, so wherever the server runs from
 * source (tsx: the tests, `npm run dev`, `npm run bench`) this hook turns every stylesheet into an
 * empty module. Loaded with `--import` (after tsx); the production server is bundled by Vite and
 * does not need it.
 */
import { register } from 'node:module';

const HOOKS = `
export async function load(url, context, nextLoad) {
  if (/\\.css(\\?|$)/.test(url)) return { format: 'module', source: '', shortCircuit: true };
  return nextLoad(url, context);
}
`;

register(`data:text/javascript,${encodeURIComponent(HOOKS)}`);
