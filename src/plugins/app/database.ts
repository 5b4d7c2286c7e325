/**
 * The database connection and its readiness. Start-up work that needs the database (migrations,
 * then whatever other plugins add) runs once at start; when the database is unreachable the
 * server starts anyway, answers 503 on what needs the database, and keeps retrying in the
 * background until the work is done.
 */
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { openDatabase, type DatabaseHandle } from '../../db/connect.ts';
import { migrateToLatest } from '../../db/migrator.ts';
import { seedResources } from '../../services/resources.service.ts';
import { databaseUnavailable, isConnectionError } from '../../errors.ts';

type StartupTask = (db: Kysely<Database>) => Promise<void>;

export interface DatabaseState {
  kind: DatabaseHandle['kind'];
  /** True once migrations and every start-up task have run. */
  readonly ready: boolean;
  /** Registers work to run once the database is reachable, after the migrations. */
  addStartupTask(name: string, task: StartupTask): void;
  /** Answers whether the database answers a trivial query within the connect timeout. */
  ping(): Promise<boolean>;
  /** Throws the 503 error unless the database is ready. */
  assertReady(): void;
  /** An embedded database on disk: copies its files as they are at one moment (src/db/connect.ts). */
  copyFiles?(target: string): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    database: DatabaseState;
  }
}

const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 5_000;

export default fp(
  async (app, options: { pgliteSnapshot?: Blob }) => {
    const { config } = app;
    const handle = await openDatabase(
      {
        databaseUrl: config.databaseUrl,
        dataDir: config.dataDir,
        poolMax: config.db.poolMax,
        connectTimeoutMs: config.db.connectTimeoutMs,
        preparedStatements: config.db.preparedStatements,
        pgliteSnapshot: options.pgliteSnapshot,
      },
      app.log,
    );
    const tasks: { name: string; run: StartupTask }[] = [
      { name: 'migrations', run: async (db) => void app.log.info({ applied: await migrateToLatest(db) }, 'migrations up to date') },
      // Completes the scheduling migration on the first start: the configured vans and bays, and
      // a place for every booking taken before them.
      {
        name: 'resources',
        run: async (db) => {
          const seeded = await seedResources(db, config.resourceSeed);
          if (seeded.created + seeded.placed + seeded.unplaced > 0) app.log.info(seeded, 'vans and bays ready');
          if (seeded.unplaced > 0) app.log.warn({ unplaced: seeded.unplaced }, 'bookings overlapping under the old hourly rule need a van or bay: see the dashboard');
        },
      },
    ];
    let ready = false;
    let closing = false;
    let retryTimer: NodeJS.Timeout | undefined;
    let retryDelay = RETRY_MIN_MS;

    async function runStartupTasks(): Promise<void> {
      while (tasks.length > 0) {
        const task = tasks[0]!;
        await task.run(handle.db);
        tasks.shift();
      }
      ready = true;
    }

    function scheduleRetry(): void {
      if (closing) return;
      retryTimer = setTimeout(() => {
        runStartupTasks().then(
          () => app.log.info('database reachable again; start-up work done'),
          (err) => {
            app.log.warn({ err: { message: err.message, code: err.code } }, 'database still unreachable');
            retryDelay = Math.min(retryDelay * 2, RETRY_MAX_MS);
            scheduleRetry();
          },
        );
      }, retryDelay);
      retryTimer.unref();
    }

    const state: DatabaseState = {
      kind: handle.kind,
      get ready() {
        return ready;
      },
      addStartupTask(name, run) {
        tasks.push({ name, run });
      },
      async ping() {
        try {
          await sql`select 1`.execute(handle.db);
          return true;
        } catch {
          return false;
        }
      },
      assertReady() {
        if (!ready) throw databaseUnavailable();
      },
      copyFiles: handle.copyFiles,
    };

    app.decorate('db', handle.db);
    app.decorate('database', state);

    app.addHook('onReady', async () => {
      try {
        await runStartupTasks();
      } catch (err) {
        if (!isConnectionError(err)) throw err;
        app.log.error({ err: { message: (err as Error).message } }, 'database unreachable at start; serving 503 until it is back');
        scheduleRetry();
      }
    });

    app.addHook('onClose', async () => {
      closing = true;
      clearTimeout(retryTimer);
      await handle.close();
    });
  },
  { name: 'database', dependencies: ['config'] },
);
