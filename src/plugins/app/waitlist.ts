/**
 * The waitlist (issue 43): once a minute, offers unconfirmed in time lapse and every date with
 * waiting entries offers its free places to them, in order of joining
 * (src/services/waitlist.service.ts). The changes that free a place on the spot (a customer's
 * cancellation, move or "no thanks", staff's cancellation, move or release) call
 * `app.offerFreedPlaces(dates)` once they have committed, so the next customer hears within
 * seconds; the minute's pass catches the rest (a closure removed, a van added, hours extended).
 * With several instances each runs it: the date's waitlist lock and the entry's compare-and-set
 * offer each place once.
 */
import fp from 'fastify-plugin';
import { offerFreedPlaces, type Offer, type WaitlistOptions } from '../../services/waitlist.service.ts';

const SWEEP_INTERVAL_MS = 60_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** What the waitlist's services are given: the app's clock, mail context and settings. */
    waitlistOptions(): WaitlistOptions;
    /**
     * Offers the free places of `dates` (a change that freed them has just committed), or, when
     * absent, the minute's pass: lapses the offers due and offers every date with waiting entries;
     * by the app's clock now. Never throws: a failure is logged, and the minute's pass tries again.
     */
    offerFreedPlaces(dates?: readonly string[]): Promise<Offer[]>;
  }
}

export default fp(
  async (app) => {
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<unknown> = Promise.resolve();
    app.decorate(
      'waitlistOptions',
      (): WaitlistOptions => ({
        now: app.now(),
        mail: app.mail,
        maxPerEmail: app.config.waitlist.maxPerEmail,
        holdMinutes: app.config.waitlist.holdMinutes,
        maxActivePerEmail: app.config.maxActiveBookingsPerEmail,
      }),
    );
    app.decorate('offerFreedPlaces', async (dates?: readonly string[]) => {
      try {
        const offers = await offerFreedPlaces(app.db, app.waitlistOptions(), dates);
        if (offers.length > 0) app.log.info({ offers: offers.length }, 'waitlist places offered');
        return offers;
      } catch (err) {
        app.log.warn({ err: { message: (err as Error).message } }, 'could not offer the waitlist its places');
        return [];
      }
    });
    const pass = () => {
      if (!app.database.ready) return;
      running = app.offerFreedPlaces();
    };
    app.addHook('onReady', async () => {
      timer = setInterval(pass, SWEEP_INTERVAL_MS).unref();
    });
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await running;
    });
  },
  { name: 'waitlist', dependencies: ['database', 'config', 'mailer'] },
);
