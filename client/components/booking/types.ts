/** What each wizard step receives from the wizard. */
import type { BookingInput } from '#domain/booking-rules.ts';
import type { FieldError } from '#domain/messages.ts';

export interface StepProps {
  values: BookingInput;
  errors: readonly FieldError[];
  /** Merges a change into the form state. */
  update(change: Partial<BookingInput>): void;
}

export const ID = 'booking';
