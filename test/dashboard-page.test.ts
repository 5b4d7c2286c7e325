/** /dashboard and its sign-in and sign-out form posts, as a browser without JavaScript uses them. */
import t from 'tap';
import { buildTestApp, login, TEST_ADMIN_PASSWORD } from './helper.ts';
import { SCHEDULE_SHAPE } from '../src/domain/schedule.ts';

const state = (html: string) => JSON.parse(/<script type="application\/json" id="__DATA__">([\s\S]*?)<\/script>/.exec(html)![1]!).state;
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

t.test('session mode', async (t) => {
  const app = await buildTestApp(t);

  t.test('without a session the page is the sign-in form, never cached, never indexed', async (t) => {
    const res = await app.inject('/dashboard');
    t.equal(res.statusCode, 200);
    t.equal(res.headers['cache-control'], 'no-store');
    t.match(res.body, /<meta name="robots" content="noindex">/);
    t.match(res.body, /<form[^>]*action="\/dashboard\/login"/);
    t.same(state(res.body), { mode: 'session', signedIn: false, staffName: null, staffRole: null, staffAccount: false, signInEmail: '', signInError: null, schedule: SCHEDULE_SHAPE });
    t.notMatch(res.body, /class="contact-widget"/, 'no customer contact widget over the staff page');
    t.notMatch(res.body, /id="newsletter-title"/, 'no newsletter box on the staff page');
    t.notMatch(res.body, /class="site-footer"/, 'no marketing footer: the staff frame (issue 21)');
    t.match(res.body, /class="staff-header"/, 'the staff bar instead');
  });

  t.test('a wrong password re-renders the form with the message; the right one signs in and redirects', async (t) => {
    const wrong = await app.inject({ method: 'POST', url: '/dashboard/login', headers: FORM, payload: form({ password: 'nope' }) });
    t.equal(wrong.statusCode, 401);
    t.match(state(wrong.body), { signedIn: false, signInError: 'Incorrect password' });
    t.equal(wrong.headers['set-cookie'], undefined);

    const right = await app.inject({ method: 'POST', url: '/dashboard/login', headers: FORM, payload: form({ password: TEST_ADMIN_PASSWORD, name: 'Sam' }) });
    t.equal(right.statusCode, 303);
    t.equal(right.headers.location, '/dashboard');
    const cookie = `${right.cookies[0]!.name}=${right.cookies[0]!.value}`;
    t.match(state((await app.inject({ url: '/dashboard', headers: { cookie } })).body), { signedIn: true });
    t.equal((await app.inject({ url: '/v1/bookings', headers: { cookie } })).statusCode, 200);
    const session = await app.db.selectFrom('staff_sessions').select('staff_name').where('staff_name', '=', 'Sam').executeTakeFirst();
    t.ok(session, 'the name is kept with the session');

    const out = await app.inject({ method: 'POST', url: '/dashboard/logout', headers: { ...FORM, cookie }, payload: '' });
    t.equal(out.statusCode, 303);
    t.equal((await app.inject({ url: '/v1/bookings', headers: { cookie } })).statusCode, 401, 'the session is gone on the server');
  });

  t.test('sign-in and sign-out posted from another site are refused', async (t) => {
    const crossSite = await app.inject({ method: 'POST', url: '/dashboard/login', headers: { ...FORM, 'sec-fetch-site': 'cross-site' }, payload: form({ password: TEST_ADMIN_PASSWORD }) });
    t.equal(crossSite.statusCode, 403);
    t.equal(crossSite.headers['set-cookie'], undefined);
    const cookie = await login(app);
    const logout = await app.inject({ method: 'POST', url: '/dashboard/logout', headers: { ...FORM, cookie, origin: 'https://evil.example' }, payload: '' });
    t.equal(logout.statusCode, 403);
    t.equal((await app.inject({ url: '/v1/bookings', headers: { cookie } })).statusCode, 200, 'still signed in');
  });
});

t.test('prompt mode serves the gate page, and the API stays behind the session', async (t) => {
  const app = await buildTestApp(t, { env: { DASHBOARD_AUTH: 'prompt' } });
  const res = await app.inject('/dashboard');
  t.match(state(res.body), { mode: 'prompt', signedIn: false });
  t.match(res.body, /Checking access/);
  t.equal((await app.inject('/v1/getall-booking')).statusCode, 401);
});
