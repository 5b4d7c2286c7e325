import t from 'tap';
import { buildTestApp, forEachBackend } from './helper.ts';

const valid = { name: 'Tane Walker', email: 'tane@example.com', phone: '021 555 1234', message: 'Do you clean boats?' };

forEachBackend(t, async (t, backend) => {
  const app = await buildTestApp(t, { backend, env: { BODY_LIMIT_BYTES: '4096' } });
  const count = async () => Number((await app.db.selectFrom('contact_messages').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const post = (payload: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: '/v1/contact-us-form', payload: payload as object, headers });

  t.test('a valid message is stored and answered with 201 and a message', async (t) => {
    const res = await post(valid);
    t.equal(res.statusCode, 201);
    const body = res.json();
    t.match(body, { message: /Thank you/, id: /^[0-9a-f-]{36}$/ });
    const row = await app.db.selectFrom('contact_messages').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow();
    t.match(row, { name: 'Tane Walker', email: 'tane@example.com', phone: '021 555 1234', message: 'Do you clean boats?', read_at: null });
  });

  t.test('each check answers 400 with the spec message and the field, and stores nothing', async (t) => {
    const before = await count();
    const cases: Array<[object, string, string]> = [
      [{ ...valid, name: '' }, 'name', 'Please enter your name'],
      [{ ...valid, email: '' }, 'email', 'Please enter your email'],
      [{ ...valid, phone: '' }, 'phone', 'Please enter your phone number'],
      [{ ...valid, phone: 'phone me' }, 'phone', 'Please enter a valid phone number'],
      [{ ...valid, email: 'tane-at-example' }, 'email', 'Please enter a valid email address'],
      [{ ...valid, message: '   ' }, 'message', 'Please enter your message'],
      [{ name: 'A', email: 'a@b.co', phone: '021 555 1234' }, 'message', 'Please enter your message'],
    ];
    for (const [payload, field, message] of cases) {
      const res = await post(payload);
      t.equal(res.statusCode, 400, message);
      t.same(res.json(), { message, errors: [{ field, message }] });
    }
    t.equal(await count(), before);
  });

  t.test('bad input is a clear 4xx in the error shape, never a 500, never a row', async (t) => {
    const before = await count();
    const expectations: Array<[string, () => ReturnType<typeof post>, number, RegExp]> = [
      ['a number where a string belongs', () => post({ ...valid, phone: 211234567 }), 400, /Must be a string/],
      ['an array where a string belongs', () => post({ ...valid, name: ['a'] }), 400, /Must be a string/],
      ['an unknown key', () => post({ ...valid, admin: true }), 400, /Unknown field/],
      ['a body that is not an object', () => post([valid]), 400, /JSON object/],
      ['a __proto__ key', () => app.inject({ method: 'POST', url: '/v1/contact-us-form', headers: { 'content-type': 'application/json' }, payload: '{"name":"a","__proto__":{"x":1}}' }), 400, /./],
      ['a constructor key', () => app.inject({ method: 'POST', url: '/v1/contact-us-form', headers: { 'content-type': 'application/json' }, payload: '{"name":"a","constructor":{"prototype":{"x":1}}}' }), 400, /./],
      ['malformed JSON', () => app.inject({ method: 'POST', url: '/v1/contact-us-form', headers: { 'content-type': 'application/json' }, payload: '{"name":' }), 400, /not valid JSON/],
      ['an empty JSON body', () => app.inject({ method: 'POST', url: '/v1/contact-us-form', headers: { 'content-type': 'application/json' }, payload: '' }), 400, /empty/],
      ['form-encoded data', () => app.inject({ method: 'POST', url: '/v1/contact-us-form', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'name=a&email=b' }), 415, /application\/json/],
      ['plain text', () => app.inject({ method: 'POST', url: '/v1/contact-us-form', headers: { 'content-type': 'text/plain' }, payload: 'hello' }), 415, /application\/json/],
      ['an oversize body', () => post({ ...valid, message: 'x'.repeat(5000) }), 413, /too large/],
      ['an overlong field', () => post({ ...valid, name: 'x'.repeat(101) }), 400, /under 100 characters/],
    ];
    for (const [what, send, status, message] of expectations) {
      const res = await send();
      t.equal(res.statusCode, status, what);
      const body = res.json();
      t.match(body, { message, errors: Array }, what);
    }
    t.equal(await count(), before, 'no row written');
  });

  t.test('an unknown /v1 path is a JSON 404 in the error shape', async (t) => {
    const res = await app.inject({ method: 'GET', url: '/v1/nothing-here' });
    t.equal(res.statusCode, 404);
    t.match(res.headers['content-type'], /application\/json/);
    t.match(res.json(), { message: /No such endpoint/, errors: [] });
    const post404 = await app.inject({ method: 'POST', url: '/v1/delete-everything', payload: {} });
    t.equal(post404.statusCode, 404);
  });
});

t.test('the contact form is rate-limited per client IP with Retry-After', async (t) => {
  const app = await buildTestApp(t, { env: { RATE_LIMIT_FORMS_MAX: '2' } });
  const send = (ip: string) => app.inject({ method: 'POST', url: '/v1/contact-us-form', payload: valid, remoteAddress: ip });
  t.equal((await send('10.0.0.1')).statusCode, 201);
  t.equal((await send('10.0.0.1')).statusCode, 201);
  const limited = await send('10.0.0.1');
  t.equal(limited.statusCode, 429);
  t.ok(Number(limited.headers['retry-after']) > 0, 'Retry-After header');
  t.match(limited.json(), { message: /Too many requests/, errors: [] });
  t.equal((await send('10.0.0.2')).statusCode, 201, 'another client is not limited');
  const page = await app.inject({ method: 'GET', url: '/', remoteAddress: '10.0.0.1' });
  t.equal(page.statusCode, 200, 'pages are never limited');
});
