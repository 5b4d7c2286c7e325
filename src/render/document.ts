/**
 * The full HTML document of a page: head (title, description, canonical, social cards, JSON-LD,
 * styles, preloads), the markup React rendered, the hydration data and the bundle. Pure: no
 * Fastify, no request.
 */
import { createHash } from 'node:crypto';
import type { BusinessInfo } from '../domain/business.ts';
import { renderPage } from '#client/entry-server.tsx';
import type { PageProps } from '#client/page-props.ts';
import type { ClientAssets } from './assets.ts';
import { businessStructuredData, jsonLd } from './structured-data.ts';

export interface DocumentInput {
  path: string;
  business: BusinessInfo;
  assets: ClientAssets;
  state?: unknown;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

/**
 * Hydration data for a non-executable `<script type="application/json">` block, read back with
 * JSON.parse. `<` only ever appears inside JSON strings, where `\u003c` means the same, so no
 * value can close the tag or open a comment. (Plain JSON rather than devalue: the props are plain
 * data, and devalue's parser would cost every page 1.5 KB of gzipped JavaScript.)
 */
export function serializeData(props: PageProps<unknown>): string {
  return JSON.stringify(props).replace(/</g, '\\u003c');
}

/**
 * Without JavaScript the menu toggle cannot work, so the links are simply shown. The
 * Content-Security-Policy of every answer allows it by its hash (NOSCRIPT_STYLE_HASH); a page's
 * own style block is allowed by the policy its answer carries (src/plugins/app/render.ts).
 */
export const NOSCRIPT_STYLE =
  '.menu-toggle{display:none}@media (max-width:51.99rem){.header-bar{flex-wrap:wrap}.site-nav{display:block;position:static;width:100%;box-shadow:none;border:0}}';
export const NOSCRIPT_STYLE_HASH = `sha256-${createHash('sha256').update(NOSCRIPT_STYLE).digest('base64')}`;

/**
 * The page's JavaScript is fetched once the page has painted (issue 24): this script, the only
 * inline one (allowed by its hash, BOOT_SCRIPT_HASH), runs when the whole body has been parsed and
 * waits for the browser's first-contentful-paint entry, which comes once the frame with the page
 * is on screen (its time is when it was presented), then imports the modules its element names,
 * the entry and the page's chunks at once (no waterfall; importing costs the main thread less
 * than making a modulepreload link for each: 57 ms in one trace; a chunk that fails to load
 * fails again, visibly, when the entry imports it). Counting two frames instead was not enough:
 * in Lighthouse's traces the scripts were requested before the first paint was presented in
 * about one load in three (5 to 25 ms before it), and the simulation then counted them as
 * render-blocking (LCP 1.4-1.7 s instead of 0.7). Until then the connection and the main thread
 * serve the first paint alone; the page works without its JavaScript meanwhile, as it does with
 * JavaScript off. A page that is not being shown (a background tab, where no frame comes, or one
 * hidden before its first paint) loads at once; a browser without paint timing waits two frames.
 *
 * Before importing, it names each of the page's stylesheets (its `data-styles`, whose text is
 * already in the page's style block) by a disabled `<link>` in the head: Vite's loader finds them
 * there when a chunk is imported and fetches none of them again, and a disabled link is not
 * fetched. They are made here rather than written in the head because a browser's preload scanner
 * may fetch a written one, disabled or not: Chromium 143 fetched all nineteen of the dashboard's on
 * every load (156 no longer does), and a navigation cut them short in a browser test.
 */
export const BOOT_SCRIPT =
  '(()=>{const d=document.currentScript.dataset,m=d.modules.split(" ");let started=false;const go=()=>{if(started)return;started=true;' +
  'for(const href of d.styles?d.styles.split(" "):[]){const l=document.createElement("link");l.setAttribute("disabled","");l.rel="stylesheet";l.href=href;document.head.append(l)}' +
  'import(m[0]);for(const href of m.slice(1))import(href).catch(()=>{})};' +
  'if(document.visibilityState!=="visible")go();' +
  'else if(window.PerformanceObserver&&PerformanceObserver.supportedEntryTypes&&PerformanceObserver.supportedEntryTypes.includes("paint")){' +
  'new PerformanceObserver((list,observer)=>{if(list.getEntriesByName("first-contentful-paint").length){observer.disconnect();setTimeout(go)}}).observe({type:"paint",buffered:true});' +
  'addEventListener("visibilitychange",go,{once:true})}' +
  'else requestAnimationFrame(()=>requestAnimationFrame(()=>setTimeout(go)))})()';
export const BOOT_SCRIPT_HASH = `sha256-${createHash('sha256').update(BOOT_SCRIPT).digest('base64')}`;

/**
 * The page's lazily loaded parts and their chunks (PageAssets.lazyParts) for client/staff/lib/lazy-part.ts,
 * as `module href href;module href`: module names and URLs hold neither spaces nor semicolons.
 */
function lazyPartsAttribute(parts: Record<string, string[]> | undefined): string {
  const entries = Object.entries(parts ?? {});
  return entries.length === 0 ? '' : ` data-lazy="${escapeHtml(entries.map(([part, chunks]) => [part, ...chunks].join(' ')).join(';'))}"`;
}

const meta = (attribute: 'name' | 'property', key: string, value: string) => `<meta ${attribute}="${key}" content="${escapeHtml(value)}">`;

export function renderDocument({ path, business, assets, state }: DocumentInput): string {
  const props: PageProps<unknown> = { path, business, state };
  const { html, page } = renderPage(props);
  const title = page.title(business);
  const canonical = `${business.publicUrl}${path}`;
  const pageAssets = assets.pages[page.module];
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    meta('name', 'description', page.description),
    page.index ? `<link rel="canonical" href="${escapeHtml(canonical)}">` : '<meta name="robots" content="noindex">',
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', business.name),
    meta('property', 'og:locale', 'en_NZ'),
    meta('property', 'og:title', title),
    meta('property', 'og:description', page.description),
    meta('property', 'og:url', canonical),
    meta('property', 'og:image', `${business.publicUrl}/icon-512.png`),
    meta('name', 'twitter:card', 'summary'),
    meta('name', 'twitter:title', title),
    meta('name', 'twitter:description', page.description),
    '<meta name="theme-color" content="#0c1f38">',
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
    '<link rel="icon" href="/favicon.ico" sizes="32x32">',
    '<link rel="apple-touch-icon" href="/apple-touch-icon.png">',
    '<link rel="manifest" href="/site.webmanifest">',
    // The page's stylesheets inlined, the only render-blocking thing in the head: the page paints
    // from its first response (issue 24). The Content-Security-Policy allows it by its hash. The
    // files are named to the boot script (`data-styles`), which tells Vite's loader they are here.
    pageAssets ? `<style>${pageAssets.css}</style>` : '',
    `<noscript><style>${NOSCRIPT_STYLE}</style></noscript>`,
    `<script type="application/ld+json">${jsonLd(businessStructuredData(business))}</script>`,
  ];
  return [
    '<!doctype html>',
    '<html lang="en-NZ">',
    `<head>${head.join('')}</head>`,
    `<body><div id="root" data-page="${page.module}">${html}</div>`,
    `<script type="application/json" id="__DATA__">${serializeData(props)}</script>`,
    `<script data-modules="${[assets.script, ...(pageAssets?.scripts ?? [])].join(' ')}"${pageAssets ? ` data-styles="${[...assets.styles, ...pageAssets.styles].join(' ')}"` : ''}${lazyPartsAttribute(pageAssets?.lazyParts)}>${BOOT_SCRIPT}</script>`,
    '</body></html>',
  ].join('');
}
