/** A real SMTP server on loopback for the tests: it keeps what it receives, parsed by mailparser, and can refuse mail or hold a delivery. */
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { Test } from 'tap';

export interface TestSmtp {
  url: string;
  received: ParsedMail[];
  /** When set, every recipient is refused with this temporary error. */
  refuse: string | undefined;
  /** When set, each delivery waits for it before it is accepted. */
  hold: Promise<void> | undefined;
  /** Resolves when a delivery has started (its data is being received). */
  deliveryStarted: () => Promise<void>;
}

export async function startSmtp(t: Test): Promise<TestSmtp> {
  let started: (() => void) | undefined;
  const state: TestSmtp = {
    url: '',
    received: [],
    refuse: undefined,
    hold: undefined,
    deliveryStarted: () => new Promise<void>((resolve) => (started = resolve)),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // Not the client's name from DNS: no resolver answers for loopback here, and each lookup waits.
    disableReverseLookup: true,
    onRcptTo(_address, _session, callback) {
      if (state.refuse) {
        const err = Object.assign(new Error(state.refuse), { responseCode: 451 });
        callback(err);
        return;
      }
      callback();
    },
    onData(stream, _session, callback) {
      started?.();
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        await state.hold;
        state.received.push(await simpleParser(Buffer.concat(chunks)));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  state.url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  return state;
}

/** Waits until `check` holds (every 20 ms, 10 s at most), instead of sleeping a fixed time. */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
