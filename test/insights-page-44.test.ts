/**
 * The owner's Insights page (issue 44), /dashboard/insights, and its charts' CSVs: to the dashboard
 * when signed out, a 403 page for a member whose role is staff, the owner's page rendered by the
 * server (seven SVG charts, no style attribute, which the Content-Security-Policy would refuse), a
 * refused range answered with the page and its message, and each chart's CSV: the rows of its
 * table, as an attachment, never cached.
 */
import argon2 from 'argon2';
import t from 'tap';
import { parse } from 'csv-parse/sync';
import type { InsightsDto } from '../src/api/insights-schemas.ts';
import { aucklandInstant } from '../src/domain/booking-dates.ts';
import { INSIGHTS_CHARTS, insightsTables } from '../client/staff/lib/insights-tables.ts';
import { buildTestApp, login } from './helper.ts';
import { bookingRow } from './support/payloads.ts';

const MEMBER_PASSWORD = 'a long enough member password';
const NOW = new Date('2026-04-16T00:00:00Z'); // Thursday 16 April 2026, noon in Auckland
const hydrationState = (html: string) => JSON.parse(/<script type="application\/json" id="__DATA__">([\s\S]*?)<\/script>/.exec(html)![1]!).state;

t.test('the Insights page and its CSVs', async (t) => {
  const app = await buildTestApp(t, { now: () => NOW });
  const owner = await login(app);
  const get = (url: string, cookie?: string) => app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

  // A paid job on 1 April, with a name a spreadsheet would run as a formula.
  const { id } = await app.db
    .insertInto('bookings')
    .values(bookingRow({ date: '2026-04-01', time: '09:00', status: 'completed', created_at: new Date(aucklandInstant('2026-03-29', '10:00')) }) as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  const paidAt = new Date(aucklandInstant('2026-04-01', '12:00'));
  await app.db
    .insertInto('booking_payments')
    .values({ booking_id: id, quoted_cents: 6900, amount_cents: 6900, payment_method: 'card', paid_at: paidAt, gst_number: '123-456-789', gst_cents: 900, invoice_number: 901, completed_at: paidAt, completed_by: 'owner' })
    .execute();

  // A member whose role is staff, signed in.
  const invited = await app.inject({ method: 'POST', url: '/v1/staff-members', headers: { cookie: owner }, payload: { name: 'Tama', email: 'tama@valet.test', role: 'staff' } });
  t.equal(invited.statusCode, 201);
  const hash = await argon2.hash(MEMBER_PASSWORD, { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 });
  await app.db.updateTable('staff_members').set({ password_hash: hash, password_changed_at: new Date() }).where('id', '=', invited.json().id).execute();
  const signIn = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'tama@valet.test', password: MEMBER_PASSWORD } });
  const staff = `session=${signIn.cookies.find((c) => c.name === 'session')!.value}`;

  t.test('signed out: to the dashboard, where the sign-in is', async (t) => {
    const res = await get('/dashboard/insights');
    t.equal(res.statusCode, 303);
    t.equal(res.headers.location, '/dashboard');
    t.equal(res.headers['cache-control'], 'no-store');
  });

  t.test('a member whose role is staff: a page saying the Insights are the owner’s', async (t) => {
    const res = await get('/dashboard/insights', staff);
    t.equal(res.statusCode, 403);
    t.match(res.body, /Only the owner sees the Insights/);
    t.match(res.body, /<a href="\/dashboard">Back to the dashboard<\/a>/);
    t.notMatch(res.body, /<svg/, 'no figures');
    t.equal(res.headers['cache-control'], 'no-store');
  });

  t.test('the owner: this month by default, the charts drawn by the server', async (t) => {
    const res = await get('/dashboard/insights', owner);
    t.equal(res.statusCode, 200);
    t.equal(res.headers['cache-control'], 'no-store', 'the figures are private');
    t.match(res.headers['content-type'], /^text\/html/);
    t.equal((res.body.match(/<svg [^>]*role="img"/g) ?? []).length, 7, 'seven SVG charts');
    t.notMatch(res.body, /style="/, 'no style attribute (the Content-Security-Policy allows none)');
    t.match(res.body, /<form class="insights-range"[^>]* action="\/dashboard\/insights" method="get">/, 'a GET form to the page');
    t.match(res.body, /<select id="insights-choice" name="range"/);
    t.match(res.body, /<input id="insights-from" type="date" name="from" value="2026-04-01"/, 'the dates in the form, without JavaScript too');
    t.match(res.body, /<input id="insights-to" type="date" name="to" value="2026-04-30"/);
    t.match(res.body, /Taken \$69\.00 \(GST \$9\.00\), up from \$0\.00 in the 30 days before\./);
    t.match(res.body, /href="\/dashboard\/insights\/revenue\.csv\?from=2026-04-01&amp;to=2026-04-30"/, 'a CSV link a chart');
    t.match(res.body, /Back to the dashboard/);
    const state = hydrationState(res.body);
    t.match(state, { view: 'insights', range: 'month', from: '2026-04-01', to: '2026-04-30', today: '2026-04-16', error: null });
    const api = await get('/v1/insights?from=2026-04-01&to=2026-04-30', owner);
    t.same(state.insights, api.json(), 'the same figures as GET /v1/insights');
  });

  t.test('the range chosen in the form', async (t) => {
    const week = hydrationState((await get('/dashboard/insights?range=week', owner)).body);
    t.match(week, { range: 'week', from: '2026-04-13', to: '2026-04-19' });
    const quarter = hydrationState((await get('/dashboard/insights?range=quarter&from=2020-01-01&to=2020-01-02', owner)).body);
    t.match(quarter, { range: 'quarter', from: '2026-04-01', to: '2026-06-30' }, 'a preset ignores the dates');
    const custom = await get('/dashboard/insights?range=custom&from=2026-03-30&to=2026-04-05', owner);
    t.equal(custom.statusCode, 200);
    t.match(hydrationState(custom.body), { range: 'custom', from: '2026-03-30', to: '2026-04-05', insights: { from: '2026-03-30', to: '2026-04-05' } });
    t.match(hydrationState((await get('/dashboard/insights?from=2026-04-02&to=2026-04-03', owner)).body), { range: 'custom', from: '2026-04-02' }, 'two dates alone are a range');
  });

  t.test('a refused range: the page, with the message beside the form', async (t) => {
    const reversed = await get('/dashboard/insights?range=custom&from=2026-04-30&to=2026-04-01', owner);
    t.equal(reversed.statusCode, 400);
    t.equal(reversed.headers['cache-control'], 'no-store');
    t.match(reversed.body, /<p class="notice notice-error" role="alert">[^<]+<\/p>/);
    t.notMatch(reversed.body, /<svg/);
    t.match(hydrationState(reversed.body), { error: String, insights: null, from: '2026-04-30', to: '2026-04-01' });
    const long = await get('/dashboard/insights?range=custom&from=2020-01-01&to=2026-04-01', owner);
    t.equal(long.statusCode, 400, 'longer than the limit');
    t.match(hydrationState(long.body).error, /\d+ days/);
    for (const url of ['/dashboard/insights?range=custom&from=&to=', '/dashboard/insights?range=custom&from=yesterday&to=2026-04-01', '/dashboard/insights?range=year']) {
      const res = await get(url, owner);
      t.equal(res.statusCode, 400, url);
      t.match(hydrationState(res.body).error, /Choose/, `${url}: said so`);
    }
  });

  t.test('each chart’s CSV: its table’s rows', async (t) => {
    const data = (await get('/v1/insights?from=2026-04-01&to=2026-04-30', owner)).json() as InsightsDto;
    const tables = insightsTables(data);
    for (const chart of INSIGHTS_CHARTS) {
      const res = await get(`/dashboard/insights/${chart}.csv?from=2026-04-01&to=2026-04-30`, owner);
      t.equal(res.statusCode, 200, chart);
      t.match(res.headers['content-type'], /^text\/csv/);
      t.equal(res.headers['content-disposition'], `attachment; filename="insights-${chart}-2026-04-01-to-2026-04-30.csv"`);
      t.equal(res.headers['cache-control'], 'no-store');
      const rows = parse(res.body, { bom: true }) as string[][];
      t.same(rows, [tables[chart].head, ...tables[chart].rows.map((row) => row.map(String))], `${chart}: the table's head and rows`);
    }
    const revenue = parse((await get('/dashboard/insights/revenue.csv?from=2026-04-01&to=2026-04-30', owner)).body, { bom: true }) as string[][];
    t.same(revenue[0], ['Week', 'Cash (NZD)', 'Bank transfer (NZD)', 'Card (NZD)', 'Other (NZD)', 'Total (NZD)', 'GST (NZD)']);
    t.same(revenue.find((row) => row[0] === '2026-03-30'), ['2026-03-30', '0.00', '0.00', '69.00', '0.00', '69.00', '9.00']);

    t.equal((await get('/dashboard/insights/revenue.csv?from=2026-04-01&to=2026-04-30')).statusCode, 401, 'signed out');
    t.equal((await get('/dashboard/insights/revenue.csv?from=2026-04-01&to=2026-04-30', staff)).statusCode, 403, 'staff');
    t.equal((await get('/dashboard/insights/revenue.csv', staff)).statusCode, 403, 'the door before the query');
    t.equal((await get('/dashboard/insights/revenue.csv?from=2026-04-30&to=2026-04-01', owner)).statusCode, 400, 'a reversed range');
    t.equal((await get('/dashboard/insights/payroll.csv?from=2026-04-01&to=2026-04-30', owner)).statusCode, 404, 'no such chart');
  });

  t.test('a cell a spreadsheet would run is written as text', async (t) => {
    const van = await app.db.selectFrom('resources').select('id').where('kind', '=', 'onsite').executeTakeFirstOrThrow();
    await app.db.updateTable('resources').set({ name: '=HYPERLINK("x")' }).where('id', '=', van.id).execute();
    const rows = parse((await get('/dashboard/insights/utilisation.csv?from=2026-04-01&to=2026-04-30', owner)).body, { bom: true }) as string[][];
    t.ok(rows.slice(1).some((row) => row[0] === `'=HYPERLINK("x")`), 'prefixed with an apostrophe');
    t.notOk(rows.slice(1).some((row) => row[0]!.startsWith('=')));
  });
});
