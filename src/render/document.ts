/**
 * The full HTML document of a page: head (title, description, canonical, styles), the markup
 * React rendered, the hydration data and the bundle. Pure: no Fastify, no request.
 */
import { stringify } from 'devalue';
import type { BusinessInfo } from '../domain/business.ts';
import { renderPage } from '../../client/entry-server.tsx';
import type { PageProps } from '../../client/page-props.ts';
import type { ClientAssets } from './assets.ts';

export interface DocumentInput {
  path: string;
  business: BusinessInfo;
  assets: ClientAssets;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

/**
 * Hydration data for a `<script type="application/json">` block. `<` only ever appears inside
 * strings in devalue's output, where `\u003c` means the same, so no value can close the tag.
 */
export function serializeData(props: PageProps): string {
  return stringify(props).replace(/</g, '\\u003c');
}

export function renderDocument({ path, business, assets }: DocumentInput): string {
  const props: PageProps = { path, business };
  const page = renderPage(props);
  const canonical = `${business.publicUrl}${path}`;
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(page.title)}</title>`,
    `<meta name="description" content="${escapeHtml(page.description)}">`,
    page.index ? `<link rel="canonical" href="${escapeHtml(canonical)}">` : '<meta name="robots" content="noindex">',
    '<meta name="theme-color" content="#0c1f38">',
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
    '<link rel="icon" href="/favicon.ico" sizes="32x32">',
    ...assets.styles.map((href) => `<link rel="stylesheet" href="${href}">`),
    `<link rel="modulepreload" href="${assets.script}">`,
    // Without JavaScript the menu toggle cannot work, so the links are simply shown.
    '<noscript><style>.menu-toggle{display:none}@media (max-width:51.99rem){.header-bar{flex-wrap:wrap}.site-nav{display:block;position:static;width:100%;box-shadow:none;border:0}}</style></noscript>',
  ];
  return [
    '<!doctype html>',
    '<html lang="en-NZ">',
    `<head>${head.join('')}</head>`,
    `<body><div id="root">${page.html}</div>`,
    `<script type="application/json" id="__DATA__">${serializeData(props)}</script>`,
    `<script type="module" src="${assets.script}"></script>`,
    '</body></html>',
  ].join('');
}
