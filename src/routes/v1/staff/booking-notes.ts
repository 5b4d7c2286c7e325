/**
 * GET and POST /v1/bookings/{id}/notes: a booking's internal notes, oldest first, and a new one
 * by the signed-in staff member. For staff only: never shown to the customer nor e-mailed.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { BookingNoteSchema, ErrorSchema, type BookingNoteDto } from '#api/schemas.ts';
import type { BookingNote } from '../../../db/database.ts';
import { NOTE_MAX_LENGTH } from '../../../domain/booking-notes.ts';
import { addBookingNote, bookingNotes } from '../../../services/booking-notes.service.ts';
import { IdParams, staffErrorResponses } from '../schemas.ts';

function toNoteDto(row: BookingNote): BookingNoteDto {
  return { id: row.id, text: row.body, by: row.author, at: row.created_at.toISOString() };
}

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/bookings/:id/notes',
    {
      schema: {
        operationId: 'listBookingNotes',
        summary: "A booking's internal notes, oldest first",
        tags: ['staff'],
        params: IdParams,
        response: { 200: Type.Object({ notes: Type.Array(BookingNoteSchema) }), 404: ErrorSchema, ...staffErrorResponses },
      },
    },
    async (request) => ({ notes: (await bookingNotes(app.db, request.params.id)).map(toNoteDto) }),
  );

  app.post(
    '/bookings/:id/notes',
    {
      schema: {
        operationId: 'addBookingNote',
        summary: 'Add an internal note to a booking (never shown to the customer)',
        tags: ['staff'],
        params: IdParams,
        body: Type.Object(
          { text: Type.String({ minLength: 1, maxLength: NOTE_MAX_LENGTH, description: 'The note; line breaks are kept, other control characters refused' }) },
          { additionalProperties: false },
        ),
        response: { 201: BookingNoteSchema, 404: ErrorSchema, ...staffErrorResponses },
      },
    },
    async (request, reply) => {
      const note = await addBookingNote(app.db, { bookingId: request.params.id, text: request.body.text, by: request.staff?.name ?? 'Staff' });
      request.log.info({ bookingId: request.params.id, noteId: note.id }, 'booking note added');
      return reply.code(201).send(toNoteDto(note));
    },
  );
};

export default route;
