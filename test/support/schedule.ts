/** The real app with a staff session and a settable clock, and the calls the availability and closure tests make. */
import type { Test } from 'tap';
import { buildTestApp, TEST_ADMIN_PASSWORD, type Backend } from '../helper.ts';
import { originalClientPayload, testNow } from './payloads.ts';

export interface Slot {
  time: string;
  startsAt: string;
  remaining: number;
  available: boolean;
  reason: string | null;
}

export async function scheduleTestApp(t: Test, backend: Backend) {
  let clock = testNow;
  const app = await buildTestApp(t, { backend, now: () => clock });
  const signIn = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { password: TEST_ADMIN_PASSWORD, name: 'Sam' } });
  const cookie = `${signIn.cookies[0]!.name}=${signIn.cookies[0]!.value}`;
  const availability = async (date: string): Promise<Slot[]> => {
    const res = await app.inject(`/v1/availability?date=${date}`);
    if (res.statusCode !== 200) throw new Error(`availability ${date}: ${res.statusCode} ${res.body}`);
    return res.json().slots;
  };
  return {
    app,
    cookie,
    /** Moves the app's clock; the test file's own instant is restored when `t` ends. */
    setClock(now: Date, owner: Test) {
      clock = now;
      owner.teardown(() => {
        clock = testNow;
      });
    },
    staff: (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, headers: Record<string, string> = { cookie }) =>
      app.inject({ method, url, headers, ...(payload ? { payload } : {}) }),
    availability,
    slotAt: async (date: string, time: string) => (await availability(date)).find((s) => s.time === time)!,
    book: (overrides: Record<string, unknown>) => app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload(overrides) }),
  };
}
