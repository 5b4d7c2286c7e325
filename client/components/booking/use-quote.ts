/**
 * The quote the wizard shows: the list price from the shared catalogue at once, then, on step 3,
 * the server's quote (with the first-service discount when it applies) for the e-mail entered,
 * asked for once the address looks complete and the customer pauses typing.
 */
import { useEffect, useState } from 'react';
import { vehicleTypeForSize, type BookingInput } from '#domain/booking-rules.ts';
import { listPriceCents, quoteFor, type Quote } from '#domain/pricing.ts';
import { EMAIL_PATTERN } from '#domain/text-rules.ts';
import { postJson } from '../../lib/api.ts';

const TYPING_PAUSE_MS = 400;

/** The vehicle type of the size chosen so far (step 1 sets vehicleType itself only on Continue). */
const vehicleTypeOf = (values: BookingInput) => vehicleTypeForSize(values.selectedVehicleType) || values.vehicleType;

/** What a quote depends on: the service choice and a complete-looking e-mail ('' otherwise). */
function quoteKey(values: BookingInput): string {
  const email = values.email.trim();
  return [values.service, vehicleTypeOf(values), values.coatingType, EMAIL_PATTERN.test(email) ? email.toLowerCase() : ''].join('\n');
}

/** `initial`: the server's quote for `values` when it rendered step 3. */
export function useQuote(values: BookingInput, onDetailsStep: boolean, initial: Quote | null, initialValues: BookingInput): Quote | undefined {
  const [known, setKnown] = useState(initial && { key: quoteKey(initialValues), quote: initial });
  const key = quoteKey(values);
  const wantsServer = onDetailsStep && !key.endsWith('\n') && known?.key !== key;

  useEffect(() => {
    if (!wantsServer) return;
    let current = true;
    const { service, selectedVehicleType, coatingType, email } = values;
    const timer = setTimeout(() => {
      postJson('/v1/quote', { service, vehicleType: vehicleTypeOf(values), selectedVehicleType, coatingType, email }).then(
        (answer) => {
          // Anything but a quote leaves the list price shown; the booking's own answer decides.
          if (current && answer.status === 200) setKnown({ key, quote: answer.body as unknown as Quote });
        },
        () => undefined,
      );
    }, TYPING_PAUSE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [wantsServer, key]);

  if (known?.key === key) return known.quote;
  const list = listPriceCents(values.service, vehicleTypeOf(values), values.coatingType);
  return list === undefined ? undefined : quoteFor(list, false);
}
