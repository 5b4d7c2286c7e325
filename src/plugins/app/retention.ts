/**
 * The retention job (issue 22, Privacy Act principle 9): once an hour in the cluster, personal
 * details older than RETENTION_MONTHS are erased and sent e-mails' bodies older than
 * RETENTION_EMAIL_BODY_DAYS emptied (src/services/privacy.service.ts). Every instance's timer
 * asks; an advisory lock and the last run's time, kept in settings, let one of them do it.
 */
import fp from 'fastify-plugin';
import { applyRetention, type RetentionRun } from '../../services/privacy.service.ts';

const RETENTION_INTERVAL_MS = 60 * 60 * 1000;

declare module 'fastify' {
  interface FastifyInstance {
    /** Runs the retention job now, by the app's clock (whenever it last ran): what it did, or null when it is off or running elsewhere. */
    applyRetention(): Promise<RetentionRun | null>;
  }
}

export default fp(
  async (app) => {
    let timer: NodeJS.Timeout | undefined;
    const { retention } = app.config;
    const run = async (minIntervalMs: number) => {
      const result = await applyRetention(app.db, retention, app.now(), minIntervalMs);
      if (result && (result.erased || result.bodiesEmptied > 0)) app.log.info({ erased: result.erased, bodiesEmptied: result.bodiesEmptied }, 'retention applied');
      return result;
    };
    app.decorate('applyRetention', () => run(0));
    app.addHook('onReady', async () => {
      if (retention.months === 0 && retention.emailBodyDays === 0) return;
      timer = setInterval(() => {
        if (!app.database.ready) return;
        // A little under the interval, so a timer that fires a moment early still runs.
        run(RETENTION_INTERVAL_MS - 60_000).catch((err: Error) => app.log.warn({ err: { message: err.message } }, 'could not apply retention'));
      }, RETENTION_INTERVAL_MS).unref();
    });
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'retention', dependencies: ['database', 'config'] },
);
