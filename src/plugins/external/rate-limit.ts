/**
 * Abuse limits, counted per action whatever the door: a booking made through
 * POST /v1/create-booking or the no-JavaScript form's last step spends the same budget, and so do
 * the two ways to send a message and the two ways to sign in. A route declares which budget it
 * spends with `config: { limit: 'booking' }` (or a function of the request, for the wizard whose
 * first steps do not write); test/route-table.test.ts fails for a public write that declares none.
 * Page views are never limited.
 *
 * A client is its address (request.ip: behind a trusted proxy, from X-Forwarded-For), except that
 * an IPv6 client is its /64: one subscriber or host is given a whole /64 and can use any address
 * in it, so counting addresses would give it endless budgets (see clientKey).
 *
 * Counters live in this process, or in Redis when REDIS_URL is set (@fastify/rate-limit's Redis
 * store), so that several instances share one budget.
 */
import { isIPv4, isIPv6 } from 'node:net';
import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import type { FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import type { Redis } from 'ioredis';
import { AppError } from '../../errors.ts';

const DAY_MS = 86_400_000;

/** What a daily budget counts, in the message that says it is spent. */
const DAILY_WHAT: Partial<Record<string, string>> = { booking: 'online bookings', contact: 'messages', findBooking: 'booking look-ups' };

export const LIMIT_NAMES = ['booking', 'wizardStep', 'quote', 'contact', 'login', 'logout', 'manage', 'findBooking'] as const;
export type LimitName = (typeof LIMIT_NAMES)[number];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The abuse budget this route spends on each request (see src/plugins/external/rate-limit.ts). */
    limit?: LimitName | ((request: FastifyRequest) => LimitName);
    /**
     * A /v1 route outside the staff tree that anyone may call. Every other /v1 route must refuse
     * a request without a staff session (test/route-table.test.ts).
     */
    public?: boolean;
  }
  interface FastifyInstance {
    limits: {
      /** Spends one unit of each of the action's budgets for the request's client; 429 when one is exhausted. */
      spend(request: FastifyRequest, action: LimitName): Promise<void>;
      /**
       * Failed sign-ins: checked before a password, counted after a wrong one. Clients without a
       * device cookie are counted together, and all of them wait (429) once they have sent
       * RATE_LIMIT_LOGIN_FAILURES_MAX wrong passwords. A client with a valid device cookie
       * (`device`, its id) is counted on its own and is not held by that pause until it has sent
       * RATE_LIMIT_LOGIN_DEVICE_FAILURES_MAX wrong passwords itself; after that it is one of the others.
       */
      failedSignIns: {
        /** Throws the pause's 429 when this client must wait; returns the device id when the client was let in as that device. */
        assertOpen(request: FastifyRequest, device?: string): Promise<string | undefined>;
        /** Counts a wrong password: against the device assertOpen returned, else against every client without one. */
        record(request: FastifyRequest, trustedDevice?: string): Promise<void>;
      };
    };
  }
}

interface Budget {
  max: number;
  timeWindow: number;
}

type Limiter = ReturnType<import('fastify').FastifyInstance['createRateLimit']>;

/** The start of the 429 that clients without a device cookie get while sign-in is paused. */
export const SIGN_IN_PAUSED_MESSAGE = 'Sign-in is paused after many wrong passwords.';

function tooMany(message: string, seconds: number): AppError {
  return new AppError(429, 'RATE_LIMITED', message, [], { 'retry-after': String(Math.max(1, seconds)) });
}

/**
 * The key a client is counted under: an IPv4 address as it is; an IPv6 address by its /64 prefix
 * (`2001:db8:1:2::/64`), the block one subscriber or host is given; an IPv4-mapped IPv6 address
 * (`::ffff:192.0.2.7`, what a dual-stack socket reports for an IPv4 peer) as the IPv4 address it
 * maps. Anything else (no address at all) is used as given.
 */
export function clientKey(ip: string): string {
  if (isIPv4(ip)) return ip;
  // A zone ("fe80::1%eth0") names the local interface, not the client.
  const address = ip.split('%')[0]!;
  if (!isIPv6(address)) return ip;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted IPv4 part split in two). */
function ipv6Groups(address: string): number[] {
  const parse = (part: string): number[] => {
    if (part === '') return [];
    const pieces = part.split(':');
    const last = pieces[pieces.length - 1]!;
    const tail = last.includes('.') ? (([a, b, c, d]) => [(a! << 8) | b!, (c! << 8) | d!])(last.split('.').map(Number)) : undefined;
    const head = (tail ? pieces.slice(0, -1) : pieces).map((h) => parseInt(h, 16));
    return tail ? [...head, ...tail] : head;
  };
  const [left, right] = address.split('::') as [string, string | undefined];
  if (right === undefined) return parse(left);
  const before = parse(left);
  const after = parse(right);
  return [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
}

/** "3 minutes", "1 hour": the wait, for people. */
export function waitText(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, seconds)} second${seconds === 1 ? '' : 's'}`;
  if (seconds < 5400) return `${Math.ceil(seconds / 60)} minutes`;
  return `${Math.ceil(seconds / 3600)} hours`;
}

export default fp(
  async (app) => {
    const { config } = app;
    let redis: Redis | undefined;
    if (config.redisUrl) {
      // Fail fast instead of queueing: a lost Redis answers 503 at once (skipOnError is off, so a
      // limit is never silently lifted), and the client reconnects by itself. Imported only here:
      // ioredis and its command table hold about 2 MB of a server's heap that has no Redis (issue 24).
      const { Redis } = await import('ioredis');
      redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true });
      redis.on('error', (err: Error) => app.log.warn({ err: { message: err.message } }, 'redis unreachable'));
      await redis.connect().catch((err: Error) => app.log.error({ err: { message: err.message } }, 'redis unreachable at start'));
      app.addHook('onClose', async () => void redis?.disconnect());
    }
    await app.register(rateLimit, { global: false, ...(redis ? { redis, nameSpace: 'valet-rate-limit:' } : {}) });

    const { formsMax, quoteMax, loginMax, windowMs, bookingsPerDay, loginFailuresMax, formsPerDay } = config.rateLimit;
    const budgets: Record<LimitName, Budget[]> = {
      booking: [
        { max: formsMax, timeWindow: windowMs },
        { max: bookingsPerDay, timeWindow: DAY_MS },
      ],
      // The no-JavaScript wizard's steps 1 and 2 (and Back), which only re-render the form.
      wizardStep: [{ max: formsMax * 6, timeWindow: windowMs }],
      // Quotes tell whether an e-mail has booked before: generous for a customer typing (the wizard
      // asks once per pause), too tight to test addresses in bulk.
      quote: [{ max: quoteMax, timeWindow: windowMs }],
      // A message is e-mailed to staff: a daily budget too, so that a mailbox is not flooded
      // (RATE_LIMIT_FORMS_PER_DAY; 0 turns it off).
      contact: [{ max: formsMax, timeWindow: windowMs }, ...(formsPerDay > 0 ? [{ max: formsPerDay, timeWindow: DAY_MS }] : [])],
      login: [{ max: loginMax, timeWindow: windowMs * 5 }],
      logout: [{ max: formsMax * 6, timeWindow: windowMs }],
      // A customer's cancel or move on the manage page, and their confirmation steps.
      manage: [{ max: formsMax * 3, timeWindow: windowMs }],
      // "Find my booking" (both doors) e-mails a customer: the contact form's budgets, counted apart.
      findBooking: [{ max: formsMax, timeWindow: windowMs }, ...(formsPerDay > 0 ? [{ max: formsPerDay, timeWindow: DAY_MS }] : [])],
    };
    const limiters = new Map<LimitName, Limiter[]>();
    for (const name of LIMIT_NAMES) {
      limiters.set(
        name,
        budgets[name].map((budget, index) =>
          app.createRateLimit({ ...budget, keyGenerator: (request: FastifyRequest) => `${name}:${index}:${clientKey(request.ip)}` }),
        ),
      );
    }

    async function spend(request: FastifyRequest, action: LimitName): Promise<void> {
      for (const limiter of limiters.get(action)!) {
        const result = await limiter(request);
        if (result.isAllowed || !result.isExceeded) continue;
        const daily = result.timeWindow >= DAY_MS;
        throw tooMany(
          daily
            ? `You have reached today's limit of ${DAILY_WHAT[action] ?? 'requests'} from this connection. Please call us, or try again in ${waitText(result.ttlInSeconds)}.`
            : `Too many requests. Please try again in ${waitText(result.ttlInSeconds)}.`,
          result.ttlInSeconds,
        );
      }
    }

    const failures = app.createRateLimit({ max: loginFailuresMax, timeWindow: windowMs * 15, keyGenerator: () => 'login-failures:all' });
    // A device's own wrong passwords (OWASP's device cookies): the limiter's key is the device id
    // of the sign-in being checked or counted, which a key generator can only find on the request.
    const deviceOf = new WeakMap<FastifyRequest, string>();
    const deviceFailuresMax = config.loginDevice.failuresMax;
    const deviceFailures = app.createRateLimit({
      max: Math.max(1, deviceFailuresMax),
      timeWindow: windowMs * 15,
      keyGenerator: (request: FastifyRequest) => `login-failures:device:${deviceOf.get(request) ?? ''}`,
    });
    type LimitState = Awaited<ReturnType<Limiter>>;
    const reached = (state: LimitState): state is Extract<LimitState, { isAllowed: false }> => !state.isAllowed && state.remaining <= 0;
    const failedSignIns = {
      async assertOpen(request: FastifyRequest, device?: string) {
        if (device !== undefined) {
          if (deviceFailuresMax === 0) return device;
          deviceOf.set(request, device);
          if (!reached(await deviceFailures(request, { increment: false }))) return device;
          // Locked out: from now until its window ends it is one of the clients without a device cookie.
        }
        const state = await failures(request, { increment: false });
        if (reached(state)) {
          throw tooMany(`${SIGN_IN_PAUSED_MESSAGE} Please try again in ${waitText(state.ttlInSeconds)}.`, state.ttlInSeconds);
        }
        return undefined;
      },
      async record(request: FastifyRequest, trustedDevice?: string) {
        if (trustedDevice === undefined) {
          await failures(request);
        } else if (deviceFailuresMax > 0) {
          deviceOf.set(request, trustedDevice);
          await deviceFailures(request);
        }
      },
    };

    app.decorate('limits', { spend, failedSignIns });

    // After the body is parsed (the wizard's budget depends on its step), before it is validated:
    // an invalid post spends the budget too.
    app.addHook('onRoute', (route) => {
      const limit = route.config?.limit;
      if (limit === undefined) return;
      const hook: preValidationAsyncHookHandler = async (request) => spend(request, typeof limit === 'function' ? limit(request) : limit);
      route.preValidation = [hook, ...(Array.isArray(route.preValidation) ? route.preValidation : route.preValidation ? [route.preValidation] : [])];
    });
  },
  { name: 'rate-limit', dependencies: ['config'] },
);
