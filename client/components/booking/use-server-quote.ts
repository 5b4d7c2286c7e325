/**
 * Step 3 asks the server for the quote of the e-mail entered (the first-service discount, and the
 * travel fee of the on-site postcode), once the address looks complete and the customer pauses
 * typing. The phone is sent as it stands then
 * (one phone is one customer: an autofilled form has it already), but a later change of it alone
 * asks nothing more. Anything but a quote leaves the list price shown; the booking's own answer
 * decides.
 */
import { useEffect } from 'react';
import type { BookingInput } from '#domain/booking-rules.ts';
import type { Quote } from '#domain/pricing.ts';
import { postJson } from '../../lib/api.ts';
import { quotedPostcode, quoteKey, vehicleTypeOf, type ServerQuote } from './use-quote.ts';

const TYPING_PAUSE_MS = 400;

export function useServerQuote(values: BookingInput, [known, setKnown]: ServerQuote): void {
  const key = quoteKey(values);
  const wanted = !key.endsWith('\n') && known?.key !== key;

  useEffect(() => {
    if (!wanted) return;
    let current = true;
    const { service, selectedVehicleType, coatingType, serviceType, email, phone } = values;
    const timer = setTimeout(() => {
      postJson('/v1/quote', { service, vehicleType: vehicleTypeOf(values), selectedVehicleType, coatingType, serviceType, postalCode: quotedPostcode(values), email, phone }).then(
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
