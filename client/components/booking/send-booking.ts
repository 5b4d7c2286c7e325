/**
 * Sending the booking from the wizard, or joining the date's waitlist instead (issue 43): a module
 * of the later steps' chunk (see later-steps.ts), so the page's first chunk stays within its
 * budget. A retry of the same booking (after a network failure) carries the same Idempotency-Key,
 * so it is never booked twice; the same entry sent again is refused as already waiting.
 */
import { jobBody, stepOfField, wizardField, type BookingInput, type WizardInput } from '#domain/booking-rules.ts';
import { MESSAGES, type FieldError } from '#domain/messages.ts';
import type { WaitlistPart } from '#domain/waitlist-words.ts';
import { postJson, type ApiAnswer } from '../../lib/api.ts';
import { submissionKeys } from '../../lib/submission-keys.ts';
import { setFlash, showToast } from '../../lib/toast.ts';
import { SAVED_ADDRESS_KEY, SAVED_FIELDS } from './saved-address.ts';

function rememberAddress(values: WizardInput): void {
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

/** What is sent: the whole form state (see jobBody), without an address the drop-off customer never needed. */
function payloadOf(values: WizardInput): BookingInput {
  const body = jobBody(values);
  if (values.serviceType !== 'dropoff') return body;
  return { ...body, ...Object.fromEntries([...SAVED_FIELDS].map((field) => [field, ''])), saveAddress: false };
}

/**
 * A booking (or waitlist entry) the server did not take: the step to show, its messages, and the
 * message about the whole request. Or the waitlist joined: `joined`, the server's message.
 */
export interface Refusal {
  step: 1 | 2 | 3;
  errors: FieldError[];
  formError: string | null;
  joined?: string;
}

/** The step the answer's first message belongs to (step 2 for a 409 on the date or time), with an error toast. */
function refusalOf(answer: ApiAnswer): Refusal {
  const message = answer.message ?? MESSAGES.somethingWentWrong;
  void showToast('error', message);
  const errors = answer.errors.map(wizardField);
  return {
    step: errors[0] ? stepOfField(errors[0].field) : 3,
    errors,
    formError: answer.errors.length === 0 || answer.status === 409 ? message : null,
  };
}

/** Joins the date's waitlist for `part` with the booking's job and details (POST /v1/waitlist: the booking's body without its time). */
async function joinWaitlist(values: WizardInput, payload: BookingInput, part: WaitlistPart): Promise<Refusal> {
  const { time: _time, ...entry } = payload;
  const answer = await postJson('/v1/waitlist', { ...entry, part });
  if (answer.status !== 201) return refusalOf(answer);
  rememberAddress(values);
  return { step: 3, errors: [], formError: null, joined: answer.message ?? MESSAGES.somethingWentWrong };
}

/**
 * One sender per wizard: it keeps the key of the booking being sent until it succeeds. Booked:
 * the success message goes with the customer to the home page (and the answer never resolves).
 * With a part of the day (`waitlist`), the waitlist is joined instead: its message is the answer.
 * Refused: the step its first message belongs to (step 2 for a 409, whose times the step then
 * asks again), with an error toast; not sent at all: the network message on step 3.
 */
export function bookingSender(): (values: WizardInput, waitlist: WaitlistPart | null) => Promise<Refusal> {
  const keys = submissionKeys();
  return async (values, waitlist) => {
    const payload = payloadOf(values);
    try {
      if (waitlist) return await joinWaitlist(values, payload, waitlist);
      const answer = await postJson('/v1/create-booking', payload, keys.keyFor(payload));
      if (answer.status === 201) {
        keys.succeeded();
        rememberAddress(values);
        setFlash('success', answer.message ?? MESSAGES.bookingCreated);
        window.location.assign('/');
        return new Promise<never>(() => undefined);
      }
      return refusalOf(answer);
    } catch {
      void showToast('error', MESSAGES.networkError);
      return { step: 3, errors: [], formError: MESSAGES.networkError };
    }
  };
}
