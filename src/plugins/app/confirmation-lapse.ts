/**
 * BOOKING_CONFIRMATION=email (issue 23): bookings whose customers did not confirm them in time
 * lapse (cancelled, places freed, listed for staff) once a minute. A booking on a day someone is
 * booking or moving to lapses at once as well (createBooking and moveByCustomer sweep that day
 * under its placement lock), so a lapsed place never waits for this timer to be taken again.
 * With several instances each sweeps; the statement is one index probe and harmless to repeat.
 */
import fp from 'fastify-plugin';
import { lapseUnconfirmed } from '../../db/email-confirmation.repository.ts';
import { queueLapsedWebhooks } from '../../webhooks/queue.ts';

const SWEEP_INTERVAL_MS = 60_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** Lapses the bookings whose wait has ended by the app's clock now: their ids. */
    lapseUnconfirmedBookings(): Promise<string[]>;
  }
}

export default fp(
  async (app) => {
    let timer: NodeJS.Timeout | undefined;
    const sweep = async () => {
      // With their booking.cancelled webhooks (issue 44), in the lapse's transaction.
      const lapsed = await app.db.transaction().execute(async (trx) => {
        const ids = await lapseUnconfirmed(trx, app.now());
        await queueLapsedWebhooks(trx, ids, { now: () => app.now() });
        return ids;
      });
      if (lapsed.length > 0) app.log.info({ lapsed: lapsed.length }, 'unconfirmed bookings lapsed');
      return lapsed;
    };
    app.decorate('lapseUnconfirmedBookings', sweep);
    app.addHook('onReady', async () => {
      timer = setInterval(() => {
        if (!app.database.ready) return;
        sweep().catch((err: Error) => app.log.warn({ err: { message: err.message } }, 'could not lapse unconfirmed bookings'));
      }, SWEEP_INTERVAL_MS).unref();
    });
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'confirmation-lapse', dependencies: ['database'] },
);
