import { createHash } from 'node:crypto';
import t from 'tap';
import { DEFAULT_BUSINESS } from '../src/domain/business.ts';
import { BOOT_SCRIPT_HASH, renderDocument, serializeData } from '../src/render/document.ts';

const assets = {
  script: '/assets/entry-client-abc.js',
  styles: ['/assets/entry-client-abc.css'],
  pages: { HomePage: { scripts: ['/assets/HomePage-def.js'], styles: ['/assets/home.css'], css: '.hero{color:red}', cssHash: "'sha256-x'", lazyParts: {} } },
};

t.test('hydration data cannot close its script tag and round-trips', async (t) => {
  const hostile = { ...DEFAULT_BUSINESS, name: '</script><script>alert(1)</script>' };
  const data = serializeData({ path: '/', business: hostile, state: null });
  t.notMatch(data, /<\/script/i);
  t.notMatch(data, /</);
  t.same(JSON.parse(data), { path: '/', business: hostile, state: null });

  const html = renderDocument({ path: '/', business: hostile, assets });
  const block = /<script type="application\/json" id="__DATA__">([\s\S]*?)<\/script>/.exec(html)?.[1];
  t.ok(block, 'the data block is intact');
  t.same(JSON.parse(block!), { path: '/', business: hostile });
  t.notMatch(html, /<script>alert\(1\)<\/script>/, 'no executable injection anywhere');
});

t.test('the document has the head a page needs', async (t) => {
  const html = renderDocument({ path: '/', business: { ...DEFAULT_BUSINESS, publicUrl: 'https://valet.example.nz' }, assets });
  t.match(html, /^<!doctype html><html lang="en-NZ">/);
  t.match(html, /<title>Auckland Valet Co\. \| Mobile Car Valeting &amp; Detailing in Auckland<\/title>/);
  t.match(html, /<meta name="description" content="[^"]*Auckland[^"]*">/);
  t.match(html, /<link rel="canonical" href="https:\/\/valet\.example\.nz\/">/);
  // The page's stylesheets inlined in one block, before anything else it loads (issue 24); the
  // files are only named to the boot script, and no link in the head can be fetched.
  t.match(html, /<style>\.hero\{color:red\}<\/style><noscript>/);
  t.notMatch(html, /<link rel="stylesheet"/, 'no stylesheet link that blocks the first paint or is fetched');
  t.notMatch(html, /<link rel="modulepreload"|<script type="module"/, 'no script fetched before the first paint');
  // The one inline script (allowed by its hash) loads the entry, then the page's chunks, after the first paint.
  const boot = /<script data-modules="([^"]*)" data-styles="([^"]*)">([^<]*)<\/script><\/body><\/html>$/.exec(html);
  t.ok(boot, 'the boot script ends the body');
  t.same(boot![1]!.split(' '), ['/assets/entry-client-abc.js', ...assets.pages.HomePage!.scripts]);
  t.same(boot![2]!.split(' '), ['/assets/entry-client-abc.css', '/assets/home.css'], 'the stylesheets, named for Vite\'s loader');
  t.equal(`sha256-${createHash('sha256').update(boot![3]!).digest('base64')}`, BOOT_SCRIPT_HASH);
  t.match(html, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
});

t.test('the not-found document is not indexed', async (t) => {
  const html = renderDocument({ path: '/404', business: DEFAULT_BUSINESS, assets });
  t.match(html, /<meta name="robots" content="noindex">/);
  t.notMatch(html, /rel="canonical"/);
  t.match(html, /We couldn&#x27;t find that page/);
});
