/**
 * Bot checks of the no-JavaScript forms (contact, and the booking wizard's last step): a filled
 * honeypot field, or a post sooner than FORM_MIN_SECONDS after the form was served, is refused
 * with a message a person understands, and the form comes back with their values.
 *
 * When was the form served? The form pages are cached and shared by every visitor, so a time
 * written into the HTML would be the time the cached copy was rendered, not the visitor's. The
 * time travels instead in a cookie set by each GET of a form page (a header, so the cached body
 * and its ETag stay the same, and /contact is sent precompressed from the lean path): the time
 * (the real clock, not the business clock tests pin), a random token of this page view, and an
 * HMAC of both under a key kept in the database, so that a client can neither backdate it nor
 * make up a token, and every instance accepts the others' cookies. The token is the no-JavaScript
 * contact form's submission key (the same form posted twice stores one message): each view of
 * the form has its own, without a token in the shared HTML.
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
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
      /** The Set-Cookie header of a form served now, with a new token (undefined before the key is loaded). */
      cookie(): string | undefined;
      /** The token of the visitor's form cookie, when the cookie is ours and not expired. */
      tokenOf(request: FastifyRequest): string | undefined;
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

    // Every GET of a form page sends the cookie, with a token of its own: a random 128-bit value
    // (randomUUID's pooled entropy) and one HMAC, a few microseconds. The time is rounded up to
    // the step's end: a visitor is never credited with time they did not have.
    let options: { step: number; attributes: string } | undefined;
    function cookie(): string | undefined {
      if (!key) return undefined;
      const step = Math.ceil(Date.now() / STEP_MS);
      if (options?.step !== step) {
        // The attributes and their expiry date are serialized once per step; the value per answer.
        const attributes = app.serializeCookie(COOKIE, '', { path: '/', httpOnly: true, sameSite: 'lax', secure: config.isProduction, maxAge: MAX_AGE_SECONDS });
        options = { step, attributes: attributes.slice(COOKIE.length + 1) };
      }
      const value = `${step * STEP_MS}.${randomUUID().replaceAll('-', '')}`;
      return `${COOKIE}=${value}.${sign(value)}${options.attributes}`;
    }

    function issue(reply: FastifyReply): void {
      const header = cookie();
      if (header) reply.header('set-cookie', header);
    }

    /**
     * The visitor's cookie, if it is ours and not expired: when their form was served, and its
     * token. A cookie of the form before tokens (`time.mac`, made up to a day before an upgrade)
     * still counts, without a token.
     */
    function served(request: FastifyRequest): { at: number; token: string | undefined } | undefined {
      const parts = (app.cookieOf(request, COOKIE) ?? '').split('.');
      const [time = '', token, mac = ''] = parts.length === 2 ? [parts[0], undefined, parts[1]] : parts;
      if (!key || parts.length > 3 || !/^\d{1,15}$/.test(time) || (token !== undefined && !/^[0-9a-f]{32}$/.test(token))) return undefined;
      const expected = Buffer.from(sign(token === undefined ? time : `${time}.${token}`));
      const given = Buffer.from(mac);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      const at = Number(time);
      return Date.now() - at > MAX_AGE_SECONDS * 1000 ? undefined : { at, token };
    }

    function check(request: FastifyRequest, reply: FastifyReply, honeypot: string | undefined): void {
      if (honeypot) throw notAPerson(MESSAGES.honeypotFilled);
      if (config.formMinMs === 0) return;
      const form = served(request);
      if (form === undefined) {
        issue(reply);
        throw notAPerson(MESSAGES.formExpired);
      }
      if (Date.now() - form.at < config.formMinMs) throw notAPerson(MESSAGES.submittedTooFast);
    }

    app.decorate('formGuard', { issue, cookie, tokenOf: (request: FastifyRequest) => served(request)?.token, check });
  },
  { name: 'form-guard', dependencies: ['config', 'database', 'cookie'] },
);
