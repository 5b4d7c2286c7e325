/** What the completion tests (issue 21) share: a confirmed booking, and an app with its staff calls. */
import type { Test } from 'tap';
import type { App } from '../../src/app.ts';
import { buildTestApp, login, type Backend } from '../helper.ts';
import { mailEnv } from './mail.ts';
import { bookingRow } from './payloads.ts';

/** A confirmed booking of its own (Quick Clean, small car: $69.00), its id. */
export async function seed(app: App, overrides: Record<string, unknown> = {}): Promise<string> {
  const row = await app.db
    .insertInto('bookings')
    .values(bookingRow({ status: 'confirmed', ...overrides }) as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function staffApp(t: Test, backend: Backend, env: Record<string, string>, now?: () => Date) {
  const app = await buildTestApp(t, { backend, env: { ...mailEnv(undefined), LOG_LEVEL: 'silent', ...env }, now });
  const cookie = await login(app);
  const complete = (id: string, payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: `/v1/bookings/${id}/completion`, headers: { cookie }, payload: { version: 1, paid: true, paymentMethod: 'cash', ...payload } });
  const pay = (id: string, payload: Record<string, unknown>) => app.inject({ method: 'POST', url: `/v1/bookings/${id}/payment`, headers: { cookie }, payload });
  const status = (id: string, to: string, version: number) => app.inject({ method: 'POST', url: `/v1/bookings/${id}/status`, headers: { cookie }, payload: { status: to, version } });
  const payment = (id: string) => app.db.selectFrom('booking_payments').selectAll().where('booking_id', '=', id).executeTakeFirst();
  const counter = async () => (await app.db.selectFrom('invoice_counter').select('last').executeTakeFirstOrThrow()).last;
  return { app, cookie, complete, pay, status, payment, counter };
}

