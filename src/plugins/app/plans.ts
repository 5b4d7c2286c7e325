/**
 * Maintenance plans (issue 43): once an hour (and once at start), every active plan whose visits
 * are not booked up to PLAN_HORIZON_WEEKS ahead books the next ones (src/services/plans.service.ts).
 * The question is one index probe, so most passes do nothing; as each day passes, the horizon moves
 * a day and the plans due then book their next visit. With several instances each runs it: a
 * plan's row lock and its visits' primary key book every visit once.
 */
import fp from 'fastify-plugin';
import { extendDuePlans, type PlanOptions } from '../../services/plans.service.ts';

const EXTEND_INTERVAL_MS = 60 * 60_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** What the plans' services are given: the app's clock, mail context and settings. */
    planOptions(): PlanOptions;
    /** Extends the plans due by the app's clock now: how many. */
    extendPlans(): Promise<number>;
  }
}

export default fp(
  async (app) => {
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<number> | undefined;
    app.decorate('planOptions', (): PlanOptions => ({ now: app.now(), mail: app.mail, plans: app.config.plans, cutoffHours: app.config.manageCutoffHours }));
    // One pass at a time in this instance.
    const once = () => (running ??= extendDuePlans(app.db, app.planOptions()).finally(() => (running = undefined)));
    app.decorate('extendPlans', once);
    const pass = () => {
      if (!app.database.ready) return;
      once().catch((err: Error) => app.log.warn({ err: { message: err.message } }, 'could not extend the regular plans'));
    };
    app.addHook('onReady', async () => {
      timer = setInterval(pass, EXTEND_INTERVAL_MS).unref();
      setImmediate(pass);
    });
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await running?.catch(() => {});
    });
  },
  { name: 'plans', dependencies: ['database', 'config', 'mailer'] },
);
