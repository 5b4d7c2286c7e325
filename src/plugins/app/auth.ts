/**
 * Staff authentication: resolves the admin password hash once the database is reachable,
 * issues and checks session cookies, and provides the one guard (`app.requireStaff`) that the
 * staff route tree installs as a hook.
 */
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { checkSession, endSession, resolveAdminPassword, startSession, verifyPassword } from '../../services/auth.service.ts';
import { unauthorized } from '../../errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    staffAuth: {
      cookieName: string;
      /** A new session id when the password is right, otherwise undefined. */
      login(password: string, staffName?: string): Promise<string | undefined>;
      logout(request: FastifyRequest, reply: FastifyReply): Promise<void>;
      setSessionCookie(reply: FastifyReply, sessionId: string): void;
      isSignedIn(request: FastifyRequest): Promise<boolean>;
    };
    requireStaff(request: FastifyRequest): Promise<void>;
  }
  interface FastifyRequest {
    /** The signed-in staff member, set by requireStaff on the staff route tree. */
    staff: { name: string } | null;
  }
}

/** The `__Host-` prefix makes browsers refuse the cookie unless it is Secure, host-only and Path=/. */
export function sessionCookieName(isProduction: boolean): string {
  return isProduction ? '__Host-session' : 'session';
}

export default fp(
  async (app) => {
    const { config } = app;
    const cookieName = sessionCookieName(config.isProduction);
    const policy = config.session;
    let adminHash: string | undefined;

    app.database.addStartupTask('admin password', async (db) => {
      const resolved = await resolveAdminPassword(db, {
        adminPasswordHash: config.adminPasswordHash,
        adminPassword: config.adminPassword,
      });
      adminHash = resolved.hash;
      if (resolved.generatedPassword) {
        // Printed once, outside the JSON log, so that it is seen and never kept in log storage.
        process.stdout.write(
          `\n  No admin password was configured, so one was generated for the staff dashboard:\n\n      ${resolved.generatedPassword}\n\n  It is shown only this once. Change it with: npm run set-password\n\n`,
        );
      }
      app.log.info({ source: resolved.origin }, 'admin password ready');
    });

    function sessionIdOf(request: FastifyRequest): string | undefined {
      const value = request.cookies[cookieName];
      return typeof value === 'string' && value.length > 0 ? value : undefined;
    }

    async function sessionOf(request: FastifyRequest) {
      const id = sessionIdOf(request);
      return id === undefined ? undefined : checkSession(app.db, id, policy);
    }

    async function isSignedIn(request: FastifyRequest): Promise<boolean> {
      return (await sessionOf(request)) !== undefined;
    }

    app.decorate('staffAuth', {
      cookieName,
      async login(password: string, staffName?: string) {
        app.database.assertReady();
        if (!adminHash || !(await verifyPassword(adminHash, password))) return undefined;
        return startSession(app.db, policy, staffName?.trim() || 'Staff');
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
      },
      isSignedIn,
    });

    app.decorateRequest('staff', null);
    app.decorate('requireStaff', async (request: FastifyRequest) => {
      app.database.assertReady();
      const session = await sessionOf(request);
      if (!session) throw unauthorized();
      request.staff = { name: session.staff_name };
    });
  },
  { name: 'auth', dependencies: ['config', 'database'] },
);
