/** Data access for completed jobs' payments and tax-invoice numbers (migrations/016_payments_invoices.sql). */
import { sql, type Kysely } from 'kysely';
import type { Booking, BookingPayment, Database, NewBookingPayment } from './database.ts';

type Db = Kysely<Database>;

export async function findPayment(db: Db, bookingId: string): Promise<BookingPayment | undefined> {
  return db.selectFrom('booking_payments').selectAll().where('booking_id', '=', bookingId).executeTakeFirst();
}

/**
 * The next tax-invoice number, taken in the caller's transaction: the counter's row stays locked
 * until it commits (concurrent completions take turns), and a rollback gives the number back, so
 * the numbers have no gaps.
 */
export async function takeInvoiceNumber(trx: Db): Promise<number> {
  const row = await trx.updateTable('invoice_counter').set((eb) => ({ last: eb('last', '+', 1) })).returning('last').executeTakeFirstOrThrow();
  return row.last;
}

/** Writes a booking's completion record, replacing the one of an earlier completion (a reopened job). */
export async function upsertPayment(db: Db, payment: NewBookingPayment): Promise<BookingPayment> {
  const { booking_id: _id, ...changes } = payment;
  return db
    .insertInto('booking_payments')
    .values(payment)
    .onConflict((oc) => oc.column('booking_id').doUpdateSet({ ...changes, updated_at: sql<Date>`clock_timestamp()` }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Records the payment of an unpaid completion (compare-and-set: only while still unpaid). */
export async function markPaidIfUnpaid(db: Db, bookingId: string, method: string, paidAt: Date): Promise<BookingPayment | undefined> {
  return db
    .updateTable('booking_payments')
    .set({ payment_method: method, paid_at: paidAt, updated_at: sql<Date>`clock_timestamp()` })
    .where('booking_id', '=', bookingId)
    .where('paid_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

export type CompletedJob = BookingPayment & Pick<Booking, 'version' | 'reference' | 'name' | 'service' | 'coating_type' | 'vehicle_type' | 'selected_vehicle_type' | 'date' | 'time' | 'lines'>;

/**
 * The jobs completed in [from, to) (instants) that are still completed, oldest first: what the
 * takings summary adds up. A job reopened since does not count; completed again, it counts once.
 */
export async function completedJobsBetween(db: Db, from: Date, to: Date): Promise<CompletedJob[]> {
  return db
    .selectFrom('booking_payments as p')
    .innerJoin('bookings as b', 'b.id', 'p.booking_id')
    .selectAll('p')
    .select(['b.version', 'b.reference', 'b.name', 'b.service', 'b.coating_type', 'b.vehicle_type', 'b.selected_vehicle_type', 'b.date', 'b.time', 'b.lines'])
    .where('p.completed_at', '>=', from)
    .where('p.completed_at', '<', to)
    .where('b.status', '=', 'completed')
    .orderBy('p.completed_at')
    .orderBy('p.booking_id')
    .execute();
}
