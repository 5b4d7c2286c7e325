/**
 * Internal notes on a booking: staff read and add them in the dashboard. A note is for staff
 * only: nothing here queues an e-mail, and neither the manage page nor any e-mail reads the table.
 */
import type { Kysely } from 'kysely';
import type { BookingNote, Database } from '../db/database.ts';
import { findBooking } from '../db/bookings.repository.ts';
import { insertNote, notesOf } from '../db/booking-notes.repository.ts';
import { noteErrors, noteText } from '../domain/booking-notes.ts';
import { notFound, validationFailed } from '../errors.ts';

export const NO_SUCH_BOOKING = 'No such booking';

export async function bookingNotes(db: Kysely<Database>, bookingId: string): Promise<BookingNote[]> {
  if (!(await findBooking(db, bookingId))) throw notFound(NO_SUCH_BOOKING);
  return notesOf(db, bookingId);
}

/** Adds a note by the signed-in staff member (`by`, the name the history records). */
export async function addBookingNote(db: Kysely<Database>, request: { bookingId: string; text: string; by: string }): Promise<BookingNote> {
  const errors = noteErrors(request.text);
  if (errors.length > 0) throw validationFailed(errors);
  return db.transaction().execute(async (trx) => {
    // The booking row is locked so that a note is never written for a booking being removed.
    const booking = await trx.selectFrom('bookings').select('id').where('id', '=', request.bookingId).forShare().executeTakeFirst();
    if (!booking) throw notFound(NO_SUCH_BOOKING);
    return insertNote(trx, { booking_id: request.bookingId, body: noteText(request.text), author: request.by });
  });
}
