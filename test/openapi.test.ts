/**
 * The OpenAPI document at /v1/openapi.json, as an integrator's tools read it:
 * - Redocly's recommended rules (the same as `redocly lint`) find no error and no warning;
 * - every operation has an operationId, unique in the document;
 * - every operation names its security: none for a route declared `config: { public: true }`,
 *   the staff session cookie for every other one;
 * - `servers` is PUBLIC_URL;
 * - no validator keyword (ajv-errors' `errorMessage`) leaks into it, while the validation
 *   messages users see stay as they are.
 */
import t from 'tap';
import type { RouteOptions } from 'fastify';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { SESSION_SECURITY } from '../src/plugins/external/swagger.ts';
import { buildTestApp } from './helper.ts';

const PUBLIC_URL = 'https://valet.example.nz';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
}
interface OpenApiDocument {
  servers?: { url: string }[];
  info: { license?: { name: string } };
  paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>;
}

/** Every operation of the document, with its method and path. */
function operations(document: OpenApiDocument): { method: string; path: string; operation: Operation }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => (item[method] ? [{ method: method.toUpperCase(), path, operation: item[method] }] : [])),
  );
}

/** The JSON pointers of every `key` member anywhere in `value`. */
function pointersOf(value: unknown, key: string, at = ''): string[] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, member]) => {
    const here = `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    return [...(k === key ? [here] : []), ...pointersOf(member, key, here)];
  });
}

t.test('the OpenAPI document', async (t) => {
  const publicRoutes = new Set<string>();
  const record = (route: RouteOptions) => {
    if (!(route.config as { public?: boolean } | undefined)?.public) return;
    for (const method of [route.method].flat()) publicRoutes.add(`${method} ${route.url.replace(/:([A-Za-z]+)/g, '{$1}')}`);
  };
  const app = await buildTestApp(t, { onRoute: record, env: { PUBLIC_URL } });
  const res = await app.inject('/v1/openapi.json');
  t.equal(res.statusCode, 200);
  const document = res.json<OpenApiDocument>();
  const all = operations(document);
  t.ok(all.length > 20, `${all.length} operations`);

  t.test("passes Redocly's recommended rules with no error and no warning", async (t) => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: res.body, absoluteRef: `${PUBLIC_URL}/v1/openapi.json`, config });
    for (const problem of problems) {
      const where = problem.location.map((l) => l.pointer ?? '').join(', ');
      t.fail(`${problem.severity} ${problem.ruleId}: ${problem.message} at ${where}`);
    }
    t.equal(problems.length, 0, 'no problems');
  });

  t.test('every operation has an operationId, unique in the document', async (t) => {
    const seen = new Map<string, string>();
    for (const { method, path, operation } of all) {
      const id = operation.operationId;
      if (!t.match(id, /^[a-z][A-Za-z]+$/, `${method} ${path} has a readable operationId`) || !id) continue;
      t.notOk(seen.has(id), `${id} (${method} ${path}) is unique${seen.has(id) ? `: also ${seen.get(id)}` : ''}`);
      seen.set(id, `${method} ${path}`);
    }
    // The names client generators give their methods, checked for a few: renaming one breaks every client.
    for (const [id, at] of Object.entries({
      createBooking: 'POST /v1/create-booking',
      getAvailability: 'GET /v1/availability',
      getAvailabilityDays: 'GET /v1/availability/days',
      createQuote: 'POST /v1/quote',
      sendContactMessage: 'POST /v1/contact-us-form',
      login: 'POST /v1/auth/login',
      logout: 'POST /v1/auth/logout',
      listBookings: 'GET /v1/bookings',
      getBooking: 'GET /v1/bookings/{id}',
      changeBookingStatus: 'POST /v1/bookings/{id}/status',
      moveBooking: 'POST /v1/bookings/{id}/move',
      listResources: 'GET /v1/resources',
    })) {
      t.equal(seen.get(id), at, `${id} is ${at}`);
    }
  });

  t.test('public operations need no security, every other one the staff session cookie', async (t) => {
    t.ok(publicRoutes.size >= 7, `${publicRoutes.size} public routes`);
    for (const { method, path, operation } of all) {
      const expected = publicRoutes.has(`${method} ${path}`) ? [] : [{ [SESSION_SECURITY]: [] }];
      t.same(operation.security, expected, `${method} ${path}: ${expected.length ? SESSION_SECURITY : 'public'}`);
    }
  });

  t.test('servers is PUBLIC_URL, and info has a license', async (t) => {
    t.same(document.servers?.map((s) => s.url), [PUBLIC_URL]);
    t.ok(document.info.license?.name, 'info.license.name');
  });

  t.test('no validator keyword (errorMessage) anywhere in the document', async (t) => {
    t.same(pointersOf(document, 'errorMessage'), []);
  });

  t.test('validation messages stay as they are for users', async (t) => {
    const date = await app.inject('/v1/availability?date=0099-01-01');
    t.equal(date.statusCode, 400);
    t.match(date.body, 'Must be a date in the years 1900 to 2999');
    const key = await app.inject({ method: 'POST', url: '/v1/contact-us-form', headers: { 'idempotency-key': 'has spaces' }, payload: {} });
    t.equal(key.statusCode, 400);
    t.match(key.body, 'Must be 1 to 255 visible ASCII characters');
  });
});
