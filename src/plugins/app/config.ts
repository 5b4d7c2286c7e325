/**
 * Makes the validated configuration available to every plugin as `app.config`, and the clock
 * that business dates are taken from as `app.now()`.
 */
import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** The current instant for business dates: the booking window, the day view, file names. */
    now: () => Date;
  }
}

export default fp<{ config: Config; now?: () => Date }>(
  async (app, { config, now }) => {
    app.decorate('config', config);
    app.decorate('now', now ?? (() => new Date()));
  },
  { name: 'config' },
);
