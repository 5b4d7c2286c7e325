/** Data access for internal notes on bookings (migrations/014): append-only, oldest first. */
import type { Kysely } from 'kysely';
import type { BookingNote, Database, NewBookingNote } from './database.ts';

type Db = Kysely<Database>;

export async function insertNote(db: Db, note: NewBookingNote): Promise<BookingNote> {
  return db.insertInto('booking_notes').values(note).returningAll().executeTakeFirstOrThrow();
}

/** A booking's notes in the order they were written. */
export async function notesOf(db: Db, bookingId: string): Promise<BookingNote[]> {
  return db.selectFrom('booking_notes').selectAll().where('booking_id', '=', bookingId).orderBy('created_at').orderBy('id').execute();
}
