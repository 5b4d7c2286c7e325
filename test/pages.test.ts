import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import t from 'tap';
import { CLIENT_DIST_DIR } from '../src/paths.ts';
import { PACKAGES } from '../src/domain/catalogue.ts';
import { SERVICE_DETAILS } from '../src/domain/content.ts';
import { NOT_FOUND_PAGE, PAGES, type PageDefinition } from '../client/routes.ts';
import { manageLinkFor } from '../src/db/manage-link.repository.ts';
import { recordCompletion } from '../src/services/completion-record.ts';
import { originalClientPayload } from './support/payloads.ts';
import { buildTestApp, entryScriptOf, login } from './helper.ts';

/** The JSON-LD block of a page. */
const structuredData = (html: string) => JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]!);
const hydrationData = (html: string) => JSON.parse(/<script type="application\/json" id="__DATA__">([\s\S]*?)<\/script>/.exec(html)![1]!);

t.test('pages', async (t) => {
  const app = await buildTestApp(t, { env: { PUBLIC_URL: 'https://valet.example.nz' } });

  t.test('the home page is server-rendered with header, content and footer', async (t) => {
    const res = await app.inject('/');
    t.equal(res.statusCode, 200);
    t.match(res.headers['content-type'], /text\/html; charset=utf-8/);
    const html = res.body;
    t.match(html, /<title>[^<]*Auckland[^<]*<\/title>/);
    t.match(html, /<header class="site-header">/);
    for (const link of ['href="/services"', 'href="/about"', 'href="/contact"', 'href="/booking"', 'href="/pricing"']) t.match(html, link);
    for (const text of ['Book Now', 'Our Services', 'Starting from $69', 'View Pricing', 'Why Choose Us', 'How It Works', 'Book Online', 'Confirmation', 'Professional Cleaning', 'Satisfaction', 'Customer Stories', 'Book Your Cleaning', 'Call Us Now']) {
      t.ok(html.includes(text), text);
    }
    for (const id of ['residential', 'commercial', 'deep-cleaning']) t.match(html, `href="/services/${id}"`);
    t.match(html, /href="\/testimonials"/);
    for (const text of ['Quick Links', 'Business Hours', 'Monday - Friday: 8:00 AM - 6:00 PM', 'Mount Wellington', 'Privacy Policy', 'Terms of Service', 'Sitemap', '© 2024']) {
      t.ok(html.includes(text), `footer: ${text}`);
    }
    t.match(html, /class="newsletter hidden"/, 'the newsletter is hidden on home, as in the original');
    const payments = /<ul class="payments" aria-label="Payment methods we accept">([\s\S]*?)<\/ul>/.exec(html)![1]!;
    t.same(
      [...payments.matchAll(/<li><svg class="payment-icon" viewBox="0 0 48 32" role="img" aria-label="([^"]+)"><title>([^<]+)<\/title><(?:text|circle|path|rect) [^>]*>[\s\S]*?<\/svg><\/li>/g)].map((match) => [match[1], match[2]]),
      ['Visa', 'Mastercard', 'EFTPOS', 'Bank transfer', 'Cash'].map((name) => [name, name]),
      'payment methods are inline SVG icons with their names',
    );
    const band = (page: string) => [...page.matchAll(/<div class="stat"><dt>([^<]+)<\/dt><dd>([^<]+)<\/dd><\/div>/g)].map((match) => `${match[2]} ${match[1]}`);
    t.same(band(html), ['5000+ Happy customers', '4.9/5 Average rating', '98% Satisfaction rate', '15+ Years of experience'], 'the home page trust figures');
    for (const figure of ['120 reviews', '1250+', '500+']) t.ok(html.includes(figure), `home: ${figure}`);
    t.same(
      band((await app.inject('/about')).body),
      ['1000+ Happy customers', '4.9/5 Average rating', '98% Satisfaction rate', '3+ Years since 2020'],
      'the About page has the other reading of the figures, as the original did',
    );
    t.match(html, /<aside class="contact-widget" aria-label="Quick contact">/);
    t.match(html, /href="https:\/\/wa\.me\/[^"]*\?text=/, 'the chat link carries a prefilled message');
    t.match(html, /href="tel:\+64215550123"/);
  });

  t.test('every page renders with its own title, description, canonical URL and social tags', async (t) => {
    const titles = new Set<string>();
    for (const page of PAGES.filter((p) => p.index)) {
      const res = await app.inject(page.path);
      t.equal(res.statusCode, 200, page.path);
      const title = /<title>([^<]+)<\/title>/.exec(res.body)?.[1];
      t.ok(title && !titles.has(title), `${page.path} has a title of its own: ${title}`);
      titles.add(title!);
      t.match(res.body, /<meta name="description" content="[^"]{30,}">/, `${page.path} description`);
      t.match(res.body, `<link rel="canonical" href="https://valet.example.nz${page.path}">`);
      for (const tag of ['og:title', 'og:description', 'og:url', 'og:type', 'og:site_name']) t.match(res.body, `<meta property="${tag}"`, `${page.path} ${tag}`);
      t.match(res.body, /<meta name="twitter:card" content="summary">/);
      t.equal(structuredData(res.body)['@type'], 'AutoWash');
      t.match(res.body, `<div id="root" data-page="${page.module}">`);
      t.match(res.body, /<script data-modules="\/assets\/entry-client-[^" ]+\.js [^"]*\/assets\/[^" ]+Page-[^" ]+\.js[^"]*" data-styles="[^"]+">/, `${page.path} loads its chunk with the entry`);
    }
  });

  t.test('key texts of each page are in the server-rendered HTML', async (t) => {
    const expectations: Record<string, string[]> = {
      '/about': ['Our Journey', '2020', 'Quality', 'Integrity', 'Innovation', 'Founder &amp; CEO', 'Service Manager', 'Lead Detailer', 'Book Now'],
      '/services': ['Exterior Washing', 'Interior Cleaning', 'Paint Protection', 'Window Tinting', 'id="full-detail"', 'id="categories-details"', 'href="/services/headlight"', 'href="/services/engine-bay"'],
      '/pricing': ['Vehicle type', 'Small Car', 'Medium Car', 'SUV/Van', 'Most Popular', '1 Year Protection', '3 Year Protection', 'per service', 'href="/booking?package=quick-clean"', 'Frequently Asked Questions', 'How long does a service take?', 'Book an Appointment', 'name="faq"'],
      '/contact': ['Contact Us', 'Visit Us', 'Call Us', 'Email Us', 'Business Hours', 'Monday - Saturday: 7:00 AM - 9:00 PM', 'Send us a Message', '09 555 0199', '<iframe', 'Ready to Transform Your Vehicle?', 'name="message"'],
      '/booking': ['Back to Home', 'Select Service', 'Choose Date &amp; Time', 'Your Details', 'Step <!-- -->1<!-- --> of 3', 'Your vehicles', 'Starting from', 'Continue to Booking', 'Monday - Sunday: 6:30 am - 8:30 pm'],
      '/privacy-policy': ['Privacy Policy', 'Last updated: November 2026', 'do not sell', 'Two years (24 months)', 'correction', '90 days', 'href="/booking"', 'href="/contact"', 'Back to Home'],
      '/terms': ['Terms of Service', 'Last updated: May 2024', '24 hours', 'No-shows', 'cash, bank transfer', 'weather'],
      '/testimonials': ['What our customers say', 'Sarah M.', 'Michael L.'],
      '/sitemap': ['Main pages', 'href="/pricing"', 'href="/services/ceramic-coating"', 'href="/terms"'],
    };
    for (const [path, texts] of Object.entries(expectations)) {
      const html = (await app.inject(path)).body;
      for (const text of texts) t.ok(html.includes(text), `${path}: ${text}`);
    }
  });

  t.test('durations from the catalogue: on each pricing card for every size, and beside every size of wizard step 1', async (t) => {
    const pricing = (await app.inject('/pricing')).body;
    const card = (id: string) => pricing.slice(pricing.indexOf(`id="package-${id}"`), pricing.indexOf('Book Now', pricing.indexOf(`id="package-${id}"`)));
    const durations = (html: string) => [...html.matchAll(/class="price price-(sm|mid|suv)"[\s\S]*?Takes ([^<]*)</g)].map((m) => `${m[1]}: ${m[2]}`);
    t.same(durations(card('deluxe-clean')), ['sm: about 3 hours', 'mid: about 3½ hours', 'suv: about 4 hours'], 'Deluxe Clean: 180, 210, 240 minutes');
    t.same(durations(card('quick-clean')), ['sm: about 1 hour', 'mid: about 1¼ hours', 'suv: about 1½ hours']);
    t.same(durations(card('ultimate-clean')), ['sm: about 4 hours', 'mid: about 5 hours', 'suv: about 6 hours']);
    t.same(durations(card('ceramic-coating')), ['sm', 'mid', 'suv'].map((size) => `${size}: about 6 hours (1 year), about 8 hours (3 years)`));
    t.equal(durations(pricing).length, 21, 'every card, every size (CSS shows the chosen one)');

    const booking = (await app.inject('/booking?package=deluxe-clean')).body;
    const option = (id: string) => booking.slice(booking.indexOf(`id="service-${id}"`), booking.indexOf('Service Includes', booking.indexOf(`id="service-${id}"`)));
    const notes = (html: string) => [...html.matchAll(/class="choice-note">([^<]*)</g)].map((m) => m[1]);
    t.same(notes(option('deluxe-clean')), ['about 3 hours', 'about 3½ hours', 'about 4 hours'], 'step 1: each size with its duration');
    t.same(notes(option('ceramic-coating')), ['about 6 hours', 'about 8 hours', 'about 6 hours', 'about 6 hours', 'about 6 hours'], 'each coating term, then each body style for the chosen (1 year) term');
    t.same(notes(option('window-tinting')), ['about 2 hours', 'about 2½ hours', 'about 3 hours']);
  });

  t.test('the routes the original linked to but never built are real pages', async (t) => {
    for (const id of [...PACKAGES.map((p) => p.id), ...SERVICE_DETAILS.map((d) => d.id)]) {
      const res = await app.inject(`/services/${id}`);
      t.equal(res.statusCode, 200, id);
      t.match(res.body, /aria-label="Breadcrumb"/);
    }
    const ceramic = (await app.inject('/services/ceramic-coating')).body;
    t.match(ceramic, /href="\/booking\?package=ceramic-coating"/);
    t.ok(ceramic.includes('$999'), 'the 3-year SUV price from the catalogue');
    const trailing = await app.inject('/services/');
    t.equal(trailing.statusCode, 200, '/services/#categories-details reaches the services page');
    t.match(trailing.body, /id="categories-details"/);
  });

  t.test('JSON-LD describes the business and its services with prices from the catalogue', async (t) => {
    const data = structuredData((await app.inject('/pricing')).body);
    t.match(data, {
      '@context': 'https://schema.org',
      '@type': 'AutoWash',
      name: 'Auckland Valet Co.',
      url: 'https://valet.example.nz/',
      priceRange: '$69 - $999',
      address: { '@type': 'PostalAddress', addressLocality: 'Mount Wellington', postalCode: '1060', addressCountry: 'NZ' },
    });
    t.equal(data.openingHoursSpecification.length, 3);
    const offers = data.hasOfferCatalog.itemListElement;
    t.equal(offers.length, PACKAGES.length);
    t.match(offers[0], { itemOffered: { name: 'Quick Clean' }, priceSpecification: { priceCurrency: 'NZD', minPrice: 69, maxPrice: 99 } });
  });

  t.test('sitemap.xml lists every indexed page; robots.txt points at it and keeps staff pages out', async (t) => {
    const sitemap = await app.inject('/sitemap.xml');
    t.equal(sitemap.statusCode, 200);
    t.match(sitemap.headers['content-type'], /application\/xml/);
    const locs = [...sitemap.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    t.same(locs, PAGES.filter((p) => p.index).map((p) => `https://valet.example.nz${p.path}`));
    t.notOk(locs.includes('https://valet.example.nz/dashboard'), 'the dashboard is not listed');
    const robots = await app.inject('/robots.txt');
    t.match(robots.body, /Disallow: \/dashboard/);
    t.match(robots.body, /Sitemap: https:\/\/valet\.example\.nz\/sitemap\.xml/);
  });

  t.test('pages are cached with an ETag and answer 304 to a revalidation', async (t) => {
    const first = await app.inject('/pricing');
    const etag = first.headers.etag as string;
    t.match(etag, /^W\/"[\w-]+"$/);
    t.equal(first.headers['cache-control'], 'no-cache');
    const again = await app.inject({ url: '/pricing', headers: { 'if-none-match': etag } });
    t.equal(again.statusCode, 304);
    t.equal(again.body, '');
  });

  t.test('pages and bundle files are sent compressed to browsers that accept it', async (t) => {
    const plain = await app.inject('/pricing');
    t.notOk(plain.headers['content-encoding']);
    const br = await app.inject({ url: '/pricing', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    t.equal(br.headers['content-encoding'], 'br');
    t.equal(br.headers.vary, 'accept-encoding');
    t.equal(brotliDecompressSync(br.rawPayload).toString(), plain.body);
    t.ok(br.rawPayload.length < plain.body.length / 4, `${plain.body.length} bytes down to ${br.rawPayload.length}`);
    const gzip = await app.inject({ url: '/pricing', headers: { 'accept-encoding': 'gzip, br;q=0' } });
    t.equal(gzip.headers['content-encoding'], 'gzip');
    t.equal(gunzipSync(gzip.rawPayload).toString(), plain.body);

    const script = entryScriptOf(plain.body);
    const asset = await app.inject({ url: script, headers: { 'accept-encoding': 'br' } });
    t.equal(asset.headers['content-encoding'], 'br');
    t.match(asset.headers['content-type'], /javascript/);
    t.equal(brotliDecompressSync(asset.rawPayload).toString(), (await app.inject(script)).body);
  });

  t.test('?package= preselects a package, by id or by name; anything else is ignored', async (t) => {
    const byId = hydrationData((await app.inject('/booking?package=ceramic-coating')).body);
    t.match(byId.state.values.vehicles, [{ service: 'Ceramic Coating', coatingType: 'coat1' }]);
    t.match(byId.state, { step: 1, minDate: /^\d{4}-\d{2}-\d{2}$/ });
    const byName = (await app.inject('/booking?package=Quick%20Clean')).body;
    t.match(hydrationData(byName).state.values.vehicles, [{ service: 'Quick Clean', coatingType: '' }]);
    t.match(byName, /<input [^>]*id="service-quick-clean"[^>]*checked=""/, 'the package is checked in the markup, for readers without JavaScript');
    const unknown = await app.inject('/booking?package=free-wash&utm_source=newsletter');
    t.equal(unknown.statusCode, 200);
    t.equal(hydrationData(unknown.body).state.values.vehicles[0].service, '');
    t.match(unknown.body, '<link rel="canonical" href="https://valet.example.nz/booking">');
  });

  t.test('hydration data and markup cannot be broken out of', async (t) => {
    const res = await app.inject('/booking?package=%3C%2Fscript%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    t.equal(res.statusCode, 200);
    t.notMatch(res.body, /<script>alert/);
  });

  t.test('the newsletter box sent without JavaScript answers on the contact page that sign-up is not open yet', async (t) => {
    const note = /<p class="form-note" role="status">([^<]*)<\/p>/;
    t.equal(note.exec((await app.inject('/contact')).body)![1], '', 'no answer before it is sent');
    const first = await app.inject('/contact?email=aroha%40example.co.nz');
    t.equal(first.statusCode, 200);
    t.equal(note.exec(first.body)![1], 'Our newsletter is not open yet. Follow us on Facebook or Instagram for offers.');
    t.notMatch(first.body, /aroha@example/, 'the address is neither kept nor shown');
    const other = await app.inject('/contact?email=');
    t.equal(note.exec(other.body)![1], 'Our newsletter is not open yet. Follow us on Facebook or Instagram for offers.');
    t.equal(other.headers.etag, first.headers.etag, 'one cached variant, whatever the address');
    t.match(first.body, /<form class="newsletter-form" action="\/contact#newsletter-title" method="get">/, 'the answer is scrolled into view');
  });

  t.test('an unknown path is a real 404 page', async (t) => {
    for (const url of ['/no-such-page', '/services/unknown', '/services/unknown/deeper', '/%3Cscript%3E']) {
      const res = await app.inject(url);
      t.equal(res.statusCode, 404, url);
      t.match(res.headers['content-type'], /text\/html/);
      t.match(res.body, /We couldn&#x27;t find that page/);
      t.match(res.body, /<meta name="robots" content="noindex">/);
      t.notMatch(res.body, /<script>/);
    }
  });

  t.test('each page links, in its head, the stylesheets of its chunk and of the chunks it imports, theirs first, then those of its lazy parts', async (t) => {
    // Read straight from Vite's manifest, independently of src/render/assets.ts: each component
    // imports its own CSS, so a missing link would show the page unstyled until it hydrates.
    type Chunk = { file: string; css?: string[]; imports?: string[]; dynamicImports?: string[] };
    const manifest: Record<string, Chunk> = JSON.parse(readFileSync(path.join(CLIENT_DIST_DIR, '.vite/manifest.json'), 'utf8'));
    const cssOf = (key: string, seen: Set<string>): string[] => {
      if (seen.has(key)) return [];
      seen.add(key);
      const chunk = manifest[key]!;
      return [...(chunk.imports ?? []).flatMap((imported) => cssOf(imported, seen)), ...(chunk.css ?? [])].map((file) => file.replace(/^\/?/, '/'));
    };
    // The entry's own stylesheet (design tokens, header, footer) comes first on every page.
    const entryCss = cssOf('entry-client.tsx', new Set());
    t.equal(entryCss.length, 1);
    // The manage page lives at a booking's own address.
    const booked = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload() });
    const managed = new URL((await manageLinkFor(app.db, booked.json().id, 'https://valet.example.nz'))!).pathname;
    // A regular plan's page lives under a booking's own address (issue 43).
    const made = await app.inject({ method: 'POST', url: `${managed}/plan`, payload: 'intervalWeeks=4', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    t.equal(made.statusCode, 303);
    const planned = `${managed}/plan`;
    // The receipt page, of a completed booking (issue 21).
    const done = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload() });
    await app.db.transaction().execute(async (trx) => {
      const row = await trx.updateTable('bookings').set({ status: 'completed' }).where('id', '=', done.json().id).returningAll().executeTakeFirstOrThrow();
      await recordCompletion(trx, row, { by: 'Staff' }, app.mail);
    });
    const receipt = new URL((await manageLinkFor(app.db, done.json().id, 'https://valet.example.nz'))!).pathname.replace('/booking/manage/', '/booking/receipt/');
    const urlOf = (page: PageDefinition) =>
      page.module === 'NotFoundPage'
        ? '/no-such-page'
        : page.module === 'ManagePage'
          ? managed
          : page.module === 'PlanPage'
            ? planned
          : page.module === 'ReceiptPage'
            ? receipt
            : page.module === 'InvitationPage'
              ? `${page.path}/${'A'.repeat(43)}`
              : page.path;
    const firstPath = new Map([...PAGES, NOT_FOUND_PAGE].map((page) => [page.module, urlOf(page)]));
    // The owner's Insights (issue 44) show only to the owner: the others are sent to the sign-in.
    const owner = await login(app);
    for (const [module, url] of firstPath) {
      const html = (await app.inject({ url, headers: module === 'InsightsPage' ? { cookie: owner } : {} })).body;
      const head = /<head>([\s\S]*?)<\/head>/.exec(html)![1]!;
      // Named to the boot script, which makes a disabled link of each for Vite's loader: none in the
      // head, where a browser's preload scanner could fetch it.
      const links = /<script data-modules="[^"]*" data-styles="([^"]+)"(?: data-lazy="[^"]*")?>/.exec(html)![1]!.split(' ');
      t.notMatch(head, /<link rel="stylesheet"/, `${url}: no stylesheet blocks the first paint or is fetched`);
      // Issue 24: their text is inlined, in that order, in the page's one style block, which the
      // answer's Content-Security-Policy allows by its hash.
      const block = /<style>([^<]*)<\/style>/.exec(head)![1]!;
      const expected = links.map((href) => readFileSync(path.join(CLIENT_DIST_DIR, href!), 'utf8').trim()).join('\n');
      t.equal(block, expected, `${url}: the stylesheets' text inlined`);
      const policy = String((await app.inject({ url, headers: module === 'InsightsPage' ? { cookie: owner } : {} })).headers['content-security-policy']);
      t.match(policy, `'sha256-${createHash('sha256').update(block).digest('base64')}'`, `${url}: the style block is allowed by its hash`);
      // A page's lazy parts (the wizard's later steps, the dashboard's Schedule view) can be rendered
      // by the server too, so their stylesheets come with the page, after its own.
      const seen = new Set(['entry-client.tsx']);
      const pageKey = manifest[`pages/${module}.tsx`] ? `pages/${module}.tsx` : `staff/pages/${module}.tsx`;
      const pageCss = [...cssOf(pageKey, seen), ...(manifest[pageKey]!.dynamicImports ?? []).flatMap((lazy) => cssOf(lazy, seen))];
      t.ok(pageCss.length > 0, `${module} has stylesheets of its own or of the components it uses`);
      t.same(links, [...entryCss, ...new Set(pageCss)], `${url}: the entry's stylesheet, then every one of ${module}'s chunks, imported ones first, then its lazy parts'`);
      // A staff page names each lazy part's chunks, to be fetched together when it opens
      // (client/staff/lib/lazy-part.ts); a public page names none.
      const lazy = /<script data-modules="[^"]*" data-styles="[^"]+"(?: data-lazy="([^"]*)")?>/.exec(html)![1];
      if (pageKey.startsWith('staff/') && manifest[pageKey]!.dynamicImports?.length) {
        const parts = new Map(
          lazy!.split(';').map((entry) => {
            const [part, ...chunks] = entry.split(' ');
            return [part!, chunks];
          }),
        );
        for (const part of manifest[pageKey]!.dynamicImports!) t.equal(parts.get(part)?.[0], `/${manifest[part]!.file}`, `${url}: ${part}'s chunk first among its chunks`);
      } else t.equal(lazy, undefined, `${url}: no lazy parts named`);
    }
  });

  t.test('bundle files are served with immutable caching; favicon, touch icons and manifest exist', async (t) => {
    const html = (await app.inject('/')).body;
    const script = entryScriptOf(html);
    const style = / data-styles="([^" ]+)/.exec(html)![1]!;
    for (const asset of [script, style]) {
      const res = await app.inject(asset);
      t.equal(res.statusCode, 200, asset);
      t.match(res.headers['cache-control'], /immutable/);
      t.match(res.headers['cache-control'], /max-age=31536000/);
    }
    t.equal((await app.inject('/assets/missing.js')).statusCode, 404);
    t.match((await app.inject('/favicon.ico')).headers['content-type'], /image\/svg\+xml/);
    for (const icon of ['/apple-touch-icon.png', '/icon-192.png', '/icon-512.png']) {
      const res = await app.inject(icon);
      t.equal(res.statusCode, 200, icon);
      t.equal(res.headers['content-type'], 'image/png');
      t.equal(res.rawPayload.subarray(1, 4).toString(), 'PNG');
    }
    const manifest = await app.inject('/site.webmanifest');
    t.match(manifest.json(), { name: 'Auckland Valet Co.', icons: [{ src: '/icon-192.png' }, { src: '/icon-512.png' }] });
  });
});

t.test('page views are never rate-limited, even at a tight form limit', async (t) => {
  const app = await buildTestApp(t, { env: { RATE_LIMIT_FORMS_MAX: '2', RATE_LIMIT_LOGIN_MAX: '2' } });
  for (let i = 0; i < 50; i++) {
    for (const url of ['/', '/pricing', '/booking', '/contact', '/no-such-page', '/favicon.ico']) {
      const res = await app.inject({ url, remoteAddress: '203.0.113.9' });
      if (res.statusCode === 429) return t.fail(`${url} was rate-limited`);
    }
  }
  const posts = [];
  for (let i = 0; i < 3; i++) posts.push((await app.inject({ method: 'POST', url: '/contact', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'name=', remoteAddress: '203.0.113.9' })).statusCode);
  t.same(posts, [400, 400, 429], 'form posts are');
});
