/**
 * "Find my booking" (issue 22), on each backend: the same answer for every valid address, in no
 * less than FIND_BOOKING_ANSWER_MS; the e-mail (through the outbox and a real SMTP server) lists
 * only the address's upcoming bookings, and its links open them; the per-address cap (counted in
 * the outbox) and the per-client budget (IPv6 by /64); the form without JavaScript.
 */
import t from 'tap';
import type { ParsedMail } from 'mailparser';
import { FIND_BOOKING_MESSAGES } from '../src/domain/find-booking-rules.ts';
import { MESSAGES } from '../src/domain/messages.ts';
import { buildTestApp, forEachBackend, login } from './helper.ts';
import { book, mailEnv, to } from './support/mail.ts';
import { aucklandInstant } from '../src/domain/booking-dates.ts';
import { inDays, nextWeekday, testNow } from './support/payloads.ts';
import { startSmtp, until } from './support/smtp.ts';

const ANSWER_MS = 150;
const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:80' };
const DAY_MS = 86_400_000;

await forEachBackend(t, async (t, backend) => {
  const smtp = await startSmtp(t);
  // A clock the test can move: bookings for today and the past are made while it is set back.
  let clock = testNow;
  const app = await buildTestApp(t, { backend, env: mailEnv(smtp, { FIND_BOOKING_ANSWER_MS: String(ANSWER_MS) }), now: () => clock });
  const cookie = await login(app);

  const find = (email: unknown, remoteAddress = '198.51.100.1') =>
    app.inject({ method: 'POST', url: '/v1/find-booking', payload: { email }, remoteAddress });
  const linkMails = async () => app.db.selectFrom('outbox_emails').selectAll().where('kind', '=', 'booking-links').orderBy('created_at').execute();
  // The address in any letter case (the parser lower-cases the domain only).
  const linksReceived = (address: string) =>
    smtp.received.filter((m) => to(m).some((a) => a?.toLowerCase() === address.toLowerCase()) && /^Your booking/.test(m.subject ?? ''));
  const bookAt = async (daysBack: number, overrides: Record<string, unknown>) => {
    clock = new Date(testNow.getTime() - daysBack * DAY_MS);
    try {
      return await book(app, overrides);
    } finally {
      clock = testNow;
    }
  };

  // Aroha's bookings: on one weekday one at 09:00 and one at 13:00, asked for at 10:00 that day
  // (the first has started, so its manage page no longer opens; the second is upcoming); one in
  // a week or more, one past, one cancelled; booked with her address in another letter case than
  // she types it.
  const stored = 'Aroha.Find@Example.co.nz';
  const address = 'aroha.find@example.co.nz';
  const day = nextWeekday(3, 1);
  const askedAt = new Date(aucklandInstant(day, '10:00'));
  const started = await book(app, { email: stored, date: day, time: '09:00' });
  const upcomingToday = await book(app, { email: stored, date: day, time: '13:00' });
  const nextWeek = await book(app, { email: stored, date: inDays(8), time: '09:00' });
  const past = await bookAt(10, { email: stored, date: inDays(-4), time: '09:00' });
  const cancelled = await book(app, { email: stored, date: inDays(9), time: '11:00' });
  const cancel = await app.inject({ method: 'POST', url: `/v1/bookings/${cancelled.id}/status`, headers: { cookie }, payload: { status: 'cancelled', version: 1 } });
  t.equal(cancel.statusCode, 200, 'one booking is cancelled by staff');
  const someoneElse = await book(app, { email: 'someone.else@example.co.nz', date: inDays(7), time: '11:00' });

  t.test('known and unknown addresses get the same answer, in no less than FIND_BOOKING_ANSWER_MS', async (t) => {
    const timed = async (email: string) => {
      const started = performance.now();
      const res = await find(email);
      return { res, ms: performance.now() - started };
    };
    // She asks at 10:00 on the day; the clock stays there until her e-mail has been read (next test).
    clock = askedAt;
    const known = await timed(`  ${address.toUpperCase()} `);
    const unknown = await timed('nobody.here@example.co.nz');
    for (const { res } of [known, unknown]) {
      t.equal(res.statusCode, 202);
      t.same(res.json(), { message: FIND_BOOKING_MESSAGES.answer });
      t.match(res.headers['content-type'], /^application\/json/);
    }
    t.equal(known.res.body, unknown.res.body, 'byte for byte the same body');
    t.ok(known.ms >= ANSWER_MS - 1, `a known address answers after ${known.ms.toFixed(0)} ms`);
    t.ok(unknown.ms >= ANSWER_MS - 1, `an unknown address answers after ${unknown.ms.toFixed(0)} ms`);

    const rows = await linkMails();
    t.equal(rows.length, 1, 'one e-mail queued: for the known address only');
    t.equal(rows[0]!.to_address, stored, 'to the address the bookings were made with');
    t.equal(rows[0]!.booking_id, null);
  });

  t.test('the e-mail lists the upcoming bookings only, and its links open them', async (t) => {
    t.teardown(() => {
      clock = testNow;
    });
    await until(() => linksReceived(address).length >= 1, 'the links e-mail');
    const mail: ParsedMail = linksReceived(address)[0]!;
    const text = mail.text!;
    const html = String(mail.html);
    for (const part of [text, html]) {
      t.match(part, upcomingToday.reference, "the day's later booking is listed");
      t.notMatch(part, started.reference, 'one that had started when she asked is not');
      t.match(part, nextWeek.reference, "next week's booking is listed");
      t.notMatch(part, past.reference, 'a past booking is not');
      t.notMatch(part, cancelled.reference, 'a cancelled booking is not');
      t.notMatch(part, someoneElse.reference, "another customer's booking is not");
      t.match(part, 'Deluxe Clean', 'the service');
    }
    t.ok(text.indexOf(upcomingToday.reference) < text.indexOf(nextWeek.reference), 'soonest first');
    t.match(text, '1:00 pm', 'the time, for people');

    const links = [...text.matchAll(/Manage booking ([A-Z0-9]+): (\S+)/g)].map(([, reference, url]) => ({ reference: reference!, url: url! }));
    t.same(links.map((l) => l.reference), [upcomingToday.reference, nextWeek.reference], 'one link per listed booking');
    for (const link of links) {
      const path = new URL(link.url).pathname;
      t.match(path, /^\/booking\/manage\/[A-Za-z0-9_-]{43}$/, 'a live manage link');
      t.ok(html.includes(`href="${link.url}"`), 'the same link in the HTML part');
      const row = (await linkMails())[0]!;
      t.notOk(row.text_body!.includes(path) || row.html_body!.includes(path), 'the outbox keeps no live link, only its slot');
      const page = await app.inject(path);
      t.equal(page.statusCode, 200, `the link of ${link.reference} opens its page`);
      t.match(page.body, link.reference);
    }
  });

  t.test('the booking confirmation links to the page', async (t) => {
    const row = await app.db.selectFrom('outbox_emails').selectAll().where('booking_id', '=', nextWeek.id).where('kind', '=', 'booking-created').executeTakeFirstOrThrow();
    t.match(row.text_body, /\/booking\/find\b/);
  });

  t.test('an address that is not one: 400 with the field message, nothing queued', async (t) => {
    const before = (await linkMails()).length;
    for (const [email, message] of [
      ['not-an-address', MESSAGES.emailInvalid],
      ['someone@localhost', MESSAGES.emailInvalid],
      ['   ', MESSAGES.emailRequired],
    ] as const) {
      const res = await find(email);
      t.equal(res.statusCode, 400, JSON.stringify(email));
      t.same(res.json(), { message, errors: [{ field: 'email', message }] });
    }
    const missing = await app.inject({ method: 'POST', url: '/v1/find-booking', payload: {} });
    t.same(missing.json(), { message: MESSAGES.emailRequired, errors: [{ field: 'email', message: MESSAGES.emailRequired }] });
    const extra = await app.inject({ method: 'POST', url: '/v1/find-booking', payload: { email: address, name: 'x' } });
    t.equal(extra.statusCode, 400, 'unknown fields are refused');
    t.equal((await linkMails()).length, before);
  });

  t.test('at most FIND_BOOKING_PER_ADDRESS_PER_DAY e-mails to one address a day, silently', async (t) => {
    // One was sent above; the default cap is 3, counted whatever the letter case.
    for (const email of [address, stored]) t.equal((await find(email)).statusCode, 202);
    t.equal((await linkMails()).length, 3, 'three e-mails in 24 hours');
    const capped = await find(address);
    t.equal(capped.statusCode, 202, 'the fourth request gets the same answer');
    t.same(capped.json(), { message: FIND_BOOKING_MESSAGES.answer });
    t.equal((await linkMails()).length, 3, 'and sends nothing');

    // A day later (the outbox rows made older), the address gets its links again.
    await app.db.updateTable('outbox_emails').set({ created_at: new Date(Date.now() - DAY_MS - 60_000) } as never).where('kind', '=', 'booking-links').execute();
    t.equal((await find(address)).statusCode, 202);
    t.equal((await linkMails()).length, 4, 'sent again after 24 hours');
  });

  t.test('the form without JavaScript: post, redirect, the same answer', async (t) => {
    const page = await app.inject('/booking/find');
    t.equal(page.statusCode, 200);
    t.match(page.body, /<form [^>]*action="\/booking\/find" method="post"/);
    t.notMatch(page.body, 'noindex', 'a public page search engines may index');
    t.notMatch(page.body, FIND_BOOKING_MESSAGES.answer, 'no answer before a request');

    const before = (await linkMails()).length;
    const post = (email: string) => app.inject({ method: 'POST', url: '/booking/find', payload: new URLSearchParams({ email, website: '' }).toString(), headers: FORM_HEADERS });
    const known = await post('someone.else@example.co.nz');
    const unknown = await post('nobody.at.all@example.co.nz');
    for (const res of [known, unknown]) {
      t.equal(res.statusCode, 303);
      t.equal(res.headers.location, '/booking/find?sent=1#find-title');
      t.equal(res.body, known.body);
    }
    const rows = await linkMails();
    t.equal(rows.length, before + 1, 'queued for the known address only');
    t.equal(rows.at(-1)!.to_address, 'someone.else@example.co.nz');

    const answered = await app.inject('/booking/find?sent=1');
    t.equal(answered.statusCode, 200);
    t.match(answered.body, FIND_BOOKING_MESSAGES.answer);

    const invalid = await post('not an address');
    t.equal(invalid.statusCode, 400, 'an address that is not one brings the form back');
    t.match(invalid.headers['content-type'], /^text\/html/);
    t.match(invalid.body, MESSAGES.emailInvalid);
    t.match(invalid.body, 'value="not an address"', 'with what was typed');
    t.match(invalid.body, 'aria-invalid="true"');

    const json = await app.inject({ method: 'POST', url: '/booking/find', payload: { email: address } });
    t.equal(json.statusCode, 415, 'the page takes a form, not JSON');
  });

  t.test('the footer, the manage page and the sitemap link to the page', async (t) => {
    const home = await app.inject('/');
    t.match(home.body, 'href="/booking/find"', 'the footer');
    const sitemap = await app.inject('/sitemap');
    t.match(sitemap.body, 'href="/booking/find"', 'the HTML sitemap');
    const xml = await app.inject('/sitemap.xml');
    t.match(xml.body, '/booking/find', 'in sitemap.xml');
    const mail = linksReceived(address)[0]!;
    const path = new URL(/Manage booking [A-Z0-9]+: (\S+)/.exec(mail.text!)![1]!).pathname;
    t.match((await app.inject(path)).body, /Lost a link[^<]*<a [^>]*href="\/booking\/find"/, 'the manage page');
  });
});

t.test('the per-client budget: 429 in the error shape, an IPv6 client counted by its /64', async (t) => {
  const app = await buildTestApp(t, { env: { RATE_LIMIT_FORMS_MAX: '2', FIND_BOOKING_ANSWER_MS: '0' } });
  const find = (remoteAddress: string) => app.inject({ method: 'POST', url: '/v1/find-booking', payload: { email: 'budget@example.co.nz' }, remoteAddress });
  t.equal((await find('2001:db8:1:2::1')).statusCode, 202);
  t.equal((await find('2001:db8:1:2::ffff')).statusCode, 202, 'another address of the same /64');
  const third = await find('2001:db8:1:2:abcd::7');
  t.equal(third.statusCode, 429, 'the /64 has spent its budget');
  t.same(Object.keys(third.json()).sort(), ['errors', 'message']);
  t.match(third.json().message, /Too many requests/);
  t.same(third.json().errors, []);
  t.ok(Number(third.headers['retry-after']) >= 1, 'Retry-After');
  t.equal((await find('2001:db8:1:3::1')).statusCode, 202, 'the next /64 is another client');
  const form = await app.inject({
    method: 'POST',
    url: '/booking/find',
    payload: 'email=budget%40example.co.nz',
    headers: FORM_HEADERS,
    remoteAddress: '2001:db8:1:2::9',
  });
  t.equal(form.statusCode, 429, 'the form spends the same budget');
});

t.test('the daily budget (RATE_LIMIT_FORMS_PER_DAY) and the cap turned off (0)', async (t) => {
  const app = await buildTestApp(t, { env: { RATE_LIMIT_FORMS_PER_DAY: '2', FIND_BOOKING_PER_ADDRESS_PER_DAY: '0', FIND_BOOKING_ANSWER_MS: '0' } });
  await book(app, { email: 'uncapped@example.co.nz', date: inDays(4) });
  const find = (remoteAddress: string) => app.inject({ method: 'POST', url: '/v1/find-booking', payload: { email: 'uncapped@example.co.nz' }, remoteAddress });
  t.equal((await find('203.0.113.5')).statusCode, 202);
  t.equal((await find('203.0.113.5')).statusCode, 202);
  const third = await find('203.0.113.5');
  t.equal(third.statusCode, 429);
  t.match(third.json().message, "today's limit of booking look-ups");
  for (let i = 0; i < 4; i++) t.equal((await find(`203.0.113.${10 + i}`)).statusCode, 202);
  const rows = await app.db.selectFrom('outbox_emails').select('id').where('kind', '=', 'booking-links').execute();
  t.equal(rows.length, 6, 'no per-address cap when it is 0');
});
