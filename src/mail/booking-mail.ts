/**
 * What a change to a booking sends by e-mail (issue 11). Called inside the transaction that makes
 * the change, so that the booking and the e-mails it causes are written together or not at all.
 *
 * This is the contract between the booking engine, the staff tools and the manage page (callers)
 * and the outbox (src/mail). Until the outbox lands it records nothing.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';

export type BookingMailEvent =
  | { type: 'created'; bookingId: string }
  | { type: 'confirmed' | 'cancelled' | 'completed'; bookingId: string; by: 'staff' | 'customer' }
  | { type: 'moved'; bookingId: string; by: 'staff' | 'customer'; from: { date: string; time: string } };

export async function queueBookingMail(_trx: Kysely<Database>, _event: BookingMailEvent): Promise<void> {}
