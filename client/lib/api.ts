/** JSON calls to the /v1 API from the browser. */
import type { FieldError } from '#domain/messages.ts';
import type { DayAvailability } from '#domain/availability.ts';

export interface ApiAnswer {
  status: number;
  message: string | undefined;
  errors: FieldError[];
}

/** Posts JSON; throws only when the server could not be reached at all. */
export async function postJson(url: string, body: unknown): Promise<ApiAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  const data: { message?: unknown; errors?: unknown } = await response.json().catch(() => ({}));
  return {
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
