/**
 * Idempotency keys for the forms' submissions, a module of its own so the booking wizard can load
 * it with its later steps (it is only needed on step 3).
 */

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
