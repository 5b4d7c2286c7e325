/**
 * The quote the wizard shows: the list price of the job's lines from the shared catalogue at once
 * (with the travel fee of the on-site postcode once step 2 knows it), then, on step 3,
 * the server's quote (with the first-service discount when it applies) for the e-mail entered.
 * Asking the server is step 3's job (use-server-quote.ts, in the lazy chunk of steps 2 and 3, which
 * keeps the booking page within its JavaScript budget); the page keeps the answer.
 */
import { useState, type Dispatch, type SetStateAction } from 'react';
import { vehicleTypeForSize, type WizardInput } from '#domain/booking-rules.ts';
import { jobLines, presentLines, quoteForJob, type VehicleChoice } from '#domain/job.ts';
import type { Quote } from '#domain/pricing.ts';
import type { AreaAnswer } from '#domain/service-area.ts';
import { EMAIL_PATTERN } from '#domain/text-rules.ts';

/** A server quote and the values it is for (see quoteKey). */
export interface KnownQuote {
  key: string;
  quote: Quote;
}

/** The server quote known so far, and its setter: step 3 reports a new one with it. */
export type ServerQuote = [KnownQuote | null, Dispatch<SetStateAction<KnownQuote | null>>];

/** The vehicles with the vehicle type of the size chosen so far (step 1 sets vehicleType itself only on Continue). */
export const quotedVehicles = (values: WizardInput): VehicleChoice[] =>
  values.vehicles.map((v) => ({ ...v, vehicleType: vehicleTypeForSize(v.selectedVehicleType) || v.vehicleType }));

/** The on-site postcode a quote is for ('' for drop-off, which has no travel fee). */
export const quotedPostcode = (values: WizardInput) => (values.serviceType === 'onsite' ? values.postalCode.trim() : '');

/** What a quote depends on: the vehicles, where, and a complete-looking e-mail ('' otherwise, always last). */
export function quoteKey(values: WizardInput): string {
  const email = values.email.trim();
  return [JSON.stringify(quotedVehicles(values)), values.serviceType, quotedPostcode(values), EMAIL_PATTERN.test(email) ? email.toLowerCase() : ''].join('\n');
}

/**
 * `initial`: the server's quote for `initialValues` when it rendered step 3; `area`: what step 2
 * learnt of the service area. Returns the quote to show, with the job's lines and minutes.
 */
export function useQuote(values: WizardInput, initial: Quote | null, initialValues: WizardInput, area: AreaAnswer | null): [Quote | undefined, ServerQuote] {
  const server = useState<KnownQuote | null>(initial && { key: quoteKey(initialValues), quote: initial });
  const known = server[0];
  const key = quoteKey(values);
  if (known?.key === key) return [known.quote, server];
  const vehicles = quotedVehicles(values);
  const lines = jobLines(vehicles);
  const fee = area?.postalCode === quotedPostcode(values) ? area.zone?.travelFeeCents : 0;
  return [lines && quoteForJob(presentLines(lines, vehicles), false, fee), server];
}
