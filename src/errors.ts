/**
 * Errors the application answers with on purpose, each with a code, and the one error shape
 * every /v1 answer uses: `{ message, errors: [{ field, message }] }`.
 */
import { SLOT_MESSAGES, type FieldError } from './domain/messages.ts';

export interface ErrorBody {
  message: string;
  errors: FieldError[];
}

export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly errors: FieldError[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const validationFailed = (errors: FieldError[]) =>
  new AppError(400, 'VALIDATION_FAILED', errors[0]?.message ?? 'Invalid request', errors);

export const unauthorized = (message = 'Please sign in to continue') =>
  new AppError(401, 'UNAUTHORIZED', message);

export const forbidden = (message = 'Only the owner can do this') => new AppError(403, 'FORBIDDEN', message);
export const notFound = (message = 'Not found') => new AppError(404, 'NOT_FOUND', message);

export const conflict = (message: string, errors: FieldError[] = []) =>
  new AppError(409, 'CONFLICT', message, errors);

export const IDEMPOTENCY_KEY_REUSED_MESSAGE = 'This Idempotency-Key was already used with a different request body';

export const idempotencyKeyReused = () =>
  new AppError(422, 'IDEMPOTENCY_KEY_REUSED', IDEMPOTENCY_KEY_REUSED_MESSAGE, [{ field: 'Idempotency-Key', message: IDEMPOTENCY_KEY_REUSED_MESSAGE }]);

export const DATABASE_UNAVAILABLE_MESSAGE = 'The service is temporarily unavailable. Please try again in a minute.';

export const databaseUnavailable = () =>
  new AppError(503, 'DATABASE_UNAVAILABLE', DATABASE_UNAVAILABLE_MESSAGE, [], { 'retry-after': '10' });

const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EPIPE',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
]);

/** True when an error means "the database cannot be reached", not "the query was wrong". */
export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (CONNECTION_ERROR_CODES.has(code) || code.startsWith('08'))) return true;
  return /timeout exceeded when trying to connect|Connection terminated|connection timeout|Client has encountered a connection error/i.test(
    error.message,
  );
}

/**
 * PostgreSQL's class 53 (insufficient resources: out of memory or of shared memory, as when the
 * server's lock table is full, disk full, too many connections): the database cannot take the
 * statement now, whatever it was, so it is unavailable for a moment, not a fault of the request.
 */
export function isResourceShortage(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'string' && /^53[0-9A-Z]{3}$/.test(code);
}

/**
 * PostgreSQL's class 22 (data exception: a NUL in text, an impossible date, a number out of
 * range): the input was wrong, so it is the client's error, not the server's.
 */
export function isDataException(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
}

/**
 * PostgreSQL's exclusion_violation (23P01): the bookings' no-overlap constraint refused a job on a
 * resource already held then. The application's locks make this rare (a second instance racing on
 * a buffer across midnight, a hand-written UPDATE); when it happens it is the customer's "that
 * time has just been taken", never a server error.
 */
export function isOverlapViolation(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === '23P01';
}

export const placeTaken = () => conflict(SLOT_MESSAGES.taken, [{ field: 'time', message: SLOT_MESSAGES.taken }]);

export const invalidData = () => new AppError(400, 'INVALID_DATA', 'The request contains a value that cannot be stored');

/**
 * The error to show a visitor whose form post failed: our own errors as they are, a lost
 * database as "temporarily unavailable"; anything else is a bug and is left to the error handler.
 */
export function formError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  if (isOverlapViolation(error)) return placeTaken();
  if (isConnectionError(error)) return databaseUnavailable();
  if (isDataException(error)) return invalidData();
  return undefined;
}
