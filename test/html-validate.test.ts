/**
 * The rendered pages pass html-validate's `html-validate:standard` rules with no error (issue 25:
 * "keep what is right today"): every page of the page table (client/routes.ts, what the sitemap
 * lists), their states reachable by an address (a package chosen, a message sent, a booking
 * received), the booking wizard's three steps (step 1 by GET, steps 2 and 3 as the no-JavaScript
 * form posts them), the 404 page, a booking's manage page in each of its views, and a regular
 * plan's page (issue 43), and the owner's Insights (issue 44).
 */
import t from 'tap';
import { HtmlValidate, type Message } from 'html-validate';
import { MANAGE_PAGE_PATH, PAGES, PLAN_PAGE_PATH, RECEIPT_PAGE_PATH } from '../client/routes.ts';
import { INVITATION_PAGE_PATH } from '../src/domain/staff-members.ts';
import { INSIGHTS_PAGE_PATH } from '../src/domain/site-paths.ts';
import { recordCompletion } from '../src/services/completion-record.ts';
import { manageLinkFor } from '../src/db/manage-link.repository.ts';
import { visitsOf } from '../src/db/plans.repository.ts';
import { weekdayOf } from '../src/domain/availability.ts';
import { buildTestApp, login } from './helper.ts';
import { inDays, originalClientPayload } from './support/payloads.ts';

// The standard preset as it is: no rule needed turning off for React's server output.
const validator = new HtmlValidate({ extends: ['html-validate:standard'] });
const hydrationState = (html: string) => JSON.parse(/<script type="application\/json" id="__DATA__">([\s\S]*?)<\/script>/.exec(html)![1]!).state;

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:80' };

/** The first weekday (Monday to Friday) at least `n` days ahead: drop-off bays work 08:00-18:00 then. */
function weekday(n: number): string {
  for (; ; n++) if (!['saturday', 'sunday'].includes(weekdayOf(inDays(n)))) return inDays(n);
}

function describe(messages: Message[]): string[] {
  return messages.map((m) => `${m.ruleId} ${m.line}:${m.column} ${m.selector ?? ''}: ${m.message}`);
}

t.test('the validator finds errors where there are some', async (t) => {
  const report = await validator.validateString(
    '<!DOCTYPE html><html lang="en"><head><title>x</title></head><body><span><div>x</div></span><input id="a"><input id="a"></body></html>',
  );
  t.same(
    report.results.flatMap((r) => r.messages).map((m) => m.ruleId),
    ['element-permitted-content', 'no-dup-id'],
    'a block in a phrasing element, a duplicate id',
  );
});

t.test('every public page and the manage page pass html-validate:standard', async (t) => {
  const app = await buildTestApp(t);
  const pages: { name: string; status: number; html: string }[] = [];
  const get = async (url: string, status = 200, cookie?: string) => {
    const res = await app.inject({ url, headers: cookie ? { cookie } : {} });
    t.equal(res.statusCode, status, `GET ${url}`);
    t.match(res.headers['content-type'], /^text\/html/, `GET ${url} is HTML`);
    pages.push({ name: `GET ${url}`, status: res.statusCode, html: res.body });
    return res;
  };
  const post = async (url: string, fields: Record<string, string>, status = 200) => {
    const res = await app.inject({ method: 'POST', url, payload: form(fields), headers: FORM_HEADERS });
    t.equal(res.statusCode, status, `POST ${url} ${fields.step ? `step ${fields.step}` : ''}`);
    pages.push({ name: `POST ${url} ${JSON.stringify(fields).slice(0, 80)}`, status: res.statusCode, html: res.body });
    return res;
  };

  // Every page of the page table (what /sitemap and sitemap.xml list), the manage page apart.
  // (The pages at a token's address apart: the manage and receipt pages below, a staff invitation here, as a used link shows it.)
  // (The owner's Insights apart too: signed in as the owner below, their page and a refused range's.)
  for (const page of PAGES) if (![MANAGE_PAGE_PATH, PLAN_PAGE_PATH, RECEIPT_PAGE_PATH, INVITATION_PAGE_PATH, INSIGHTS_PAGE_PATH].includes(page.path)) await get(page.path);
  await get(`${INVITATION_PAGE_PATH}/${'A'.repeat(43)}`, 410);
  const owner = await login(app);
  await get(INSIGHTS_PAGE_PATH, 200, owner);
  await get(`${INSIGHTS_PAGE_PATH}?range=custom&from=2026-04-30&to=2026-04-01`, 400, owner);
  const sitemap = (await app.inject('/sitemap')).body;
  for (const [, path] of sitemap.matchAll(/<a [^>]*href="(\/[^"#?]*)"/g)) {
    if (!pages.some((p) => p.name === `GET ${path}`)) await get(path!);
  }
  // States an address reaches.
  await get('/?booking=received');
  await get('/contact?sent=1');
  await get('/booking/find?sent=1');
  await post('/booking/find', { email: 'not an address' }, 400);
  await get('/booking?package=quick-clean');
  await get('/no-such-page', 404);
  await get('/services/no-such-service', 404);

  // The wizard without JavaScript: step 1 posted shows step 2, step 2 shows step 3; and a step with errors.
  const date = weekday(5);
  const job = { service: 'Quick Clean', vehicleType: 'sm', selectedVehicleType: 'sm' };
  const step = (html: string) => hydrationState(html).step as number;
  t.equal(step((await get('/booking')).body), 1, 'GET /booking: step 1');
  t.equal(step((await post('/booking', { ...job, step: '1', action: 'next' })).body), 2, 'step 2');
  t.equal(step((await post('/booking', { ...job, serviceType: 'dropoff', date, step: '1', action: 'next' })).body), 2, 'step 2 with a date and its times');
  t.equal(step((await post('/booking', { ...job, serviceType: 'dropoff', date, time: '10:00', step: '2', action: 'next' })).body), 3, 'step 3');
  t.equal(step((await post('/booking', { ...job, serviceType: 'dropoff', date, time: '10:00', step: '3', action: 'back' })).body), 2, 'back to step 2');
  t.equal(step((await post('/booking', { step: '1', action: 'next' }, 400)).body), 1, 'step 1 with its messages');
  t.equal(step((await post('/booking', { ...job, serviceType: 'onsite', date, step: '2', action: 'next' }, 400)).body), 2, 'step 2 with its messages');
  // Issue 40: a postcode the vans come to (its zone and fee), and one they do not (the drop-off offer).
  t.equal(step((await post('/booking', { ...job, serviceType: 'onsite', postalCode: '0931', date, step: '2', action: 'next' }, 400)).body), 2, 'step 2 with a served postcode');
  t.equal(step((await post('/booking', { ...job, serviceType: 'onsite', postalCode: '8011', date, time: '10:00', step: '2', action: 'next' }, 400)).body), 2, 'step 2 outside the service area');
  const details = { ...job, serviceType: 'dropoff', date, time: '10:00', name: 'A', email: 'not-an-address', phone: '1', step: '3', action: 'next' };
  t.equal(step((await post('/booking', details, 400)).body), 3, 'step 3 with its messages');

  // A booking's manage page, from a booking made through the API.
  const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: weekday(10), time: '10:00' }) });
  t.equal(res.statusCode, 201, 'a booking');
  const path = new URL((await manageLinkFor(app.db, res.json().id, 'https://valet.example.nz'))!).pathname;
  await get(path);
  await get(`${path}?done=moved`);
  await get(`${path}/cancel`);
  await get(`${path}/move`);
  await get(`${path}/move?date=${weekday(12)}`);
  // Issue 43: the booking made a regular plan; its page, its stop confirmation, and a visit's own page and skip confirmation.
  const made = await app.inject({ method: 'POST', url: `${path}/plan`, payload: form({ intervalWeeks: '4' }), headers: FORM_HEADERS });
  t.equal(made.statusCode, 303, 'a regular plan');
  await get(path);
  await get(`${path}/plan?done=started`);
  const plan = await app.db.selectFrom('plans').selectAll().where('booking_id', '=', res.json().id).executeTakeFirstOrThrow();
  await post(`${path}/plan/stop`, { version: String(plan.version) });
  const visitPath = new URL((await manageLinkFor(app.db, (await visitsOf(app.db, plan.id))[1]!.booking_id!, 'https://valet.example.nz'))!).pathname;
  await get(visitPath);
  await get(`${visitPath}/skip`);
  // The same booking completed: its receipt (issue 21).
  await app.db.transaction().execute(async (trx) => {
    const done = await trx.updateTable('bookings').set({ status: 'completed' }).where('id', '=', res.json().id).returningAll().executeTakeFirstOrThrow();
    await recordCompletion(trx, done, { by: 'Staff', paymentMethod: 'card' }, app.mail);
  });
  await get(path.replace('/booking/manage/', '/booking/receipt/'));

  t.ok(pages.length >= 30, `${pages.length} pages rendered`);
  for (const page of pages) {
    const report = await validator.validateString(page.html, page.name);
    const errors = report.results.flatMap((r) => r.messages).filter((m) => m.severity === 2);
    t.same(describe(errors), [], `${page.name} (${page.status}): no html-validate error`);
  }
});
