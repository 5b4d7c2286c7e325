/**
 * Step 3 asks the server for the quote of the e-mail entered (the first-service discount, and the
 * travel fee of the on-site postcode), once the address looks complete and the customer pauses
 * typing. The phone is sent as it stands then
 * (one phone is one customer: an autofilled form has it already), but a later change of it alone
 * asks nothing more. Anything but a quote leaves the list price shown; the booking's own answer
 * decides.
 */
import { useEffect } from 'react';
import { jobBody, type WizardInput } from '#domain/booking-rules.ts';
import type { Quote } from '#domain/pricing.ts';
import { postJson } from '../../lib/api.ts';
import { quotedPostcode, quotedVehicles, quoteKey, type ServerQuote } from './use-quote.ts';

const TYPING_PAUSE_MS = 400;

export function useServerQuote(values: WizardInput, [known, setKnown]: ServerQuote): void {
  const key = quoteKey(values);
  const wanted = !key.endsWith('\n') && known?.key !== key;

  useEffect(() => {
    if (!wanted) return;
    let current = true;
    const { serviceType, email, phone } = values;
    // The job as the booking would send it: the original fields for one vehicle, else `vehicles`.
    const { service, vehicleType, selectedVehicleType, coatingType, addOns, vehicles } = jobBody({ ...values, vehicles: quotedVehicles(values) });
    const job = vehicles ? { vehicles } : { service, vehicleType, selectedVehicleType, coatingType, ...(addOns ? { addOns } : {}) };
    const timer = setTimeout(() => {
      postJson('/v1/quote', { ...job, serviceType, postalCode: quotedPostcode(values), email, phone }).then(
        (answer) => {
          if (current && answer.status === 200) setKnown({ key, quote: answer.body as unknown as Quote });
        },
        () => undefined,
      );
    }, TYPING_PAUSE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [wanted, key]);
}
