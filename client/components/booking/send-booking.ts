/**
 * Sending the booking from the wizard: a module of the later steps' chunk (see later-steps.ts), so
 * the page's first chunk stays within its budget. A retry of the same booking (after a network
 * failure) carries the same Idempotency-Key, so it is never booked twice.
 */
import type { BookingInput } from '#domain/booking-rules.ts';
import { postJson, type ApiAnswer } from '../../lib/api.ts';
import { submissionKeys } from '../../lib/submission-keys.ts';
import { SAVED_ADDRESS_KEY, SAVED_FIELDS } from './saved-address.ts';

function rememberAddress(values: BookingInput): void {
  try {
    if (values.saveAddress && values.serviceType === 'onsite') {
      localStorage.setItem(SAVED_ADDRESS_KEY, JSON.stringify(Object.fromEntries(SAVED_FIELDS.map((field) => [field, values[field]]))));
    } else if (!values.saveAddress) {
      localStorage.removeItem(SAVED_ADDRESS_KEY);
    }
  } catch {
    // Storage disabled: the address simply is not remembered.
  }
}

/** What is sent: the whole form state, without an address the drop-off customer never needed. */
function payloadOf(values: BookingInput): BookingInput {
  if (values.serviceType !== 'dropoff') return values;
  return { ...values, ...Object.fromEntries([...SAVED_FIELDS].map((field) => [field, ''])), saveAddress: false };
}

/** One sender per wizard: it keeps the key of the booking being sent until it succeeds. */
export function bookingSender(): (values: BookingInput) => Promise<ApiAnswer> {
  const keys = submissionKeys();
  return async (values) => {
    const payload = payloadOf(values);
    const answer = await postJson('/v1/create-booking', payload, keys.keyFor(payload));
    if (answer.status === 201) {
      keys.succeeded();
      rememberAddress(values);
    }
    return answer;
  };
}
