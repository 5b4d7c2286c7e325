/** JSON calls to the /v1 API from the browser. */
import type { FieldError } from '#domain/messages.ts';
import type { DayAvailability } from '#domain/availability.ts';

export interface ApiAnswer {
  status: number;
  message: string | undefined;
  errors: FieldError[];
  /** The whole JSON answer ({} when there was none). */
  body: Record<string, unknown>;
}

/** Posts JSON; throws only when the server could not be reached at all. */
export async function postJson(url: string, body: unknown, idempotencyKey?: string): Promise<ApiAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    body: JSON.stringify(body),
  });
  const data: Record<string, unknown> = await response.json().catch(() => ({}));
  return {
    body: data,
    status: response.status,
    message: typeof data.message === 'string' ? data.message : undefined,
    errors: Array.isArray(data.errors) ? (data.errors as FieldError[]) : [],
  };
}

/** A date's slots as they stand (GET /v1/availability). */
export async function getAvailability(date: string): Promise<DayAvailability> {
  const response = await fetch(`/v1/availability?date=${encodeURIComponent(date)}`, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`availability: ${response.status}`);
  return response.json();
}

/** A random key: randomUUID where the page is a secure context, as many random bits otherwise. */
function newKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The Idempotency-Key of a form's submissions: the same content sent again (a retry after a
 * network failure, whose first attempt may have reached the server) reuses its key, so the server
 * stores it once; changed content gets a new key, and so does anything sent after a success.
 */
export function submissionKeys() {
  let current: { content: string; key: string } | undefined;
  return {
    keyFor(body: unknown): string {
      const content = JSON.stringify(body);
      if (current?.content !== content) current = { content, key: newKey() };
      return current.key;
    },
    succeeded(): void {
      current = undefined;
    },
  };
}
