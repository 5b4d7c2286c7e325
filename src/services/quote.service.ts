/**
 * Quotes computed by the server: the catalogue's list price and the first-service discount, which
 * applies when the customer has no booking that is not cancelled: none under the e-mail address
 * in its canonical form (lower case, no +tag, gmail's dots ignored) nor, when a phone is given,
 * under the phone number in its national form (migrations/013). createBooking asks the same question inside its transaction, under a per-customer
 * lock, and stores the answer.
 */
import type { Kysely } from 'kysely';
import { jobOf, vehicleTypeForSize, type BookingInput, type VehicleInput } from '../domain/booking-rules.ts';
import { jobLines, presentLines, quoteForJob, type JobLine } from '../domain/job.ts';
import { MESSAGES } from '../domain/messages.ts';
import type { JobQuote } from '../domain/pricing.ts';
import { EMAIL_PATTERN } from '../domain/text-rules.ts';
import type { Database } from '../db/database.ts';
import { hasActiveBookingFor } from '../db/bookings.repository.ts';
import { listZones } from '../db/service-zones.repository.ts';
import type { BusinessInfo } from '../domain/business.ts';
import { AppError, isConnectionError, validationFailed } from '../errors.ts';
import { zoneOfJob } from './scheduling.service.ts';

type Db = Kysely<Database>;

/** The quote for a job's lines, a travel fee and a customer's e-mail (already checked to be an address) and phone (may be ''). */
export async function quoteForCustomer(db: Db, lines: readonly JobLine[], email: string, phone = '', travelFeeCents = 0): Promise<JobQuote> {
  return quoteForJob(lines, !(await hasActiveBookingFor(db, { email, phone })), travelFeeCents);
}

type QuoteInput = Pick<BookingInput, 'service' | 'coatingType' | 'vehicleType' | 'selectedVehicleType' | 'email'> & {
  phone?: string;
  serviceType?: string;
  postalCode?: string;
  addOns?: string[];
  vehicles?: VehicleInput[];
};

type QuoteFields = Required<Omit<QuoteInput, 'vehicles' | 'addOns'>> & Pick<QuoteInput, 'vehicles' | 'addOns'>;

/** The fields a quote depends on, trimmed; the vehicle type from the chosen size when not sent. */
function quoteFields(input: QuoteInput): QuoteFields {
  const selectedVehicleType = input.selectedVehicleType.trim();
  return {
    service: input.service.trim(),
    coatingType: input.coatingType.trim(),
    vehicleType: input.vehicleType.trim() || vehicleTypeForSize(selectedVehicleType),
    selectedVehicleType,
    email: input.email.trim(),
    phone: (input.phone ?? '').trim(),
    serviceType: (input.serviceType ?? '').trim(),
    postalCode: (input.postalCode ?? '').trim(),
    ...(input.addOns === undefined ? {} : { addOns: input.addOns }),
    ...(input.vehicles === undefined ? {} : { vehicles: input.vehicles }),
  };
}

/** The job's lines and what is wrong with it (the vehicles' rules: src/domain/booking-rules.ts jobOf). */
function linesOf(input: QuoteFields): { lines: JobLine[] | undefined; errors: ReturnType<typeof jobOf>['errors'] } {
  const { vehicles, errors } = jobOf(input as BookingInput);
  const lines = errors.length > 0 ? undefined : jobLines(vehicles);
  return { lines: lines && presentLines(lines, vehicles), errors };
}

/**
 * The travel fee of an on-site job at a postcode (the service centre's zone without one; a 400
 * naming postalCode when the postcode is in no zone); 0 for any other job.
 */
export async function travelFeeFor(db: Db, input: { serviceType: string; postalCode: string }, business: Pick<BusinessInfo, 'postcode' | 'phone' | 'suburb'>): Promise<number> {
  if (input.serviceType !== 'onsite') return 0;
  return zoneOfJob(await listZones(db), { postalCode: input.postalCode, business })?.travelFeeCents ?? 0;
}

/**
 * POST /v1/quote: the job must be complete (step 1's rules, for each vehicle); an e-mail, when
 * given, must be an address. Without one the quote is the list price (and the travel fee, on site).
 */
export async function quoteBooking(db: Db, raw: QuoteInput, business: Pick<BusinessInfo, 'postcode' | 'phone' | 'suburb'>): Promise<JobQuote> {
  const input = quoteFields(raw);
  const { lines, errors } = linesOf(input);
  if (input.email !== '' && !EMAIL_PATTERN.test(input.email)) errors.push({ field: 'email', message: MESSAGES.emailInvalid });
  if (errors.length > 0 || lines === undefined) throw validationFailed(errors.length > 0 ? errors : [{ field: 'service', message: MESSAGES.serviceUnknown }]);
  const travelFeeCents = await travelFeeFor(db, input, business);
  return input.email === '' ? quoteForJob(lines, false, travelFeeCents) : quoteForCustomer(db, lines, input.email, input.phone, travelFeeCents);
}

/**
 * The quote shown on step 3 of the wizard without JavaScript: the customer's own once a valid
 * e-mail has been entered, the list price before; none while the job is incomplete.
 * The travel fee of the postcode's zone on site (none when it is in no zone: booking says so).
 * With the database unreachable it is the list price, so that the form (and its 503 message when
 * the booking itself fails) can still be shown.
 */
export async function quoteForWizard(db: Db, values: QuoteInput, business: Pick<BusinessInfo, 'postcode' | 'phone' | 'suburb'>): Promise<JobQuote | null> {
  const input = quoteFields(values);
  const { lines } = linesOf(input);
  if (lines === undefined) return null;
  try {
    const travelFeeCents = await travelFeeFor(db, input, business).catch((caught: unknown) => {
      if (caught instanceof AppError) return 0;
      throw caught;
    });
    if (!EMAIL_PATTERN.test(input.email)) return quoteForJob(lines, false, travelFeeCents);
    return await quoteForCustomer(db, lines, input.email, input.phone, travelFeeCents);
  } catch (caught) {
    if (isConnectionError(caught)) return quoteForJob(lines, false);
    throw caught;
  }
}
