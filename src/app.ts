/**
 * Builds the whole application from a validated configuration. Tests build it with a test
 * configuration and use `inject`; only src/server.ts listens.
 */
import Fastify, { LogController, type FastifyError, type FastifyInstance, type RouteOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { DestinationStream } from 'pino';
import type { Config } from './config.ts';
import { AppError, databaseUnavailable, invalidData, isConnectionError, isDataException, isOverlapViolation, isResourceShortage, placeTaken, type ErrorBody } from './errors.ts';
import { logDestination, loggerOptions } from './logger.ts';
import { DirectPages, requestIdOf } from './direct-pages.ts';
import { toFieldErrors, validatorCompiler } from './validation.ts';
import { securityHeaders } from './security-headers.ts';
import configPlugin from './plugins/app/config.ts';
import accessLogPlugin from './plugins/app/access-log.ts';
import jsonBodyPlugin from './plugins/app/json-body.ts';
import sameOriginPlugin from './plugins/app/same-origin.ts';
import cookiePlugin from './plugins/external/cookie.ts';
import formbodyPlugin from './plugins/external/formbody.ts';
import rateLimitPlugin from './plugins/external/rate-limit.ts';
import swaggerPlugin from './plugins/external/swagger.ts';
import databasePlugin from './plugins/app/database.ts';
import authPlugin from './plugins/app/auth.ts';
import formGuardPlugin from './plugins/app/form-guard.ts';
import idempotencyPurgePlugin from './plugins/app/idempotency-purge.ts';
import confirmationLapsePlugin from './plugins/app/confirmation-lapse.ts';
import retentionPlugin from './plugins/app/retention.ts';
import embeddedUpkeepPlugin from './plugins/app/embedded-upkeep.ts';
import backupsPlugin from './plugins/app/backups.ts';
import renderPlugin from './plugins/app/render.ts';
import mailerPlugin from './plugins/app/mailer.ts';
import webhooksPlugin from './plugins/app/webhooks.ts';
import plansPlugin from './plugins/app/plans.ts';
import waitlistPlugin from './plugins/app/waitlist.ts';
import healthRoutes from './routes/health.ts';
import v1Routes from './routes/v1/index.ts';
import pageRoutes from './routes/pages/index.ts';
import { buildSerializer } from './serialization.ts';

/** Longest request target (path and query) accepted; 414 above it. */
export const MAX_URL_LENGTH = 4096;

export type App = FastifyInstance;

export interface BuildOptions {
  /** Where log lines go (standard output by default); tests read them from here. */
  logStream?: DestinationStream;
  /**
   * The clock business dates are taken from (default: the system clock). Tests pin it, so that a
   * run crossing midnight in Auckland cannot move "today" under them.
   */
  now?: () => Date;
  /** Sees every route as it is registered (test/route-table.test.ts checks each one's rules). */
  onRoute?: (route: RouteOptions) => void;
  /**
   * A dump of an already migrated embedded database (PGlite's dumpDataDir) that an in-memory
   * database starts from instead of running initdb; the test suite builds one and reuses it.
   */
  pgliteSnapshot?: Blob;
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const ownDestination = options.logStream || config.logLevel === 'silent' ? undefined : logDestination(config.logBufferBytes);
  const logStream = options.logStream ?? ownDestination;
  const headers = securityHeaders(config);
  // Pages that are the same for everyone are answered before Fastify, once cached (issue 24).
  const directPages = new DirectPages({ securityHeaders: headers });
  const app = Fastify({
    serverFactory: directPages.serverFactory(),
    logger: { ...loggerOptions(config.logLevel), ...(logStream ? { stream: logStream } : {}) },
    // Fastify's two lines per request are replaced by one access line (src/plugins/app/access-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimit,
    // A client gets REQUEST_TIMEOUT_SECONDS to send its whole request (408 after it) and a socket
    // silent that long is closed: without them a slow body holds a connection for ever, and the
    // default compose publishes this port with no proxy in front. 0 is Fastify's "no limit".
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.requestTimeoutMs,
    // Passed as it is: a number is Fastify's hop count (the address that many hops back along
    // X-Forwarded-For), so a client cannot pick its own address by adding entries in front.
    trustProxy: config.trustProxy,
    // genReqId reads the header itself, so that a malformed id from outside is replaced.
    requestIdHeader: false,
    genReqId: requestIdOf,
    // Route parameters are ids; a longer one is a 404 without further work.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 100 },
    return503OnClosing: true,
    // The embedded database's first start (initdb in WebAssembly) takes several seconds, and more
    // than Fastify's default 10 s on a small or busy machine; a real database opens at once.
    pluginTimeout: 60_000,
    schemaController: { compilersFactory: { buildSerializer } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  app.setValidatorCompiler(validatorCompiler);
  app.decorate('directPages', directPages);
  // Closing: every request goes through Fastify, which answers 503.
  app.addHook('preClose', (done) => {
    directPages.close();
    done();
  });
  // A callback hook, not an async one: it runs on every request, pages included. It is the first
  // hook, so even the errors of later ones carry the security headers.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers).header('x-request-id', request.id);
    // No page or endpoint has a URL anywhere near this long; refusing it first bounds the work
    // any later step can be made to do on it.
    if (request.url.length > MAX_URL_LENGTH) {
      done(new AppError(414, 'URI_TOO_LONG', `The address is too long (at most ${MAX_URL_LENGTH} characters)`));
      return;
    }
    done();
  });

  // Before any route is registered: routes take the handlers in force when they are added.
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (isOverlapViolation(error)) {
      request.log.warn({ code: '23P01' }, 'overlap refused by the database');
      error = placeTaken();
    }
    if (error instanceof AppError) {
      if (error.statusCode >= 500) request.log.warn({ code: error.code }, error.message);
      return reply.code(error.statusCode).headers(error.headers).send({ message: error.message, errors: error.errors } satisfies ErrorBody);
    }
    if (error.validation) {
      const errors = toFieldErrors(error.validation, error.validationContext);
      return reply.code(400).send({ message: errors[0]?.message ?? 'Invalid request', errors } satisfies ErrorBody);
    }
    if (isConnectionError(error) || isResourceShortage(error)) {
      request.log.error({ err: { message: error.message, code: error.code } }, 'database unreachable or short of resources');
      const unavailable = databaseUnavailable();
      return reply.code(503).headers(unavailable.headers).send({ message: unavailable.message, errors: [] } satisfies ErrorBody);
    }
    if (isDataException(error)) {
      request.log.warn({ code: error.code }, 'data exception from the database');
      const invalid = invalidData();
      return reply.code(400).send({ message: invalid.message, errors: [] } satisfies ErrorBody);
    }
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'unhandled error');
      return reply.code(500).send({ message: 'Internal Server Error', errors: [] } satisfies ErrorBody);
    }
    return reply.code(status).send({ message: clientErrorMessage(error), errors: [] } satisfies ErrorBody);
  });

  app.setNotFoundHandler((request, reply) => {
    if (request.url === '/v1' || request.url.startsWith('/v1/') || request.method !== 'GET') {
      return reply.code(404).send({ message: `No such endpoint: ${request.method} ${request.url.split('?')[0]}`, errors: [] } satisfies ErrorBody);
    }
    return reply.page({ status: 404 });
  });

  if (ownDestination) {
    app.addHook('onClose', (_instance, done) => {
      ownDestination.stopTimer();
      ownDestination.flushSync();
      done();
    });
  }

  await app.register(configPlugin, { config, now: options.now });
  await app.register(accessLogPlugin);
  await app.register(sameOriginPlugin);
  await app.register(jsonBodyPlugin);
  await app.register(cookiePlugin);
  await app.register(formbodyPlugin);
  await app.register(rateLimitPlugin);
  await app.register(swaggerPlugin);
  await app.register(databasePlugin, { pgliteSnapshot: options.pgliteSnapshot });
  await app.register(authPlugin);
  await app.register(formGuardPlugin);
  await app.register(idempotencyPurgePlugin);
  await app.register(confirmationLapsePlugin);
  await app.register(retentionPlugin);
  await app.register(embeddedUpkeepPlugin);
  await app.register(backupsPlugin);
  await app.register(mailerPlugin);
  await app.register(webhooksPlugin);
  await app.register(plansPlugin);
  await app.register(waitlistPlugin);
  await app.register(renderPlugin);

  await app.register(healthRoutes);
  app.get('/v1/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
  await app.register(v1Routes, { prefix: '/v1' });
  await app.register(pageRoutes);

  return app;
}


/** Fastify's own client errors, reworded for people. */
function clientErrorMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported content type: send application/json';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is too large';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is empty: send a JSON object';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'The request body is not valid JSON';
    default:
      return error.message;
  }
}
