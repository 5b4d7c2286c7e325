import t from 'tap';
import { buildTestApp } from './helper.ts';

t.test('pages', async (t) => {
  const app = await buildTestApp(t);

  t.test('the home page is server-rendered with header, content and footer', async (t) => {
    const res = await app.inject('/');
    t.equal(res.statusCode, 200);
    t.match(res.headers['content-type'], /text\/html; charset=utf-8/);
    const html = res.body;
    t.match(html, /<title>[^<]*Auckland[^<]*<\/title>/);
    t.match(html, /<meta name="description"/);
    t.match(html, /<header class="site-header">/);
    for (const link of ['href="/services"', 'href="/about"', 'href="/contact"', 'href="/booking"', 'href="/pricing"']) t.match(html, link);
    for (const text of ['Book Now', 'Our Services', 'Starting from $69', 'View Pricing', 'Why Choose Us', 'How It Works', 'Book Online', 'Confirmation', 'Professional Cleaning', 'Satisfaction', 'Customer Stories', 'Book Your Cleaning', 'Call Us Now']) {
      t.ok(html.includes(text), text);
    }
    for (const id of ['residential', 'commercial', 'deep-cleaning']) t.match(html, `href="/services/${id}"`);
    t.match(html, /href="\/testimonials"/);
    t.match(html, /<footer class="site-footer">/);
    for (const text of ['Quick Links', 'Business Hours', 'Monday - Friday: 8:00 AM - 6:00 PM', 'Mount Wellington', 'Privacy Policy', 'Terms of Service', 'Sitemap', '©']) {
      t.ok(html.includes(text), `footer: ${text}`);
    }
    t.match(html, /class="newsletter hidden"/, 'the newsletter is hidden on home, as in the original');
    t.match(html, /<script type="application\/json" id="__DATA__">/);
  });

  t.test('pages are cached with an ETag and answer 304 to a revalidation', async (t) => {
    const first = await app.inject('/');
    const etag = first.headers.etag as string;
    t.match(etag, /^"[\w-]+"$/);
    t.equal(first.headers['cache-control'], 'no-cache');
    const again = await app.inject({ url: '/', headers: { 'if-none-match': etag } });
    t.equal(again.statusCode, 304);
    t.equal(again.body, '');
  });

  t.test('an unknown path is a real 404 page', async (t) => {
    for (const url of ['/no-such-page', '/services/unknown/deeper', '/%3Cscript%3E']) {
      const res = await app.inject(url);
      t.equal(res.statusCode, 404, url);
      t.match(res.headers['content-type'], /text\/html/);
      t.match(res.body, /We couldn&#x27;t find that page/);
      t.match(res.body, /<meta name="robots" content="noindex">/);
      t.notMatch(res.body, /<script>/);
    }
  });

  t.test('bundle files are served with immutable caching; the favicon exists', async (t) => {
    const html = (await app.inject('/')).body;
    const script = /<script type="module" src="([^"]+)"/.exec(html)![1]!;
    const style = /<link rel="stylesheet" href="([^"]+)"/.exec(html)![1]!;
    for (const asset of [script, style]) {
      const res = await app.inject(asset);
      t.equal(res.statusCode, 200, asset);
      t.match(res.headers['cache-control'], /immutable/);
      t.match(res.headers['cache-control'], /max-age=31536000/);
    }
    t.equal((await app.inject('/assets/missing.js')).statusCode, 404);
    const icon = await app.inject('/favicon.ico');
    t.equal(icon.statusCode, 200);
    t.match(icon.headers['content-type'], /image\/svg\+xml/);
  });
});
