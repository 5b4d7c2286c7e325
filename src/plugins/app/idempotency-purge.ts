/**
 * Deletes expired idempotency keys once an hour. Lookups already ignore them, so this only keeps
 * the table small: one range scan of its created_at index, never a scan per request. With
 * several instances each purges; the deletes are cheap and harmless to repeat.
 */
import fp from 'fastify-plugin';
import { purgeExpiredKeys } from '../../services/idempotency.service.ts';

const PURGE_INTERVAL_MS = 60 * 60 * 1000;

export default fp(
  async (app) => {
    let timer: NodeJS.Timeout | undefined;
    const purge = async () => {
      if (!app.database.ready) return;
      try {
        const deleted = await purgeExpiredKeys(app.db);
        if (deleted > 0) app.log.info({ deleted }, 'expired idempotency keys deleted');
      } catch (err) {
        app.log.warn({ err: { message: (err as Error).message } }, 'could not delete expired idempotency keys');
      }
    };
    app.addHook('onReady', async () => {
      timer = setInterval(purge, PURGE_INTERVAL_MS).unref();
    });
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'idempotency-purge', dependencies: ['database'] },
);
