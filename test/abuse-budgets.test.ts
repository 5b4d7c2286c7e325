/**
 * Issue 23: budgets that bound what one client (or one booking) can spend. A customer moves a
 * booking at most MANAGE_MAX_CHANGES times (staff moves not counted; 0: no cap); contact messages
 * have a daily budget shared by both doors (RATE_LIMIT_FORMS_PER_DAY); the no-JavaScript wizard's
 * price step spends the quote budget shared with POST /v1/quote.
 */
import t, { type Test } from 'tap';
import { MANAGE_MESSAGES, moveLimitExplanation } from '../src/domain/manage-rules.ts';
import { manageLinkFor } from '../src/db/manage-link.repository.ts';
import { buildTestApp, forEachBackend, login, type Backend } from './helper.ts';
import { inDays, originalClientPayload } from './support/payloads.ts';

t.setTimeout(300_000);

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const hydrationState = (html: string) => JSON.parse(/<script type="application\/json" id="__DATA__">([\s\S]*?)<\/script>/.exec(html)![1]!).state;
const escaped = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/'/g, '(?:\'|&#x27;|&#39;)'));

async function manageApp(t: Test, backend: Backend, env: Record<string, string> = {}) {
  const app = await buildTestApp(t, { backend, env });
  let day = 0;
  const book = async () => {
    const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: inDays(30 + day), time: '08:00', email: `m${day}@example.com` }) });
    day += 1;
    if (res.statusCode !== 201) throw new Error(`booking failed: ${res.body}`);
    const { id } = res.json();
    const path = new URL((await manageLinkFor(app.db, id, 'https://valet.example.nz'))!).pathname;
    return { id, path };
  };
  const post = (url: string, fields: Record<string, string>) => app.inject({ method: 'POST', url, payload: form(fields), headers: { ...FORM, origin: 'http://localhost:80' } });
  const row = (id: string) => app.db.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const move = async (booking: { id: string; path: string }, date: string, time = '08:00') =>
    post(`${booking.path}/move`, { version: String((await row(booking.id)).version), date, time, confirm: 'yes' });
  return { app, book, post, row, move };
}

forEachBackend(t, async (t, backend) => {
  t.test('a customer moves a booking at most MANAGE_MAX_CHANGES times; then the page gives the phone number', async (t) => {
    const { app, book, post, row, move } = await manageApp(t, backend);
    const phone = app.config.business.phone;
    const booking = await book();
    for (let n = 1; n <= 3; n++) t.equal((await move(booking, inDays(60 + n))).statusCode, 303, `move ${n} accepted`);
    const before = await row(booking.id);

    const refused = await move(booking, inDays(70));
    t.equal(refused.statusCode, 409, 'the fourth is refused');
    t.match(refused.body, escaped(moveLimitExplanation(3, phone)));
    t.match(await row(booking.id), { date: before.date, time: before.time, version: before.version }, 'nothing changed');
    const asked = await post(`${booking.path}/move`, { version: String(before.version), date: inDays(70), time: '08:00' });
    t.equal(asked.statusCode, 409, 'choosing a time is refused too');

    const page = await app.inject(booking.path);
    t.equal(page.statusCode, 200);
    t.notMatch(page.body, /Move booking/, 'no Move');
    t.match(page.body, /Cancel booking/, 'cancelling stays open');
    t.match(page.body, escaped(phone));
    t.match(page.body, /href="tel:/);
    t.match(hydrationState(page.body), { moveLimit: 3, view: 'overview', move: null });
    const movePage = await app.inject(`${booking.path}/move?date=${inDays(70)}`);
    t.match(hydrationState(movePage.body), { view: 'overview', move: null }, 'the move view is not offered');

    const cancelled = await post(`${booking.path}/cancel`, { version: String(before.version), confirm: 'yes' });
    t.equal(cancelled.statusCode, 303, 'the customer can still cancel');
    t.equal((await row(booking.id)).status, 'cancelled');
    t.match((await app.inject(cancelled.headers.location as string)).body, MANAGE_MESSAGES.cancelled);
  });

  t.test('staff moves are not counted', async (t) => {
    const { app, book, row, move } = await manageApp(t, backend);
    const staff = await login(app);
    const booking = await book();
    for (let n = 1; n <= 3; n++) {
      const res = await app.inject({
        method: 'POST',
        url: `/v1/bookings/${booking.id}/move`,
        headers: { cookie: staff },
        payload: { version: (await row(booking.id)).version, date: inDays(80 + n), time: '08:00' },
      });
      t.equal(res.statusCode, 200, `staff move ${n}`);
    }
    for (let n = 1; n <= 3; n++) t.equal((await move(booking, inDays(90 + n))).statusCode, 303, `customer move ${n} after three staff moves`);
    t.equal((await move(booking, inDays(95))).statusCode, 409, 'the customer’s fourth is refused');
  });

  t.test('MANAGE_MAX_CHANGES=0: no cap', async (t) => {
    const { app, book, move } = await manageApp(t, backend, { MANAGE_MAX_CHANGES: '0' });
    const booking = await book();
    for (let n = 1; n <= 5; n++) t.equal((await move(booking, inDays(60 + n))).statusCode, 303, `move ${n}`);
    const page = await app.inject(booking.path);
    t.match(page.body, /Move booking/);
    t.match(hydrationState(page.body), { moveLimit: null });
  });

  t.test('contact messages: a daily budget per client, shared by both doors', async (t) => {
    const app = await buildTestApp(t, { backend, env: { RATE_LIMIT_FORMS_MAX: '100', RATE_LIMIT_FORMS_PER_DAY: '3' } });
    const remoteAddress = '2001:db8:5:6::1';
    const message = { name: 'Tane', email: 'tane@example.com', phone: '021 555 1234', message: 'Hi' };
    const json = (ip = remoteAddress) => app.inject({ method: 'POST', url: '/v1/contact-us-form', payload: message, remoteAddress: ip });
    const page = (ip = remoteAddress) => app.inject({ method: 'POST', url: '/contact', payload: form(message), headers: FORM, remoteAddress: ip });
    t.equal((await page()).statusCode, 303);
    t.equal((await json()).statusCode, 201);
    t.equal((await page('2001:db8:5:6::2')).statusCode, 303, 'the same /64');
    const over = await json();
    t.equal(over.statusCode, 429, 'one more is refused');
    t.match(over.json().message, /today's limit of messages/);
    t.ok(Number(over.headers['retry-after']) > 3600, 'until tomorrow');
    const overPage = await page();
    t.equal(overPage.statusCode, 429, 'at the other door too');
    t.match(overPage.body, /today(?:'|&#x27;|&#39;)s limit of messages/);
    t.equal((await json('2001:db8:5:7::1')).statusCode, 201, 'another client has its own budget');
    t.equal(await app.db.selectFrom('contact_messages').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow().then((r) => Number(r.n)), 4, 'each message counted once');
  });

  t.test('the no-JavaScript price step spends the quote budget shared with POST /v1/quote', async (t) => {
    const app = await buildTestApp(t, { backend, env: { RATE_LIMIT_QUOTE_MAX: '3' } });
    const remoteAddress = '203.0.113.77';
    const { saveAddress: _save, ...fields } = originalClientPayload({ date: inDays(5) });
    const stepTwo = () => app.inject({ method: 'POST', url: '/booking', payload: form({ ...(fields as Record<string, string>), step: '2', action: 'next' }), headers: FORM, remoteAddress });
    const quote = () => app.inject({ method: 'POST', url: '/v1/quote', payload: originalClientPayload({ date: inDays(5) }), remoteAddress });
    const first = await stepTwo();
    t.equal(first.statusCode, 200);
    t.equal(hydrationState(first.body).step, 3, 'the price step');
    t.equal((await quote()).statusCode, 200);
    t.equal((await stepTwo()).statusCode, 200);
    const refused = await stepTwo();
    t.equal(refused.statusCode, 429, 'the fourth quote, through the page, is refused');
    t.ok(Number(refused.headers['retry-after']) > 0);
    t.match(hydrationState(refused.body), { step: 2, quote: null, formError: /Too many requests/ }, 'step 2 again, with the message');
    t.equal((await quote()).statusCode, 429, 'and the API shares the spent budget');
    const back = await app.inject({ method: 'POST', url: '/booking', payload: form({ ...(fields as Record<string, string>), step: '1', action: 'next' }), headers: FORM, remoteAddress });
    t.equal(back.statusCode, 200, 'the steps that show no price are not refused');
  });
});
