/**
 * Internal notes on a booking (issue 21): what staff write for one another ("gate code 4411").
 * Never shown to the customer nor put in any e-mail. Pure, shared by the server (which enforces
 * it, as does the database) and the dashboard's form.
 */
import { MESSAGES, tooLong, type FieldError } from './messages.ts';
import { hasControlCharacters, isBlank } from './text-rules.ts';

/** The longest note, in characters. */
export const NOTE_MAX_LENGTH = 2000;

export const NOTE_MESSAGES = {
  required: 'Please write the note',
  added: 'Note added.',
} as const;

/** The note as stored: surrounding blank space removed. */
export function noteText(text: string): string {
  return text.trim();
}

/** What is wrong with a note: blank, longer than NOTE_MAX_LENGTH, or holding control characters (line breaks and tabs are fine). */
export function noteErrors(text: string): FieldError[] {
  const trimmed = noteText(text);
  if (isBlank(trimmed)) return [{ field: 'text', message: NOTE_MESSAGES.required }];
  if (trimmed.length > NOTE_MAX_LENGTH) return [{ field: 'text', message: tooLong(NOTE_MAX_LENGTH) }];
  if (hasControlCharacters(trimmed, true)) return [{ field: 'text', message: MESSAGES.controlCharacters }];
  return [];
}
