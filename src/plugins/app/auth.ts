/**
 * Staff authentication: resolves the admin password hash once the database is reachable,
 * issues and checks session cookies, and provides the one guard (`app.requireStaff`) that the
 * staff route tree installs as a hook.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { checkSession, endSession, hashPassword, hashSessionId, passwordFingerprint, resolveAdminPassword, startSession, verifyPassword } from '../../services/auth.service.ts';
import { findMemberForSignIn } from '../../db/staff-members.repository.ts';
import { deviceKey, issueDeviceToken, verifyDeviceToken } from '../../services/device-cookie.ts';
import { forbidden, unauthorized } from '../../errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    staffAuth: {
      cookieName: string;
      /**
       * A new session id when the password is right, otherwise undefined. Refused (429) while
       * the sign-in attempts from every address together have failed too often, unless the
       * client carries a valid device cookie that has not itself sent too many wrong passwords.
       */
      login(request: FastifyRequest, credentials: SignInCredentials): Promise<string | undefined>;
      logout(request: FastifyRequest, reply: FastifyReply): Promise<void>;
      /** Sets the session cookie, and a new device cookie (when they are on) for both sign-in doors. */
      setSessionCookie(reply: FastifyReply, sessionId: string): void;
      isSignedIn(request: FastifyRequest): Promise<boolean>;
      /** Who the request's session belongs to, or undefined without a live session. */
      signedInStaff(request: FastifyRequest): Promise<SignedInStaff | undefined>;
      /** The SHA-256 of the request's session id (the session a password change keeps). */
      sessionIdHash(request: FastifyRequest): string | undefined;
    };
    requireStaff(request: FastifyRequest): Promise<void>;
    /**
     * For owner-only actions (accounts, a customer's export, correction and erasure), after
     * requireStaff: 403 unless the signed-in member is the owner.
     */
    requireOwner(request: FastifyRequest): Promise<void>;
  }
  interface FastifyRequest {
    /** The signed-in staff member, set by requireStaff on the staff route tree. */
    staff: SignedInStaff | null;
  }
}

export type StaffRole = 'owner' | 'staff';

/**
 * What a sign-in sends: a member's e-mail and password, or the owner's configured password alone
 * (with the name to show in histories, optional).
 */
export interface SignInCredentials {
  password: string;
  email?: string;
  name?: string;
}

export interface SignedInStaff {
  name: string;
  /** The staff account, or null for the owner signed in with the configured password. */
  memberId: string | null;
  role: StaffRole;
}

/**
 * How to run set-password where this server runs: through npm when npm started it, otherwise
 * (the Docker image, `node dist/server/server.js`) the built script beside this one.
 */
export function setPasswordCommand(env: NodeJS.ProcessEnv = process.env, moduleUrl = import.meta.url): string {
  const built = path.join(path.dirname(fileURLToPath(moduleUrl)), 'set-password.js');
  if (env.npm_lifecycle_event === undefined && existsSync(built)) return `node ${path.relative(process.cwd(), built) || built}`;
  return 'npm run set-password';
}

/** The `__Host-` prefix makes browsers refuse the cookie unless it is Secure, host-only and Path=/. */
export function sessionCookieName(isProduction: boolean): string {
  return isProduction ? '__Host-session' : 'session';
}

/**
 * The device cookie's name: `__Secure-` makes browsers refuse it unless it is Secure. (`__Host-`
 * would need Path=/, and this cookie goes only to the sign-in doors.)
 */
export function deviceCookieName(secure: boolean): string {
  return secure ? '__Secure-staff_device' : 'staff_device';
}

/** Where a browser sends the device cookie: the two sign-in doors, nowhere else. */
export const DEVICE_COOKIE_PATHS = ['/v1/auth/login', '/dashboard/login'] as const;

export default fp(
  async (app) => {
    const { config } = app;
    const cookieName = sessionCookieName(config.isProduction);
    const policy = config.session;
    let adminHash: string | undefined;
    let fingerprint = '';
    const device = config.loginDevice;
    const deviceSecure = config.isProduction || config.business.publicUrl.startsWith('https:');
    const deviceCookie = deviceCookieName(deviceSecure);
    let deviceSigningKey: Buffer | undefined;

    app.database.addStartupTask('admin password', async (db) => {
      const resolved = await resolveAdminPassword(db, {
        adminPasswordHash: config.adminPasswordHash,
        adminPassword: config.adminPassword,
      });
      adminHash = resolved.hash;
      fingerprint = passwordFingerprint(resolved.hash);
      if (resolved.generatedPassword) {
        // Printed once, outside the JSON log, so that it is seen and never kept in log storage.
        process.stdout.write(
          `\n  No admin password was configured, so one was generated for the staff dashboard:\n\n      ${resolved.generatedPassword}\n\n  It is shown only this once. Change it with: ${setPasswordCommand()}\n\n`,
        );
      }
      app.log.info({ source: resolved.origin }, 'admin password ready');
    });
    // Checked when no account has the address given, so that an unknown address takes as long to
    // refuse as a wrong password: a hash made with the members' parameters, begun at the first
    // sign-in with an e-mail (not at start, which would cost every start an argon2 hash); until it
    // is ready the owner's hash stands in.
    let dummyHash: string | undefined;
    let dummyHashStarted = false;
    function startDummyHash(): void {
      if (dummyHashStarted) return;
      dummyHashStarted = true;
      hashPassword(randomBytes(18).toString('base64url')).then(
        (hash) => (dummyHash = hash),
        () => (dummyHashStarted = false),
      );
    }
    if (device.maxAgeMs > 0) {
      app.database.addStartupTask('device cookie key', async (db) => {
        deviceSigningKey = await deviceKey(db);
      });
    }

    /** The device id of the request's device cookie when it is one this server issued and still honours. */
    function deviceIdOf(request: FastifyRequest): string | undefined {
      if (!deviceSigningKey) return undefined;
      return verifyDeviceToken(deviceSigningKey, app.cookieOf(request, deviceCookie), device.maxAgeMs);
    }

    function setDeviceCookie(reply: FastifyReply): void {
      if (!deviceSigningKey) return;
      // A new id and time at each sign-in (OWASP): the cookie stays valid a year after the last one.
      const { value } = issueDeviceToken(deviceSigningKey);
      for (const path of DEVICE_COOKIE_PATHS) {
        reply.setCookie(deviceCookie, value, { path, httpOnly: true, sameSite: 'strict', secure: deviceSecure, maxAge: Math.floor(device.maxAgeMs / 1000) });
      }
    }

    function sessionIdOf(request: FastifyRequest): string | undefined {
      const value = app.cookieOf(request, cookieName);
      return typeof value === 'string' && value.length > 0 ? value : undefined;
    }

    async function sessionOf(request: FastifyRequest) {
      const id = sessionIdOf(request);
      return id === undefined || !adminHash ? undefined : checkSession(app.db, id, policy, fingerprint);
    }

    /** The member's session id, or undefined when the address or password is wrong (in the same time either way). */
    async function memberSignIn(email: string, password: string): Promise<string | undefined> {
      const member = await findMemberForSignIn(app.db, email);
      const hash = member?.password_hash ?? dummyHash ?? adminHash;
      const right = hash !== undefined && (await verifyPassword(hash, password));
      if (!member?.password_hash || !right) return undefined;
      return startSession(app.db, policy, passwordFingerprint(member.password_hash), member.name, new Date(), member.id);
    }

    async function isSignedIn(request: FastifyRequest): Promise<boolean> {
      return (await sessionOf(request)) !== undefined;
    }

    app.decorate('staffAuth', {
      cookieName,
      async login(request: FastifyRequest, { password, email, name }: SignInCredentials) {
        app.database.assertReady();
        const trustedDevice = await app.limits.failedSignIns.assertOpen(request, deviceIdOf(request));
        const trimmedEmail = email?.trim();
        let sessionId: string | undefined;
        if (trimmedEmail) {
          startDummyHash();
          sessionId = await memberSignIn(trimmedEmail, password);
        }
        else if (adminHash && (await verifyPassword(adminHash, password))) sessionId = await startSession(app.db, policy, fingerprint, name?.trim() || 'Staff');
        if (!sessionId) await app.limits.failedSignIns.record(request, trustedDevice);
        return sessionId;
      },
      async logout(request: FastifyRequest, reply: FastifyReply) {
        const id = sessionIdOf(request);
        if (id) await endSession(app.db, id);
        reply.clearCookie(cookieName, { path: '/', secure: config.isProduction, httpOnly: true, sameSite: 'strict' });
      },
      setSessionCookie(reply: FastifyReply, sessionId: string) {
        reply.setCookie(cookieName, sessionId, {
          path: '/',
          httpOnly: true,
          sameSite: 'strict',
          secure: config.isProduction,
          maxAge: Math.floor(policy.maxAgeMs / 1000),
        });
        setDeviceCookie(reply);
      },
      isSignedIn,
      signedInStaff: sessionOf,
      sessionIdHash(request: FastifyRequest) {
        const id = sessionIdOf(request);
        return id === undefined ? undefined : hashSessionId(id);
      },
    });

    app.decorateRequest('staff', null);
    app.decorate('requireStaff', async (request: FastifyRequest) => {
      app.database.assertReady();
      const session = await sessionOf(request);
      if (!session) throw unauthorized();
      request.staff = session;
    });
    app.decorate('requireOwner', async (request: FastifyRequest) => {
      if (request.staff?.role !== 'owner') throw forbidden();
    });
  },
  { name: 'auth', dependencies: ['config', 'database', 'rate-limit', 'cookie'] },
);
