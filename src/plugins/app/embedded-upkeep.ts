/**
 * Autovacuum for the embedded database (src/db/upkeep.repository.ts): every
 * EMBEDDED_UPKEEP_SECONDS (60 s by default, autovacuum's own naptime; 0 turns it off) the tables
 * autovacuum would have vacuumed or analysed are, one at a time. On a PostgreSQL server its own
 * autovacuum does this, and the timer never starts.
 */
import fp from 'fastify-plugin';
import { tablesDueForUpkeep, upkeepTable, type TableUpkeep } from '../../db/upkeep.repository.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Vacuums and analyses the embedded database's tables that are due now: which, or null on a PostgreSQL server. */
    upkeepEmbeddedDatabase(): Promise<TableUpkeep[] | null>;
  }
}

export default fp(
  async (app) => {
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<TableUpkeep[]> | undefined;
    const upkeep = async (): Promise<TableUpkeep[]> => {
      const due = await tablesDueForUpkeep(app.db);
      for (const table of due) await upkeepTable(app.db, table);
      if (due.length > 0) app.log.debug({ tables: due }, 'embedded database vacuumed and analysed');
      return due;
    };
    // One pass at a time: a pass still running when the timer fires again is not started twice.
    const once = () => (running ??= upkeep().finally(() => (running = undefined)));
    app.decorate('upkeepEmbeddedDatabase', async () => (app.database.kind === 'pglite' ? once() : null));
    app.addHook('onReady', async () => {
      const { embeddedUpkeepMs } = app.config.db;
      if (app.database.kind !== 'pglite' || embeddedUpkeepMs === 0) return;
      timer = setInterval(() => {
        if (!app.database.ready) return;
        once().catch((err: Error) => app.log.warn({ err: { message: err.message } }, 'could not vacuum the embedded database'));
      }, embeddedUpkeepMs).unref();
    });
    app.addHook('onClose', async () => {
      clearInterval(timer);
      // A pass in flight finishes before the database closes (its failure was logged, or is the caller's).
      await running?.catch(() => {});
    });
  },
  { name: 'embedded-upkeep', dependencies: ['database', 'config'] },
);
