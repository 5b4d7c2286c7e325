/** The address a customer asked us to remember, kept on their own device (localStorage) only. */
import { ADDRESS_FIELDS, type WizardInput } from '#domain/booking-rules.ts';

export const SAVED_ADDRESS_KEY = 'savedAddress';
export const SAVED_FIELDS = [...ADDRESS_FIELDS, 'landmark'] as const;

export function readSavedAddress(): Partial<WizardInput> | null {
  try {
    const saved: unknown = JSON.parse(localStorage.getItem(SAVED_ADDRESS_KEY) ?? 'null');
    if (!saved || typeof saved !== 'object') return null;
    const address: Partial<WizardInput> = {};
    for (const field of SAVED_FIELDS) {
      const value = (saved as Record<string, unknown>)[field];
      if (typeof value === 'string') address[field] = value;
    }
    return address;
  } catch {
    return null;
  }
}
