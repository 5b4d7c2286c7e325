/**
 * The OpenAPI document, generated from the routes' TypeBox schemas, served at /v1/openapi.json.
 * It passes Redocly's recommended rules with no error or warning (test/openapi.test.ts): every
 * operation names its `operationId` and its security (`[]` when public, else SESSION_SECURITY),
 * and the validator's own keywords are left out of it.
 */
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import { sessionCookieName } from '../app/auth.ts';

export const SESSION_SECURITY = 'staffSession';

/** Tags of the operations, each declared in the document with what it groups. */
export const API_TAGS = [
  { name: 'public', description: 'What the public site calls: availability, quotes, bookings and contact messages. No session needed; the writes are rate-limited.' },
  { name: 'staff', description: `The staff dashboard's endpoints: each needs the session cookie (${SESSION_SECURITY}) from POST /v1/auth/login, which itself needs none.` },
];

/**
 * Keywords of the validator (ajv-errors) that the route schemas carry for the messages shown to
 * users, and that OpenAPI has no place for: validation reads them from the route schemas, the
 * document goes without them.
 */
const VALIDATOR_KEYWORDS = new Set(['errorMessage']);
/** Keys whose members are named by the API (property names, component names), never keywords. */
const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'schemas', 'paths', 'responses', 'headers', 'examples', 'securitySchemes', 'content']);

/** A copy of `value` without the validator's keywords; the route schemas themselves are not touched. */
export function withoutValidatorKeywords<T>(value: T): T {
  return strip(value, false) as T;
}

function strip(value: unknown, isNameMap: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => strip(item, false));
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (!isNameMap && VALIDATOR_KEYWORDS.has(key)) continue;
    copy[key] = strip(member, !isNameMap && NAME_MAPS.has(key));
  }
  return copy;
}

export default fp(async (app) => {
  const { publicUrl, name } = app.config.business;
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${name} API`,
        description: 'Bookings and contact messages for the public site; staff endpoints need a session cookie from POST /v1/auth/login.',
        version: '1.0.0',
        // Not an open API: the software and the service are the business's own.
        license: { name: 'Proprietary', url: `${publicUrl}/terms` },
      },
      servers: [{ url: publicUrl, description: name }],
      tags: API_TAGS,
      components: {
        securitySchemes: {
          [SESSION_SECURITY]: {
            type: 'apiKey',
            in: 'cookie',
            name: sessionCookieName(app.config.isProduction),
            description: 'The staff session, set by POST /v1/auth/login and cleared by POST /v1/auth/logout.',
          },
        },
      },
    },
    // The paths are the app's own routes, whatever path PUBLIC_URL has.
    stripBasePath: false,
    transformObject: (document) => ('openapiObject' in document ? withoutValidatorKeywords(document.openapiObject) : withoutValidatorKeywords(document.swaggerObject)),
  });
}, { name: 'swagger', dependencies: ['config'] });
