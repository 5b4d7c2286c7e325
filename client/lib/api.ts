/** JSON calls to the /v1 API from the browser. */
import type { FieldError } from '#domain/messages.ts';

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
