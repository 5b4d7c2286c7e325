/**
 * The loop both outbox senders run (the e-mails', mailer.ts, and the webhooks', webhooks.ts): claim
 * a batch of due rows and send each, again until fewer than a batch were due; one pass at a time
 * (a wake during a pass asks for another after it); every `pollMs`, and at once after a request of
 * this process queued a row (`queued()`, read when its answer has been sent, by which time its
 * transaction has committed). Closing the app lets the send in flight finish, then `afterClose`.
 */
import type { FastifyInstance } from 'fastify';

export interface SenderLoop {
  /** A pass now (and again until none is due); resolves when it is done. */
  wake(): Promise<void>;
  /** A row was queued by this request: look once its answer is sent. */
  queued(): void;
}

export function senderLoop<T>(
  app: FastifyInstance,
  options: { pollMs: number; batch: number; claim(): Promise<T[]>; send(row: T): Promise<void>; failure: string; afterClose?(): void },
): SenderLoop {
  let queuedSinceRequest = false;
  let closing = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  async function drain(): Promise<void> {
    while (!closing && app.database.ready) {
      const claimed = await options.claim();
      for (const row of claimed) {
        if (closing) break;
        await options.send(row);
      }
      if (claimed.length < options.batch) return;
    }
  }

  function wake(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await drain();
        } catch (err) {
          app.log.warn({ err: { message: (err as Error).message } }, options.failure);
        }
      } while (again && !closing);
    })().finally(() => {
      running = undefined;
    });
    return running;
  }

  // A callback hook, not an async one: it runs on every request, pages included, and is almost always a no-op.
  app.addHook('onResponse', (_request, _reply, done) => {
    if (queuedSinceRequest) {
      queuedSinceRequest = false;
      void wake();
    }
    done();
  });

  app.addHook('onReady', async () => {
    const tick = () => {
      timer = setTimeout(() => {
        void wake().finally(() => {
          if (!closing) tick();
        });
      }, options.pollMs);
      timer.unref();
    };
    tick();
  });

  app.addHook('onClose', async () => {
    closing = true;
    clearTimeout(timer);
    // The send in flight finishes and its outcome is recorded before the database closes.
    await running;
    options.afterClose?.();
  });

  return {
    wake,
    queued: () => {
      queuedSinceRequest = true;
    },
  };
}
