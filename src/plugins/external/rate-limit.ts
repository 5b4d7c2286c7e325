/**
 * Rate limits guard writes only (form posts and sign-in): `global: false`, and each write route
 * opts in through `app.rateLimits`. Page views are never limited.
 */
import fp from 'fastify-plugin';
import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import { AppError } from '../../errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    rateLimits: { forms: RateLimitOptions; wizard: RateLimitOptions; login: RateLimitOptions };
  }
}

export default fp(async (app) => {
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new AppError(429, 'RATE_LIMITED', `Too many requests. Please try again in ${context.after}.`),
  });
  const { formsMax, loginMax, windowMs } = app.config.rateLimit;
  app.decorate('rateLimits', {
    forms: { max: formsMax, timeWindow: windowMs },
    // The booking wizard without JavaScript posts once per step, and only the last post writes.
    wizard: { max: formsMax * 3, timeWindow: windowMs },
    login: { max: loginMax, timeWindow: windowMs * 5 },
  });
}, { name: 'rate-limit', dependencies: ['config'] });
