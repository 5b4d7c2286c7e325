/**
 * Bot checks of the no-JavaScript forms (contact, and the booking wizard's last step): a filled
 * honeypot field, or a post sooner than FORM_MIN_SECONDS after the form was served, is refused
 * with a message a person understands, and the form comes back with their values.
 *
 * When was the form served? The form pages are cached and shared by every visitor, so a time
 * written into the HTML would be the time the cached copy was rendered, not the visitor's. The
 * time travels instead in a cookie set by each GET of a form page (a header, so the cached body
 * and its ETag stay the same): the time (the real clock, not the business clock tests pin) and an HMAC of it under a key kept in the database, so
 * that a client cannot backdate it and every instance accepts the others' cookies.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { getSetting, insertSettingIfAbsent } from '../../db/settings.repository.ts';
import { MESSAGES } from '../../domain/messages.ts';
import { AppError } from '../../errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    formGuard: {
      /** Records on the visitor's side that a form is being served now. */
      issue(reply: FastifyReply): void;
      /** Throws a 400 whose message tells the visitor what to do, unless the post looks like a person's. */
      check(request: FastifyRequest, reply: FastifyReply, honeypot: string | undefined): void;
    };
  }
}

const COOKIE = 'form_started';
const KEY_SETTING = 'form_token_key';
const MAX_AGE_SECONDS = 86_400;
/** The served time's resolution. */
const STEP_MS = 100;

const notAPerson = (message: string) => new AppError(400, 'FORM_REFUSED', message);

export default fp(
  async (app) => {
    const { config } = app;
    let key: Buffer | undefined;
    app.database.addStartupTask('form key', async (db) => {
      await insertSettingIfAbsent(db, KEY_SETTING, randomBytes(32).toString('base64url'));
      key = Buffer.from((await getSetting(db, KEY_SETTING))!, 'base64url');
    });

    const sign = (time: string) => createHmac('sha256', key!).update(time).digest('base64url');

    // Every GET of a form page sends the cookie, so its header is made once per STEP_MS and
    // shared by the answers in that step, not signed and serialized per request. The time is
    // rounded up to the step's end: a visitor is never credited with time they did not have.
    let issued: { step: number; header: string } | undefined;
    function issue(reply: FastifyReply): void {
      if (!key) return;
      const step = Math.ceil(Date.now() / STEP_MS);
      if (issued?.step !== step) {
        const time = String(step * STEP_MS);
        issued = {
          step,
          header: app.serializeCookie(COOKIE, `${time}.${sign(time)}`, {
            path: '/',
            httpOnly: true,
            sameSite: 'lax',
            secure: config.isProduction,
            maxAge: MAX_AGE_SECONDS,
          }),
        };
      }
      reply.header('set-cookie', issued.header);
    }

    /** When the visitor's form was served, if their cookie is ours and not expired. */
    function servedAt(request: FastifyRequest): number | undefined {
      const [time = '', mac = ''] = (app.cookieOf(request, COOKIE) ?? '').split('.');
      if (!key || !/^\d{1,15}$/.test(time)) return undefined;
      const expected = Buffer.from(sign(time));
      const given = Buffer.from(mac);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      const served = Number(time);
      return Date.now() - served > MAX_AGE_SECONDS * 1000 ? undefined : served;
    }

    function check(request: FastifyRequest, reply: FastifyReply, honeypot: string | undefined): void {
      if (honeypot) throw notAPerson(MESSAGES.honeypotFilled);
      if (config.formMinMs === 0) return;
      const served = servedAt(request);
      if (served === undefined) {
        issue(reply);
        throw notAPerson(MESSAGES.formExpired);
      }
      if (Date.now() - served < config.formMinMs) throw notAPerson(MESSAGES.submittedTooFast);
    }

    app.decorate('formGuard', { issue, check });
  },
  { name: 'form-guard', dependencies: ['config', 'database', 'cookie'] },
);
