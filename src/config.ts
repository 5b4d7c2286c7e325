/**
 * The one configuration of the application, read from the environment and validated with
 * TypeBox at start-up. A bad value stops the process with one line naming the variable.
 */
import path from 'node:path';
import { Type, type Static } from 'typebox';
import Value from 'typebox/value';
import { DEFAULT_BUSINESS, type BusinessInfo } from './domain/business.ts';
import { EMAIL_SYNTAX_PATTERN } from './domain/text-rules.ts';
import { GST_NUMBER_PATTERN } from './domain/completion.ts';
import { meetsOwaspMinimum, passwordProblem } from './password-policy.ts';

const Port = Type.Integer({ minimum: 0, maximum: 65535 });
const Positive = Type.Integer({ minimum: 1 });
const NonEmpty = Type.String({ minLength: 1 });
const Url = Type.String({ pattern: '^https?://[^\\s]+$' });
// The business's own addresses: the relay it is given may deliver to a name on its own network
// (staff@office.internal), so only the shape is checked, not EMAIL_PATTERN's "for people" rules.
const Email = Type.String({ pattern: EMAIL_SYNTAX_PATTERN.source });

/** Every variable the application reads; docs/configuration.md lists each (test/docs.test.ts checks it). */
export const EnvSchema = Type.Object({
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')], { default: 'development' }),
  PORT: Type.Union([Port], { default: 3000 }),
  HOST: Type.String({ minLength: 1, default: '0.0.0.0' }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  LOG_REQUESTS: Type.Union([Type.Literal('all'), Type.Literal('errors'), Type.Literal('none')], { default: 'all' }),
  /** Log lines are written in batches of this many bytes, and at least every second; 0 writes each line at once. */
  LOG_BUFFER_BYTES: Type.Union([Type.Integer({ minimum: 0, maximum: 1_048_576 })], { default: 4096 }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  DATA_DIR: Type.String({ minLength: 1, default: './data' }),
  DB_POOL_MAX: Type.Union([Positive], { default: 10 }),
  DB_CONNECT_TIMEOUT_MS: Type.Union([Positive], { default: 2000 }),
  DB_PREPARED_STATEMENTS: Type.Union([Type.Integer({ minimum: 0, maximum: 10_000 })], { default: 200 }),
  /** How often the embedded database's tables are vacuumed and analysed where autovacuum would; 0 turns it off. */
  EMBEDDED_UPKEEP_SECONDS: Type.Union([Type.Integer({ minimum: 0, maximum: 86_400 })], { default: 60 }),
  /** Where backups are written: DATA_DIR/backups by default for the embedded database; without it a PostgreSQL server's are off. */
  BACKUP_DIR: Type.Optional(NonEmpty),
  /** Hours between scheduled backups (one across all instances); 0 turns the schedule off. */
  BACKUP_EVERY_HOURS: Type.Union([Type.Integer({ minimum: 0, maximum: 8760 })], { default: 24 }),
  /** Backups kept in BACKUP_DIR: the oldest beyond this are removed after each one; 0 keeps them all. */
  BACKUP_KEEP: Type.Union([Type.Integer({ minimum: 0, maximum: 10_000 })], { default: 14 }),
  PUBLIC_URL: Type.Union([Url], { default: DEFAULT_BUSINESS.publicUrl }),
  ADMIN_PASSWORD: Type.Optional(Type.String()),
  ADMIN_PASSWORD_HASH: Type.Optional(Type.String({ pattern: '^\\$argon2id\\$v=19\\$m=\\d+,t=\\d+,p=\\d+\\$[A-Za-z0-9+/]+\\$[A-Za-z0-9+/]+$' })),
  DASHBOARD_AUTH: Type.Union([Type.Literal('session'), Type.Literal('prompt')], { default: 'session' }),
  ONSITE_TEAMS: Type.Union([Type.Integer({ minimum: 0, maximum: 50 })], { default: 2 }),
  DROPOFF_BAYS: Type.Union([Type.Integer({ minimum: 0, maximum: 50 })], { default: 2 }),
  /** The old name: when set, seeds that many of each kind (see resourceSeed). */
  BOOKING_SLOT_CAPACITY: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
  TRUST_PROXY: Type.String({ default: 'false' }),
  BODY_LIMIT_BYTES: Type.Union([Type.Integer({ minimum: 1024, maximum: 1048576 })], { default: 16384 }),
  /** Time a client has to send a whole request, and the longest silence on a connection; 0 turns both off. */
  REQUEST_TIMEOUT_SECONDS: Type.Union([Type.Integer({ minimum: 0, maximum: 3600 })], { default: 30 }),
  RATE_LIMIT_FORMS_MAX: Type.Union([Positive], { default: 10 }),
  RATE_LIMIT_QUOTE_MAX: Type.Union([Positive], { default: 60 }),
  RATE_LIMIT_LOGIN_MAX: Type.Union([Positive], { default: 5 }),
  RATE_LIMIT_WINDOW_SECONDS: Type.Union([Positive], { default: 60 }),
  RATE_LIMIT_BOOKINGS_PER_DAY: Type.Union([Positive], { default: 20 }),
  RATE_LIMIT_LOGIN_FAILURES_MAX: Type.Union([Positive], { default: 50 }),
  /** Wrong passwords one signed-in-before device may send per fifteen windows before it waits like any client; 0 turns the limit off. */
  RATE_LIMIT_LOGIN_DEVICE_FAILURES_MAX: Type.Union([Type.Integer({ minimum: 0 })], { default: 10 }),
  /** How long a device cookie (given at a successful sign-in) exempts its browser from the sign-in pause; 0 turns device cookies off. */
  LOGIN_DEVICE_DAYS: Type.Union([Type.Integer({ minimum: 0, maximum: 3650 })], { default: 365 }),
  /** Contact messages one client may send in a day (both doors together); 0 turns the budget off. */
  RATE_LIMIT_FORMS_PER_DAY: Type.Union([Type.Integer({ minimum: 0 })], { default: 30 }),
  BOOKING_MAX_ACTIVE_PER_EMAIL: Type.Union([Positive], { default: 3 }),
  /** Online bookings by new customers (no completed booking yet) across all clients per rolling hour; 0 turns the brake off. */
  ONLINE_NEW_BOOKINGS_PER_HOUR: Type.Union([Type.Integer({ minimum: 0 })], { default: 20 }),
  FORM_MIN_SECONDS: Type.Union([Type.Integer({ minimum: 0 })], { default: 3 }),
  /** `email`: a new customer's online booking holds its place only until they confirm it from the e-mail; `none`: no such step. */
  BOOKING_CONFIRMATION: Type.Union([Type.Literal('none'), Type.Literal('email')], { default: 'none' }),
  /** With BOOKING_CONFIRMATION=email, an unconfirmed booking lapses this many minutes after it was made (BOOKING_CONFIRMATION=none turns the step off). */
  CONFIRM_WITHIN_MINUTES: Type.Union([Type.Integer({ minimum: 1, maximum: 10_080 })], { default: 120 }),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  SESSION_IDLE_MINUTES: Type.Union([Positive], { default: 60 }),
  SESSION_MAX_HOURS: Type.Union([Positive], { default: 12 }),
  BUSINESS_NAME: Type.Union([NonEmpty], { default: DEFAULT_BUSINESS.name }),
  BUSINESS_PHONE: Type.Union([NonEmpty], { default: DEFAULT_BUSINESS.phone }),
  BUSINESS_PHONE_SECONDARY: Type.Union([NonEmpty], { default: DEFAULT_BUSINESS.phoneSecondary }),
  BUSINESS_EMAIL: Type.String({ pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', default: DEFAULT_BUSINESS.email }),
  BUSINESS_STREET: Type.Union([NonEmpty], { default: DEFAULT_BUSINESS.streetAddress }),
  BUSINESS_SUBURB: Type.Union([NonEmpty], { default: DEFAULT_BUSINESS.suburb }),
  BUSINESS_CITY: Type.Union([NonEmpty], { default: DEFAULT_BUSINESS.city }),
  BUSINESS_POSTCODE: Type.Union([NonEmpty], { default: DEFAULT_BUSINESS.postcode }),
  CHAT_URL: Type.Union([Url], { default: DEFAULT_BUSINESS.chatUrl }),
  FACEBOOK_URL: Type.Union([Url], { default: DEFAULT_BUSINESS.facebookUrl }),
  INSTAGRAM_URL: Type.Union([Url], { default: DEFAULT_BUSINESS.instagramUrl }),
  MAP_EMBED_URL: Type.Union([Url], { default: DEFAULT_BUSINESS.mapEmbedUrl }),
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://[^\\s]+$' })),
  MAIL_FROM: Type.Optional(Email),
  STAFF_EMAIL: Type.Optional(Email),
  REMINDER_HOURS_BEFORE: Type.Union([Positive], { default: 24 }),
  MANAGE_CUTOFF_HOURS: Type.Union([Type.Integer({ minimum: 0 })], { default: 24 }),
  /** Moves a customer may make to one booking on its manage page; 0 turns the cap off. */
  MANAGE_MAX_CHANGES: Type.Union([Type.Integer({ minimum: 0 })], { default: 3 }),
  /** Issue 43: the discount on every visit of a maintenance plan after its first; 0: none. */
  PLAN_DISCOUNT_PERCENT: Type.Union([Type.Integer({ minimum: 0, maximum: 50 })], { default: 0 }),
  /** How far ahead a plan's visits are booked (the daily extension keeps it so). */
  PLAN_HORIZON_WEEKS: Type.Union([Type.Integer({ minimum: 2, maximum: 52 })], { default: 12 }),
  /** The "keep it, move it or skip it" e-mail before each visit of a plan, this many days before; 0: none. */
  PLAN_CONFIRM_DAYS_BEFORE: Type.Union([Type.Integer({ minimum: 0, maximum: 14 })], { default: 3 }),
  /** Issue 43: open waitlist entries (waiting or offered) one e-mail address may hold; 0 turns the cap off. */
  WAITLIST_MAX_PER_EMAIL: Type.Union([Type.Integer({ minimum: 0 })], { default: 3 }),
  /** How long a place offered to a waitlist entry is held for the customer to confirm it. */
  WAITLIST_HOLD_MINUTES: Type.Union([Type.Integer({ minimum: 5, maximum: 1440 })], { default: 60 }),
  MAIL_POLL_MS: Type.Union([Type.Integer({ minimum: 10 })], { default: 3000 }),
  MAIL_MAX_ATTEMPTS: Type.Union([Positive], { default: 6 }),
  MAIL_RETRY_BASE_MS: Type.Union([Type.Integer({ minimum: 10 })], { default: 60_000 }),
  /** "Find my booking" e-mails one address may be sent in a rolling day (counted in the outbox); 0 turns the cap off. */
  FIND_BOOKING_PER_ADDRESS_PER_DAY: Type.Union([Type.Integer({ minimum: 0 })], { default: 3 }),
  /** "Find my booking" answers no sooner than this after the request, whatever the address; 0 turns the floor off. */
  FIND_BOOKING_ANSWER_MS: Type.Union([Type.Integer({ minimum: 0, maximum: 10_000 })], { default: 400 }),
  /** The business's GST number (NNN-NNN-NNN or 8-9 digits): receipts become numbered tax invoices. */
  GST_NUMBER: Type.Optional(Type.String({ pattern: GST_NUMBER_PATTERN.source })),
  /** Where customers leave a review: one request is e-mailed after each completed job. */
  REVIEW_URL: Type.Optional(Url),
  REVIEW_DELAY_HOURS: Type.Union([Type.Integer({ minimum: 0, maximum: 720 })], { default: 2 }),
  /** The longest range of the takings summary in days; 0 turns the limit off. */
  TAKINGS_MAX_DAYS: Type.Union([Type.Integer({ minimum: 0 })], { default: 366 }),
  /** Issue 44: the Xero account code the accounting export books sales to. */
  XERO_ACCOUNT_CODE: Type.Union([Type.String({ pattern: '^[A-Za-z0-9._-]{1,10}$' })], { default: '200' }),
  /** Issue 44: how often the webhook sender looks for due deliveries. */
  WEBHOOK_POLL_MS: Type.Union([Type.Integer({ minimum: 10 })], { default: 5000 }),
  /** Attempts at one webhook delivery before it is marked failed (the owner may resend it). */
  WEBHOOK_MAX_ATTEMPTS: Type.Union([Positive], { default: 8 }),
  /** The first retry's delay; each further one doubles it (at most six hours). */
  WEBHOOK_RETRY_BASE_MS: Type.Union([Type.Integer({ minimum: 10 })], { default: 60_000 }),
  /** An endpoint whose deliveries have failed for this many days is disabled and the owner e-mailed; 0 never disables one. */
  WEBHOOK_DISABLE_AFTER_DAYS: Type.Union([Type.Integer({ minimum: 0, maximum: 365 })], { default: 5 }),
  /** true lets webhooks go to loopback, private and other special-use addresses (tests, a receiver on the same network). */
  WEBHOOKS_ALLOW_PRIVATE: Type.Union([Type.Literal('true'), Type.Literal('false')], { default: 'false' }),
  /** Personal details of bookings finished, and of contact messages received, longer ago than this are erased; 0 keeps them. */
  RETENTION_MONTHS: Type.Union([Type.Integer({ minimum: 0, maximum: 1200 })], { default: 24 }),
  /** Sent e-mails' bodies (text, HTML, invitation) are emptied this many days after sending; 0 keeps them. */
  RETENTION_EMAIL_BODY_DAYS: Type.Union([Type.Integer({ minimum: 0, maximum: 36_500 })], { default: 90 }),
});
export type Env = Static<typeof EnvSchema>;

const SECRET_VARIABLES = new Set(['ADMIN_PASSWORD', 'ADMIN_PASSWORD_HASH', 'DATABASE_URL', 'REDIS_URL', 'SMTP_URL']);

export interface Config {
  nodeEnv: Env['NODE_ENV'];
  isProduction: boolean;
  port: number;
  host: string;
  logLevel: Env['LOG_LEVEL'];
  /** Which requests get an access line: every one, only answers with status 400 or above, or none. */
  logRequests: Env['LOG_REQUESTS'];
  /** Log lines gathered per write to standard output (written at least every second); 0: one write per line. */
  logBufferBytes: number;
  /** PostgreSQL server; when absent the embedded PGlite database in `dataDir` is used. */
  databaseUrl: string | undefined;
  /** Directory of the embedded database, or `memory://` for one that lives in memory only. */
  dataDir: string;
  db: { poolMax: number; connectTimeoutMs: number; preparedStatements: number; embeddedUpkeepMs: number };
  /**
   * Backups (issue 42): `dir` is BACKUP_DIR, else DATA_DIR/backups for an embedded database on
   * disk; undefined (a PostgreSQL server without BACKUP_DIR, or an in-memory database): no backups.
   * `everyMs`: BACKUP_EVERY_HOURS (0: no schedule); `keep`: BACKUP_KEEP (0: all kept).
   */
  backup: { dir: string | undefined; everyMs: number; keep: number };
  adminPassword: string | undefined;
  adminPasswordHash: string | undefined;
  dashboardAuth: Env['DASHBOARD_AUTH'];
  /**
   * The vans (on-site teams) and drop-off bays created on the first start (ONSITE_TEAMS,
   * DROPOFF_BAYS; BOOKING_SLOT_CAPACITY, the old name, seeds that many of each). Staff manage them
   * in the Schedule view after that.
   */
  resourceSeed: { onsite: number; dropoff: number };
  /** false, true (trust every peer: only when nothing but the proxy can reach the app), or addresses/CIDRs. */
  trustProxy: boolean | string;
  bodyLimit: number;
  /**
   * REQUEST_TIMEOUT_SECONDS in milliseconds: Fastify's requestTimeout (the whole request must
   * arrive within it, else 408) and connectionTimeout (a socket silent that long is closed), so
   * that a client sending a body byte by byte cannot hold a connection. 0: no limit (Fastify's default).
   */
  requestTimeoutMs: number;
  rateLimit: { formsMax: number; quoteMax: number; loginMax: number; windowMs: number; bookingsPerDay: number; loginFailuresMax: number; formsPerDay: number };
  /** Redis for the rate-limit counters, shared by every instance; in-process counters when absent. */
  redisUrl: string | undefined;
  /** Upcoming (pending or confirmed) bookings one e-mail address may hold at once. */
  maxActiveBookingsPerEmail: number;
  /** ONLINE_NEW_BOOKINGS_PER_HOUR: the hourly brake on new customers' online bookings (0: off). */
  onlineNewBookingsPerHour: number;
  /** The no-JavaScript forms refuse a post sooner than this after the form was served. */
  formMinMs: number;
  /**
   * BOOKING_CONFIRMATION=email (issue 23): a new customer's online booking awaits their
   * confirmation from the e-mail and lapses `withinMs` after it was made (CONFIRM_WITHIN_MINUTES;
   * BOOKING_CONFIRMATION=none, `required` false: today's behaviour, no such step).
   */
  emailConfirmation: { required: boolean; withinMs: number };
  session: { idleMs: number; maxAgeMs: number };
  /**
   * Device cookies (OWASP): a browser that signed in before is not held by the sign-in pause.
   * maxAgeMs: LOGIN_DEVICE_DAYS (0: no device cookies); failuresMax: its own wrong passwords per
   * fifteen windows before it is treated as unknown (RATE_LIMIT_LOGIN_DEVICE_FAILURES_MAX, 0: no limit).
   */
  loginDevice: { maxAgeMs: number; failuresMax: number };
  business: BusinessInfo;
  /** PUBLIC_URL's origin when it is configured: what a browser's Origin must be for a write. */
  publicOrigin: string | undefined;
  mail: MailConfig;
  /** The Terms' notice: customers may cancel or move a booking until this many hours before it. */
  manageCutoffHours: number;
  /** MANAGE_MAX_CHANGES: customer moves allowed per booking on its manage page; 0: no cap. */
  manageMaxChanges: number;
  /** Maintenance plans (issue 43): PLAN_DISCOUNT_PERCENT, PLAN_HORIZON_WEEKS, PLAN_CONFIRM_DAYS_BEFORE. */
  plans: PlanConfig;
  /** The waitlist (issue 43): WAITLIST_MAX_PER_EMAIL (0: no cap) and WAITLIST_HOLD_MINUTES. */
  waitlist: { maxPerEmail: number; holdMinutes: number };
  /**
   * "Find my booking" (/booking/find, POST /v1/find-booking): at most `perAddressPerDay` e-mails
   * to one address in 24 hours (0: no cap), and every answer sent no sooner than `answerMs` after
   * the request (0: at once), so that its timing tells nothing about the address.
   */
  findBooking: { perAddressPerDay: number; answerMs: number };
  /** Completing jobs (issue 21): GST_NUMBER, REVIEW_URL and REVIEW_DELAY_HOURS. */
  completion: CompletionConfig;
  /** TAKINGS_MAX_DAYS: the longest takings range; 0: no limit. */
  takingsMaxDays: number;
  /** XERO_ACCOUNT_CODE: the sales account of the accounting export's lines. */
  xeroAccountCode: string;
  /**
   * Privacy Act principle 9 (issue 22): RETENTION_MONTHS (0: kept) and RETENTION_EMAIL_BODY_DAYS
   * (0: kept), applied by the retention job (src/plugins/app/retention.ts).
   */
  retention: RetentionConfig;
  webhooks: WebhooksConfig;
}

export interface RetentionConfig {
  /** Bookings finished and contact messages received this many months ago lose their personal details. */
  months: number;
  /** Sent e-mails' bodies are emptied this many days after they were sent. */
  emailBodyDays: number;
}

/** Maintenance plans (issue 43). */
export interface PlanConfig {
  /** PLAN_DISCOUNT_PERCENT: off every visit after the first (0: none). */
  discountPercent: number;
  /** PLAN_HORIZON_WEEKS: how far ahead visits are booked. */
  horizonWeeks: number;
  /** PLAN_CONFIRM_DAYS_BEFORE: the "keep, move or skip" e-mail this many days before a visit (0: none). */
  confirmDaysBefore: number;
}

export interface CompletionConfig {
  /** Receipts are tax invoices with a number from the gapless sequence while this is set. */
  gstNumber: string | undefined;
  /** One review request per completed job is e-mailed when this is set. */
  reviewUrl: string | undefined;
  /** Hours after completion the review request is due (0: at once). */
  reviewDelayHours: number;
}

export interface WebhooksConfig {
  pollMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  /** 0: an endpoint is never disabled for failing. */
  disableAfterDays: number;
  /** WEBHOOKS_ALLOW_PRIVATE: loopback, private and special-use addresses allowed. */
  allowPrivate: boolean;
  /** Endpoints must be https (NODE_ENV=production). */
  httpsOnly: boolean;
}

export interface MailConfig {
  /** smtp(s)://user:pass@host:port; without it e-mails are composed and kept, never sent. */
  smtpUrl: string | undefined;
  /** The sender of every e-mail (MAIL_FROM, else the business's e-mail), named after the business. */
  from: { name: string; address: string };
  /** Where staff notifications go (STAFF_EMAIL, else the business's e-mail). */
  staffEmail: string;
  reminderHoursBefore: number;
  /** How often the sender looks for due e-mails. */
  pollMs: number;
  /** Attempts before an e-mail is marked failed. */
  maxAttempts: number;
  /** The first retry's delay; each further one doubles it (at most an hour). */
  retryBaseMs: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads and validates the configuration, or throws a ConfigError naming the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  const known: Record<string, string> = {};
  for (const key of Object.keys(EnvSchema.properties)) {
    const value = env[key];
    if (value !== undefined && value !== '') known[key] = value;
  }
  // Convert and Default change the object they are given (TypeBox 1.x), so they get a copy: `known`
  // stays what the environment said, for the messages below and for telling a PUBLIC_URL given from its default.
  const value = Value.Default(EnvSchema, Value.Convert(EnvSchema, { ...known })) as Env;
  const firstError = Value.Errors(EnvSchema, value)[0];
  if (firstError) {
    const variable = firstError.instancePath.split('/')[1] ?? 'environment';
    const shown = SECRET_VARIABLES.has(variable) ? '' : ` (got "${known[variable]}")`;
    throw new ConfigError(`Invalid configuration: ${variable} ${describe(firstError)}${shown}`);
  }
  const weakness = value.ADMIN_PASSWORD === undefined ? undefined : passwordProblem(value.ADMIN_PASSWORD);
  if (weakness) throw new ConfigError(`Invalid configuration: ADMIN_PASSWORD ${weakness}`);
  if (value.ADMIN_PASSWORD_HASH && !meetsOwaspMinimum(value.ADMIN_PASSWORD_HASH)) {
    throw new ConfigError(
      'Invalid configuration: ADMIN_PASSWORD_HASH uses weaker argon2id parameters than OWASP\'s minimum (m=19456,t=2,p=1); create one with npm run set-password',
    );
  }
  return fromEnv(value, known.PUBLIC_URL !== undefined);
}

function describe(error: { keyword: string; message: string }): string {
  return error.keyword === 'anyOf' || error.keyword === 'const' ? 'is not one of the allowed values' : error.message;
}

function parseTrustProxy(value: string): boolean | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  // Fastify 5 trusts no peer for a hop count (a client can write X-Forwarded-For itself, and a
  // count cannot tell it from a proxy), so a number would quietly give every visitor the
  // proxy's address and one shared rate limit. Say so instead.
  if (/^\d+$/.test(value)) {
    throw new ConfigError(
      'Invalid configuration: TRUST_PROXY must be true, false or the addresses/CIDRs of the proxies in front (e.g. 127.0.0.1 or uniquelocal), not a hop count',
    );
  }
  return value;
}

function fromEnv(env: Env, publicUrlGiven: boolean): Config {
  return {
    nodeEnv: env.NODE_ENV,
    isProduction: env.NODE_ENV === 'production',
    port: env.PORT,
    host: env.HOST,
    logLevel: env.LOG_LEVEL,
    logRequests: env.LOG_REQUESTS,
    logBufferBytes: env.LOG_BUFFER_BYTES,
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    db: {
      poolMax: env.DB_POOL_MAX,
      connectTimeoutMs: env.DB_CONNECT_TIMEOUT_MS,
      preparedStatements: env.DB_PREPARED_STATEMENTS,
      embeddedUpkeepMs: env.EMBEDDED_UPKEEP_SECONDS * 1000,
    },
    backup: {
      dir: env.BACKUP_DIR ?? (env.DATABASE_URL || env.DATA_DIR === 'memory://' ? undefined : path.join(env.DATA_DIR, 'backups')),
      everyMs: env.BACKUP_EVERY_HOURS * 3_600_000,
      keep: env.BACKUP_KEEP,
    },
    adminPassword: env.ADMIN_PASSWORD,
    adminPasswordHash: env.ADMIN_PASSWORD_HASH,
    dashboardAuth: env.DASHBOARD_AUTH,
    resourceSeed:
      env.BOOKING_SLOT_CAPACITY === undefined
        ? { onsite: env.ONSITE_TEAMS, dropoff: env.DROPOFF_BAYS }
        : { onsite: env.BOOKING_SLOT_CAPACITY, dropoff: env.BOOKING_SLOT_CAPACITY },
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    bodyLimit: env.BODY_LIMIT_BYTES,
    requestTimeoutMs: env.REQUEST_TIMEOUT_SECONDS * 1000,
    rateLimit: {
      formsMax: env.RATE_LIMIT_FORMS_MAX,
      quoteMax: env.RATE_LIMIT_QUOTE_MAX,
      loginMax: env.RATE_LIMIT_LOGIN_MAX,
      windowMs: env.RATE_LIMIT_WINDOW_SECONDS * 1000,
      bookingsPerDay: env.RATE_LIMIT_BOOKINGS_PER_DAY,
      loginFailuresMax: env.RATE_LIMIT_LOGIN_FAILURES_MAX,
      formsPerDay: env.RATE_LIMIT_FORMS_PER_DAY,
    },
    redisUrl: env.REDIS_URL,
    maxActiveBookingsPerEmail: env.BOOKING_MAX_ACTIVE_PER_EMAIL,
    onlineNewBookingsPerHour: env.ONLINE_NEW_BOOKINGS_PER_HOUR,
    formMinMs: env.FORM_MIN_SECONDS * 1000,
    emailConfirmation: { required: env.BOOKING_CONFIRMATION === 'email', withinMs: env.CONFIRM_WITHIN_MINUTES * 60_000 },
    session: { idleMs: env.SESSION_IDLE_MINUTES * 60_000, maxAgeMs: env.SESSION_MAX_HOURS * 3_600_000 },
    loginDevice: { maxAgeMs: env.LOGIN_DEVICE_DAYS * 86_400_000, failuresMax: env.RATE_LIMIT_LOGIN_DEVICE_FAILURES_MAX },
    business: {
      name: env.BUSINESS_NAME,
      phone: env.BUSINESS_PHONE,
      phoneSecondary: env.BUSINESS_PHONE_SECONDARY,
      email: env.BUSINESS_EMAIL,
      streetAddress: env.BUSINESS_STREET,
      suburb: env.BUSINESS_SUBURB,
      city: env.BUSINESS_CITY,
      postcode: env.BUSINESS_POSTCODE,
      chatUrl: env.CHAT_URL,
      facebookUrl: env.FACEBOOK_URL,
      instagramUrl: env.INSTAGRAM_URL,
      mapEmbedUrl: env.MAP_EMBED_URL,
      // Without PUBLIC_URL, links and the start-up line name the port the server listens on.
      publicUrl: publicUrlGiven ? env.PUBLIC_URL.replace(/\/+$/, '') : `http://localhost:${env.PORT}`,
    },
    publicOrigin: publicUrlGiven ? new URL(env.PUBLIC_URL).origin : undefined,
    mail: {
      smtpUrl: env.SMTP_URL,
      from: { name: env.BUSINESS_NAME, address: env.MAIL_FROM ?? env.BUSINESS_EMAIL },
      staffEmail: env.STAFF_EMAIL ?? env.BUSINESS_EMAIL,
      reminderHoursBefore: env.REMINDER_HOURS_BEFORE,
      pollMs: env.MAIL_POLL_MS,
      maxAttempts: env.MAIL_MAX_ATTEMPTS,
      retryBaseMs: env.MAIL_RETRY_BASE_MS,
    },
    manageCutoffHours: env.MANAGE_CUTOFF_HOURS,
    manageMaxChanges: env.MANAGE_MAX_CHANGES,
    plans: { discountPercent: env.PLAN_DISCOUNT_PERCENT, horizonWeeks: env.PLAN_HORIZON_WEEKS, confirmDaysBefore: env.PLAN_CONFIRM_DAYS_BEFORE },
    waitlist: { maxPerEmail: env.WAITLIST_MAX_PER_EMAIL, holdMinutes: env.WAITLIST_HOLD_MINUTES },
    findBooking: { perAddressPerDay: env.FIND_BOOKING_PER_ADDRESS_PER_DAY, answerMs: env.FIND_BOOKING_ANSWER_MS },
    completion: { gstNumber: env.GST_NUMBER, reviewUrl: env.REVIEW_URL, reviewDelayHours: env.REVIEW_DELAY_HOURS },
    takingsMaxDays: env.TAKINGS_MAX_DAYS,
    xeroAccountCode: env.XERO_ACCOUNT_CODE,
    retention: { months: env.RETENTION_MONTHS, emailBodyDays: env.RETENTION_EMAIL_BODY_DAYS },
    webhooks: {
      pollMs: env.WEBHOOK_POLL_MS,
      maxAttempts: env.WEBHOOK_MAX_ATTEMPTS,
      retryBaseMs: env.WEBHOOK_RETRY_BASE_MS,
      disableAfterDays: env.WEBHOOK_DISABLE_AFTER_DAYS,
      allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE === 'true',
      httpsOnly: env.NODE_ENV === 'production',
    },
  };
}
