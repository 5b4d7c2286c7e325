/**
 * Keyset paging cursors: opaque base64url JSON that comes back from the client, so every value
 * in one is checked as fully as any other input before it reaches a query.
 */
import { isCalendarDate } from '../domain/booking-rules.ts';
import { validationFailed } from '../errors.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** PostgreSQL's text form of a timestamptz: `2026-11-23 16:55:01.123456+13` (offset minutes optional). */
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2}) (\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?[+-](\d{2})(:(\d{2}))?$/;

export const invalidCursor = () =>
  validationFailed([{ field: 'cursor', message: 'This page link is no longer valid; start from the first page' }]);

export function encodeCursor(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** The cursor's fields, or a 400 when it is not a JSON object. */
export function decodeCursorObject(value: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalidCursor();
  return parsed as Record<string, unknown>;
}

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/** A real instant in PostgreSQL's timestamptz text form (no month 99, no hour 25). */
export function isTimestampText(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = TIMESTAMP.exec(value);
  if (!match || !isCalendarDate(match[1]!)) return false;
  // PostgreSQL leaves the offset's minutes out when they are zero (`+00`, `+13`): they count as 0.
  const [hours, minutes, seconds, offsetHours, offsetMinutes] = [match[2], match[3], match[4], match[6], match[8] ?? '0'].map(Number) as number[];
  return hours! < 24 && minutes! < 60 && seconds! < 60 && offsetHours! <= 15 && offsetMinutes! < 60;
}
