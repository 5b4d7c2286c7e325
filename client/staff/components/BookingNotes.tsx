/**
 * A booking's internal notes, in its details modal: the list (oldest first, who wrote each and
 * when) and a small form to add one. For staff only: never shown to the customer nor e-mailed.
 * Loaded lazily with the modal, so the dashboard's eager bundle does not carry it.
 */
import { useEffect, useState, type FormEvent } from 'react';
import type { BookingNoteDto } from '#api/schemas.ts';
import { NOTE_MAX_LENGTH, NOTE_MESSAGES, noteErrors } from '#domain/booking-notes.ts';
import { ApiError, call, send } from '../lib/staff-api.ts';
import { dateTime } from './format.ts';
import './BookingNotes.css';

const notesUrl = (bookingId: string) => `/v1/bookings/${bookingId}/notes`;

export default function BookingNotes({ bookingId, onSignedOut }: { bookingId: string; onSignedOut?(): void }) {
  const [notes, setNotes] = useState<BookingNoteDto[] | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let current = true;
    call<{ notes: BookingNoteDto[] }>(notesUrl(bookingId)).then(
      (answer) => current && setNotes(answer.notes),
      () => current && setLoadFailed(true),
    );
    return () => {
      current = false;
    };
  }, [bookingId]);

  const add = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const problem = noteErrors(text)[0];
    if (problem) return setError(problem.message);
    setBusy(true);
    setError(null);
    try {
      const note = await send<BookingNoteDto>('POST', notesUrl(bookingId), { text });
      setNotes((list) => [...(list ?? []), note]);
      setText('');
      setSaved(true);
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 401) onSignedOut?.();
      const fieldError = caught instanceof ApiError && Array.isArray(caught.body.errors) ? (caught.body.errors[0] as { message?: string } | undefined)?.message : undefined;
      setError(fieldError ?? (caught instanceof ApiError ? caught.message : 'The note could not be saved. Try again.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="booking-notes">
      {loadFailed ? (
        <p>The notes could not be loaded.</p>
      ) : notes === null ? (
        <p>Loading notes…</p>
      ) : notes.length === 0 ? (
        <p>No notes yet.</p>
      ) : (
        <ol className="notes-list">
          {notes.map((note) => (
            <li key={note.id}>
              <p className="note-meta">{`${dateTime(note.at)}, ${note.by}`}</p>
              <p className="note-text">{note.text}</p>
            </li>
          ))}
        </ol>
      )}
      <form className="note-form" onSubmit={add} noValidate>
        <div className="field">
          <label htmlFor={`note-${bookingId}`}>Add a note (staff only, never shown to the customer)</label>
          <textarea
            id={`note-${bookingId}`}
            rows={3}
            maxLength={NOTE_MAX_LENGTH}
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `note-${bookingId}-error` : undefined}
          />
          {error && (
            <p id={`note-${bookingId}-error`} className="field-error" role="alert">
              {error}
            </p>
          )}
        </div>
        <button type="submit" className="button button-primary button-small" disabled={busy}>
          Add note
        </button>
        {saved && (
          <p className="note-saved" role="status">
            {NOTE_MESSAGES.added}
          </p>
        )}
      </form>
    </div>
  );
}
