/** What each wizard step receives from the wizard. */
import type { WizardInput } from '#domain/booking-rules.ts';
import type { FieldError } from '#domain/messages.ts';

export interface StepProps {
  values: WizardInput;
  errors: readonly FieldError[];
  /** Merges a change into the form state. */
  update(change: Partial<WizardInput>): void;
}

export const ID = 'booking';
