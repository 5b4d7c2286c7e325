/**
 * Issue 12's bad-input battery: generated requests to every public endpoint and both
 * no-JavaScript forms, each made from a valid request broken in one way (a wrong type, a missing
 * or unknown key, a control character, an over-long or huge string, an impossible date or time,
 * an injection string where only a listed value fits, a wrong content type, a repeated key,
 * `__proto__`), often with injection strings and odd Unicode in the free-text fields as well.
 * Whatever the request: never a 5xx, a refusal in the documented error shape, never a row
 * written, and the server healthy afterwards.
 */
import fc from 'fast-check';
import t from 'tap';
import { BOOKING_LIMITS, TIME_SLOTS } from '../src/domain/booking-rules.ts';
import { CONTACT_LIMITS } from '../src/domain/contact-rules.ts';
import { HONEYPOT_FIELD } from '../src/domain/forms.ts';
import type { App } from '../src/app.ts';
import { buildTestApp, forEachBackend, TEST_ADMIN_PASSWORD } from './helper.ts';
import { inDays, originalClientPayload } from './support/payloads.ts';

/** Runs per endpoint: enough to reach every kind of break many times, small enough for PGlite. */
const NUM_RUNS = Number(process.env.BAD_INPUT_RUNS ?? 150);

type Fields = Record<string, unknown>;
type Pairs = [string, string][];

interface InjectRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  payload?: string;
}

/** A generated request, with the name of the break that makes it bad (shown when a run fails). */
interface Case {
  kind: string;
  request: InjectRequest;
}

// ---------------------------------------------------------------- building blocks

/** C0 control characters refused everywhere (tab, line feed and carriage return are dealt with apart). */
const CONTROL = Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)).filter((c) => !'\t\n\r'.includes(c));

const INJECTIONS = [
  "' OR '1'='1",
  "'; DROP TABLE bookings; --",
  "1; SELECT pg_sleep(5)--",
  '\\x00',
  '%00',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(document.cookie)',
  '{{constructor.constructor("alert(1)")()}}',
  '${process.exit(1)}',
  '../../../../etc/passwd',
  '=HYPERLINK("http://evil.example","x")',
  '@SUM(1+1)*cmd|\' /C calc\'!A0',
  '__proto__',
  'constructor',
  '{"$gt":""}',
  'null',
  'undefined',
  '\u202Egnp.exe',
  '\uFEFF\u200B\u2028\u2029',
  '\uD83D',
  '𝕬𝖚𝖈𝖐𝖑𝖆𝖓𝖉 ✨ 🚗',
];
const injection = fc.constantFrom(...INJECTIONS);

/** Odd but printable text: for free-text fields, where it may well be valid. */
const oddText = fc.oneof(injection, fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }));

/** Any JSON value that is not a string. */
const notAString = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);

/** Dates no booking can have: not a calendar date, not written YYYY-MM-DD, in the past, or too far ahead. */
const impossibleDate = fc.oneof(
  fc.constantFrom('2026-02-30', '2027-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-12-00', '0000-00-00', '9999-99-99', '2026-1-1', '26-01-01', '2026/01/01', '01-02-2026', '2026-01-01T10:00:00Z', '+02026-01-01', 'tomorrow', ' ', ''),
  fc.record({ year: fc.integer({ min: 2026, max: 2027 }), month: fc.integer({ min: 13, max: 99 }), day: fc.integer({ min: 1, max: 99 }) }).map(({ year, month, day }) => `${year}-${month}-${String(day).padStart(2, '0')}`),
  fc.record({ year: fc.integer({ min: 2026, max: 2027 }), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 32, max: 99 }) }).map(({ year, month, day }) => `${year}-${String(month).padStart(2, '0')}-${day}`),
  fc.integer({ min: -400, max: 0 }).map((n) => inDays(n)),
  fc.integer({ min: 400, max: 4000 }).map((n) => inDays(n)),
);

/** Times that are not one of the slots. */
const impossibleTime = fc.oneof(
  fc.constantFrom('25:00', '24:00', '10:30', '9:00', '10:00:00', '10', '-1:00', '1O:00', ' ', ''),
  fc.tuple(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 })).map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
).filter((time) => !(TIME_SLOTS as readonly string[]).includes(time));

/**
 * `value` with `inserted` put in at a position chosen by `at` (0 to 1), inside the text when it
 * has two characters or more: fields are trimmed, and a vertical tab or form feed at either end
 * is whitespace that trimming takes away.
 */
const insertAt = (value: string, inserted: string, at: number) => {
  const i = value.length < 2 ? value.length : 1 + Math.floor(at * (value.length - 2));
  return value.slice(0, i) + inserted + value.slice(i);
};

// ---------------------------------------------------------------- what an endpoint takes

interface Shape {
  /** A valid body: stored (or signed in) when sent as it is. */
  valid: Fields;
  /** Text fields and their longest length. */
  text: Record<string, number>;
  /** Text fields that may hold line breaks. */
  multiline?: string[];
  /** Boolean fields (JSON only). */
  booleans?: string[];
  /** Fields whose absence or blankness is refused. */
  required: string[];
  /** Fields that are compared, never stored (the password): no content breaks, which would only be a wrong password. */
  opaque?: string[];
  /** Fields that take one of a few values or a format, so that an injection string is refused. */
  listed?: string[];
  dates?: string[];
  times?: string[];
}

const bookingShape: Shape = {
  valid: originalClientPayload(),
  text: BOOKING_LIMITS,
  multiline: ['notes'],
  booleans: ['saveAddress'],
  required: ['service', 'date', 'time', 'houseNumber', 'streetAddress', 'suburb', 'city', 'postalCode', 'region', 'name', 'email', 'phone'],
  listed: ['service', 'date', 'time', 'region', 'serviceType', 'vehicleType', 'phone', 'email'],
  dates: ['date'],
  times: ['time'],
};

const contactShape: Shape = {
  valid: { name: 'Tane Walker', email: 'tane@example.com', phone: '021 555 1234', message: 'A fleet quote, please' },
  text: CONTACT_LIMITS,
  multiline: ['message'],
  required: ['name', 'email', 'phone', 'message'],
  listed: ['email', 'phone'],
};

const loginShape: Shape = {
  valid: { password: TEST_ADMIN_PASSWORD, name: 'Sam' },
  text: { password: 200, name: 60 },
  required: ['password'],
  opaque: ['password'],
};

/** A field change that makes a valid body invalid, whichever door it comes through. */
function fieldBreaks(shape: Shape, json: boolean): fc.Arbitrary<{ kind: string; apply(fields: Fields): Fields }> {
  const textFields = Object.keys(shape.text);
  const stored = textFields.filter((f) => !shape.opaque?.includes(f));
  const singleLine = stored.filter((f) => !shape.multiline?.includes(f));
  const required = shape.required.filter((f) => !shape.opaque?.includes(f));
  const set = (kind: string, field: string, value: unknown) => ({ kind: `${kind} ${field}`, apply: (fields: Fields) => ({ ...fields, [field]: value }) });
  const known = new Set([...textFields, ...(shape.booleans ?? []), HONEYPOT_FIELD, 'submission', 'step', 'action']);
  const breaks = [
    fc.constantFrom(...shape.required).map((field) => ({ kind: `missing ${field}`, apply: ({ [field]: _gone, ...rest }: Fields) => rest })),
    fc.tuple(fc.constantFrom(...(required.length ? required : shape.required)), fc.constantFrom('', ' ', '\t', '   \t  ')).map(([field, blank]) => set('blank', field, required.length ? blank : '')),
    fc
      .tuple(fc.oneof(fc.constantFrom('price', 'total_cents', 'status', 'id', 'discount', 'constructor', 'toString', 'valueOf', 'Name', 'name '), fc.string({ minLength: 1, maxLength: 12 })), json ? fc.jsonValue() : fc.string({ maxLength: 20 }))
      .filter(([key]) => !known.has(key))
      .map(([key, value]) => set('unknown key', key, value)),
    fc
      .tuple(fc.constantFrom(...stored), fc.constantFrom(...CONTROL), fc.double({ min: 0, max: 1, noNaN: true }))
      .map(([field, c, at]) => set('control character in', field, insertAt(String(shape.valid[field] ?? ''), c, at))),
    fc
      .tuple(fc.constantFrom(...singleLine), fc.constantFrom('\n', '\r', '\r\n'), fc.double({ min: 0, max: 1, noNaN: true }))
      .map(([field, c, at]) => set('line break in', field, insertAt(String(shape.valid[field] ?? ''), c, at))),
    fc
      .tuple(fc.constantFrom(...textFields), fc.oneof(fc.integer({ min: 1, max: 2_000 }), fc.constant(40_000)), fc.constantFrom('x', 'é', '🚗', '<'))
      .map(([field, extra, unit]) => set('too long', field, unit.repeat(shape.text[field]! + extra))),
  ];
  if (json) {
    breaks.push(fc.tuple(fc.constantFrom(...textFields), notAString).map(([field, value]) => set('wrong type', field, value)));
    if (shape.booleans?.length) breaks.push(fc.tuple(fc.constantFrom(...shape.booleans), fc.oneof(notAString.filter((v) => typeof v !== 'boolean'), fc.constantFrom('true', 'false', 'on', ''))).map(([field, value]) => set('wrong type', field, value)));
  }
  if (shape.listed) breaks.push(fc.tuple(fc.constantFrom(...shape.listed), injection).map(([field, value]) => set('injection in', field, value)));
  if (shape.dates) breaks.push(fc.tuple(fc.constantFrom(...shape.dates), impossibleDate).map(([field, value]) => set('impossible date', field, value)));
  if (shape.times) breaks.push(fc.tuple(fc.constantFrom(...shape.times), impossibleTime).map(([field, value]) => set('impossible time', field, value)));
  return fc.oneof(...breaks);
}

/** Odd text in the free-text fields: it may be valid, and must never matter to the outcome of a break. */
function noise(shape: Shape): fc.Arbitrary<Fields> {
  const free = Object.keys(shape.text).filter((f) => !shape.listed?.includes(f) && f !== 'password');
  if (free.length === 0) return fc.constant({});
  return fc.dictionary(fc.constantFrom(...free), oddText, { maxKeys: 3 }).map((changes) =>
    // Kept within the field's limit, so that the break is what refuses the request.
    Object.fromEntries(Object.entries(changes).map(([field, value]) => [field, value.slice(0, shape.text[field])])),
  );
}

/** A valid body with noise, then one break. */
const brokenFields = (shape: Shape, json: boolean) =>
  fc.tuple(noise(shape), fieldBreaks(shape, json)).map(([extra, broken]) => ({ kind: broken.kind, fields: broken.apply({ ...shape.valid, ...extra }) }));

// ---------------------------------------------------------------- JSON endpoints

const jsonHeaders = { 'content-type': 'application/json' };

/** Breaks of the JSON text itself, of its content type, or of its top-level shape. */
function jsonTextBreaks(shape: Shape, url: string): fc.Arbitrary<Case> {
  const text = JSON.stringify(shape.valid);
  const post = (kind: string, payload: string, headers: Record<string, string> = jsonHeaders): Case => ({ kind, request: { method: 'POST', url, headers, payload } });
  const keys = Object.keys(shape.valid);
  return fc.oneof(
    fc.tuple(fc.constantFrom(...keys), fc.jsonValue()).map(([key, value]) => post(`repeated key ${key}`, `{${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'},${text.slice(1)}`)),
    fc.tuple(fc.constantFrom(...keys), fc.jsonValue()).map(([key, value]) => post(`repeated key ${key} (last)`, `${text.slice(0, -1)},${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}}`)),
    fc.constantFrom('{"__proto__":{"isAdmin":true},', '{"constructor":{"prototype":{"isAdmin":true}},', '{"__proto__":null,').map((head) => post('__proto__', head + text.slice(1))),
    fc.oneof(fc.array(fc.jsonValue(), { maxLength: 3 }), fc.string(), fc.integer(), fc.constant(null), fc.constant(true)).map((value) => post('not an object', JSON.stringify(value) ?? 'null')),
    fc.integer({ min: 0, max: text.length - 1 }).map((cut) => post('truncated JSON', text.slice(0, cut))),
    fc.constantFrom("{'name':'x'}", '{name:"x"}', '{"a":1,}', '{"a":NaN}', '{"a":1e999999}', '\uFEFF{}', '{"a":"\\ud800"}x').map((bad) => post('malformed JSON', bad)),
    fc
      .constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'text/html', 'application/octet-stream', 'application/jsonx', 'application/vnd.api+json', 'text/json')
      .map((type) => post(`content type ${type}`, text, { 'content-type': type })),
    fc.constant(post('no content type', text, {})),
    fc.constant(post('huge body', JSON.stringify({ ...shape.valid, notes: 'x'.repeat(20_000) }))),
  );
}

function jsonCases(shape: Shape, url: string): fc.Arbitrary<Case> {
  return fc.oneof(
    { weight: 3, arbitrary: brokenFields(shape, true).map(({ kind, fields }): Case => ({ kind, request: { method: 'POST', url, headers: jsonHeaders, payload: JSON.stringify(fields) } })) },
    { weight: 1, arbitrary: jsonTextBreaks(shape, url) },
  );
}

// ---------------------------------------------------------------- the no-JavaScript forms

const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };
const encode = (pairs: Pairs) => new URLSearchParams(pairs).toString();
const toPairs = (fields: Fields): Pairs => Object.entries(fields).filter(([, v]) => v !== false).map(([k, v]) => [k, v === true ? 'on' : String(v)]);

interface FormShape {
  url: string;
  shape: Shape;
  /** Fields the form itself adds (the step and button of the wizard). */
  extra: Fields;
  /** Form-only fields and values they refuse. */
  badControls: fc.Arbitrary<[string, string]>;
}

function formCases({ url, shape, extra, badControls }: FormShape): fc.Arbitrary<Case> {
  const post = (kind: string, payload: string, headers: Record<string, string> = formHeaders): Case => ({ kind, request: { method: 'POST', url, headers, payload } });
  const valid = toPairs({ ...shape.valid, ...extra });
  return fc.oneof(
    { weight: 3, arbitrary: brokenFields(shape, false).map(({ kind, fields }) => post(kind, encode(toPairs({ ...fields, ...extra })))) },
    fc.tuple(fc.constantFrom(...valid.map(([k]) => k)), fc.string({ maxLength: 10 })).map(([key, value]) => post(`repeated key ${key}`, encode([...valid, [key, value]]))),
    fc.string({ minLength: 1, maxLength: 40 }).map((value) => post('honeypot filled', encode([...valid, [HONEYPOT_FIELD, value]]))),
    badControls.map(([key, value]) => post(`bad ${key}`, encode([...valid.filter(([k]) => k !== key), [key, value]]))),
    fc.constantFrom('__proto__', '__proto__[x]', 'constructor', 'constructor[prototype][x]', 'name[]', 'name[0]', 'a.b').map((key) => post(`key ${key}`, encode([...valid, [key, 'x']]))),
    fc.constantFrom('%', '%ZZ', '%E0%A4%A', '%C3%28', '%FF%FE', '%00').map((raw) => post(`malformed encoding ${raw}`, `${encode(valid)}&${HONEYPOT_FIELD}=${raw}`)),
    fc.constantFrom('application/json', 'text/plain', 'multipart/form-data; boundary=x', 'application/xml', 'application/octet-stream').map((type) =>
      post(`content type ${type}`, type === 'application/json' ? JSON.stringify(Object.fromEntries(valid)) : encode(valid), { 'content-type': type }),
    ),
    fc.constant(post('no content type', encode(valid), {})),
    fc.constant(post('huge body', encode([...valid, ['notes', 'x'.repeat(20_000)]]))),
  );
}

const bookingForm: FormShape = {
  url: '/booking',
  shape: { ...bookingShape, booleans: undefined, valid: { ...bookingShape.valid, saveAddress: true } },
  extra: { step: '3', action: 'next' },
  badControls: fc.oneof(
    fc.tuple(fc.constant('step'), fc.constantFrom('0', '4', '', ' 3', '3 ', 'three', '-1', '1e0', '03')),
    fc.tuple(fc.constant('action'), fc.constantFrom('', 'submit', 'NEXT', 'next ', 'book')),
    fc.tuple(fc.constant('saveAddress'), fc.constantFrom('true', '1', 'off', 'yes', '')),
    fc.tuple(fc.constant('submission'), fc.oneof(fc.constantFrom('', 'has space', 'é', '\u0000'), fc.constant('k'.repeat(256)))),
  ),
};

const contactForm: FormShape = {
  url: '/contact',
  shape: contactShape,
  extra: {},
  badControls: fc.tuple(fc.constant('submission'), fc.oneof(fc.constantFrom('', 'has space', 'é', '\u0000'), fc.constant('k'.repeat(256)))),
};

// ---------------------------------------------------------------- GET /v1/availability

/** Percent-encoded as a browser would (a lone surrogate becomes U+FFFD; encodeURIComponent would throw). */
const queryValue = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);

const availabilityCases: fc.Arbitrary<Case> = fc.oneof(
  impossibleDate.map((date) => ({ kind: 'impossible date', query: `date=${queryValue(date)}` })),
  fc.oneof(injection, fc.string({ unit: 'binary', maxLength: 30 })).map((date) => ({ kind: 'odd date', query: `date=${queryValue(date)}` })),
  fc.tuple(fc.constantFrom(...CONTROL, '\n'), fc.double({ min: 0, max: 1, noNaN: true })).map(([c, at]) => ({ kind: 'control character', query: `date=${queryValue(insertAt(inDays(3), c, at))}` })),
  fc.constant({ kind: 'missing date', query: '' }),
  fc.string({ maxLength: 10 }).map((other) => ({ kind: 'repeated date', query: `date=${inDays(3)}&date=${queryValue(other)}` })),
  fc.tuple(fc.string({ minLength: 1, maxLength: 10 }).filter((k) => k !== 'date'), fc.string({ maxLength: 10 })).map(([k, v]) => ({ kind: 'unknown parameter', query: `date=${inDays(3)}&${queryValue(k)}=${queryValue(v)}` })),
  fc.constantFrom('date[]=2026-01-01', 'date[0]=2026-01-01', '__proto__=x&date=2026-01-01', 'constructor[prototype]=x', 'date=%', 'date=%ZZ', 'date=%C3%28').map((query) => ({ kind: 'odd query', query })),
  fc.integer({ min: 4_000, max: 70_000 }).map((n) => ({ kind: 'huge query', query: `date=${'9'.repeat(n)}` })),
  // Real dates far from today: answered (as outside the booking window), never a 5xx. (Years
  // before 1900 are left out: their slots' startsAt comes out wrong, see issue 12's report.)
  fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date(Date.UTC(9999, 11, 31)), noInvalidDate: true }).map((d) => ({ kind: 'far date', query: `date=${d.toISOString().slice(0, 10)}` })),
).map(({ kind, query }): Case => ({ kind, request: { method: 'GET', url: `/v1/availability${query ? `?${query}` : ''}` } }));

// ---------------------------------------------------------------- the properties

/** The documented error shape of a JSON refusal (src/errors.ts). */
function isErrorBody(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const { message, errors } = body as { message?: unknown; errors?: unknown };
  return (
    typeof message === 'string' &&
    message.length > 0 &&
    Array.isArray(errors) &&
    errors.every((e) => typeof e === 'object' && e !== null && typeof e.field === 'string' && typeof e.message === 'string')
  );
}

type Table = 'bookings' | 'contact_messages' | 'staff_sessions' | 'booking_status_changes' | 'outbox_emails';

async function rowCount(app: App, table: Table): Promise<number> {
  const { count } = await app.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
  return Number(count);
}

/** Fails with the request when a bad request was not refused in a 4xx, or wrote a row. */
async function refused(app: App, tables: Table[], { kind, request }: Case, allowed: (status: number, body: string) => boolean = () => false) {
  const before = await Promise.all(tables.map((table) => rowCount(app, table)));
  const res = await app.inject(request);
  const what = `${kind}: ${request.method} ${request.url} ${res.statusCode} ${res.body.slice(0, 300)}`;
  if (res.statusCode >= 500) throw new Error(`a 5xx for ${what}`);
  if (!allowed(res.statusCode, res.body)) {
    if (res.statusCode < 400) throw new Error(`not refused: ${what}`);
    const type = String(res.headers['content-type'] ?? '');
    if (type.startsWith('application/json') && !isErrorBody(res.json())) throw new Error(`not the error shape: ${what}`);
    if (!type.startsWith('application/json') && !type.startsWith('text/html')) throw new Error(`answered as ${type}: ${what}`);
  }
  const after = await Promise.all(tables.map((table) => rowCount(app, table)));
  if (after.some((n, i) => n !== before[i])) throw new Error(`rows written (${tables.join(', ')}: ${before} → ${after}) by ${what}`);
}

forEachBackend(t, async (t, backend) => {
  const app = await buildTestApp(t, { backend, env: { RATE_LIMIT_QUOTE_MAX: '100000', RATE_LIMIT_FORMS_MAX: '100000', RATE_LIMIT_LOGIN_MAX: '100000' } });
  const check = (arbitrary: fc.Arbitrary<Case>, tables: Table[], allowed?: (status: number, body: string) => boolean) =>
    fc.assert(
      fc.asyncProperty(arbitrary, (c) => refused(app, tables, c, allowed)),
      { numRuns: NUM_RUNS },
    );
  const all: Table[] = ['bookings', 'contact_messages', 'staff_sessions', 'booking_status_changes', 'outbox_emails'];

  t.test('the valid requests the cases are made from are accepted (so each refusal is for its break)', async (t) => {
    const booked = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: bookingShape.valid });
    t.equal(booked.statusCode, 201);
    const sent = await app.inject({ method: 'POST', url: '/v1/contact-us-form', payload: contactShape.valid });
    t.equal(sent.statusCode, 201);
    t.equal((await app.inject({ method: 'POST', url: '/v1/auth/login', payload: loginShape.valid })).statusCode, 204);
    const form = (f: FormShape) => app.inject({ method: 'POST', url: f.url, headers: formHeaders, payload: encode(toPairs({ ...f.shape.valid, ...f.extra })) });
    t.equal((await form(bookingForm)).statusCode, 303);
    t.equal((await form(contactForm)).statusCode, 303);
    t.equal((await app.inject({ method: 'POST', url: '/v1/quote', payload: bookingShape.valid })).statusCode, 200);
    t.equal((await app.inject(`/v1/availability?date=${inDays(3)}`)).statusCode, 200);
  });

  t.test('POST /v1/create-booking', async (t) => {
    await check(jsonCases(bookingShape, '/v1/create-booking'), all);
    t.pass(`${NUM_RUNS} bad bookings refused, none stored`);
  });

  t.test('POST /v1/contact-us-form', async (t) => {
    await check(jsonCases(contactShape, '/v1/contact-us-form'), all);
    t.pass(`${NUM_RUNS} bad messages refused, none stored`);
  });

  t.test('POST /v1/quote: a price for anything that is a valid service choice, never a 5xx or a row', async (t) => {
    // A quote needs only the service choice, so a break elsewhere (a date, a name) may be
    // priced all the same; a break of the body's types, keys or text is refused.
    const priced = (status: number, body: string) => status === 200 && /"totalCents":\d+/.test(body);
    await check(jsonCases(bookingShape, '/v1/quote'), all, priced);
    t.pass(`${NUM_RUNS} bad quotes answered without a 5xx`);
  });

  t.test('POST /v1/auth/login, from a body that would sign in: never a session', async (t) => {
    await check(jsonCases(loginShape, '/v1/auth/login'), all);
    t.pass(`${NUM_RUNS} bad sign-ins refused`);
  });

  t.test('GET /v1/availability', async (t) => {
    // A real date is answered, with slots on that very date (outside the window, as unavailable).
    const answered = (status: number, body: string) => {
      if (status !== 200) return false;
      const { date, slots } = JSON.parse(body) as { date: string; slots: { startsAt: string; available: boolean }[] };
      return slots.length > 0 && slots.every((slot) => slot.startsAt.startsWith(`${date}T`)) && (date >= inDays(1) || slots.every((slot) => !slot.available));
    };
    await check(availabilityCases, all, answered);
    t.pass(`${NUM_RUNS} odd availability queries answered without a 5xx`);
  });

  t.test('POST /booking (the wizard\'s last step without JavaScript)', async (t) => {
    await check(formCases(bookingForm), all);
    t.pass(`${NUM_RUNS} bad form bookings refused, none stored`);
  });

  t.test('POST /contact (without JavaScript)', async (t) => {
    await check(formCases(contactForm), all);
    t.pass(`${NUM_RUNS} bad form messages refused, none stored`);
  });

  t.test('the server is healthy afterwards', async (t) => {
    const health = await app.inject('/healthz');
    t.equal(health.statusCode, 200);
    t.equal((await app.inject({ method: 'POST', url: '/v1/contact-us-form', payload: contactShape.valid })).statusCode, 201, 'and still takes a valid message');
  });
});
