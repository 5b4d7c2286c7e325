/**
 * Quotes: what a booking costs, in integer cents of NZ dollars. The list price comes from the
 * catalogue; the first-service discount (spec sections 1 and 9) is decided by the server, which
 * alone knows whether an e-mail address has booked before. Pure, so the wizard can show the list
 * price at once and format amounts exactly as the server's pages do.
 *
 * Rounding: the discount is the percentage of the list price rounded to the nearest cent, a half
 * cent rounded up (in the customer's favour), and the total is the list price minus that
 * discount, so the lines shown always add up. (Catalogue prices are whole dollars, so 15% of them
 * is a whole number of cents today; the rule is for the day they are not.)
 */
import { FIRST_SERVICE_DISCOUNT_PERCENT, priceFor } from './catalogue.ts';
// Types only: the pages that format prices (the manage page, receipts) then load no job rules.

export const CURRENCY = 'NZD';

export interface QuoteDiscount {
  /** The first-service discount, or a maintenance plan's on every visit after the first (issue 43). */
  kind: 'first-service' | 'plan';
  percent: number;
}

/** A stored discount kind and percentage as a quote's discount (null for none, or a kind not known). */
export function discountOf(kind: string | null, percent: number | null): QuoteDiscount | null {
  return (kind === 'first-service' || kind === 'plan') && percent !== null ? { kind, percent } : null;
}

/** A plan's visit (issue 43): `percent` (PLAN_DISCOUNT_PERCENT) off the services, never the travel fee; 0 or a discount already given: as it is. */
export function withPlanDiscount(quote: Quote, percent: number): Quote {
  if (percent <= 0 || quote.discount) return quote;
  const discountCents = percentOf(quote.listPriceCents, percent);
  return { ...quote, discountCents, totalCents: quote.totalCents - discountCents, discount: { kind: 'plan', percent } };
}

/** A line of a quote or an invoice: a package or an add-on for one vehicle (src/domain/job.ts makes them). */
export interface JobLine {
  description: string;
  quantity: number;
  unitCents: number;
  totalCents: number;
  minutes: number;
}

export interface Quote {
  currency: typeof CURRENCY;
  listPriceCents: number;
  discountCents: number;
  /** The zone's travel fee for on-site work (issue 40), GST inclusive; 0 for none. Never discounted. */
  travelFeeCents: number;
  totalCents: number;
  discount: QuoteDiscount | null;
  /** A price adjusted by staff (issue 21), already in totalCents; absent or null: none. */
  adjustment?: PriceAdjustment | null;
  /** Issue 41: the job line by line (a package or an add-on for a vehicle); listPriceCents is their sum. The server's quotes always have them. */
  lines?: JobLine[];
  /** The job's minutes: the sum of the lines' (what the van or bay is held for, gap apart). */
  durationMinutes?: number;
}

/** An amount staff add to (or, negative, take off) the price, with the reason the customer is shown. */
export interface PriceAdjustment {
  cents: number;
  reason: string;
}

/** The quote with a staff adjustment applied to its total (none: the quote as it is). */
export function withAdjustment(quote: Quote, adjustment: PriceAdjustment | null): Quote {
  if (!adjustment || adjustment.cents === 0) return quote;
  return { ...quote, totalCents: quote.totalCents + adjustment.cents, adjustment };
}

/** The words for an adjustment line: 'Price adjustment: extra pet hair'. */
export function adjustmentLabel(adjustment: PriceAdjustment): string {
  return `Price adjustment: ${adjustment.reason}`;
}

/** The catalogue price of a service choice in cents, or undefined when it is not in the catalogue. */
export function listPriceCents(service: string, vehicleType: string, coatingType: string): number | undefined {
  const dollars = priceFor(service, vehicleType, coatingType);
  return dollars === undefined ? undefined : dollars * 100;
}

/** `percent` of `cents`, to the nearest cent, halves up. */
export function percentOf(cents: number, percent: number): number {
  return Math.floor((cents * percent + 50) / 100);
}

/** The services' list price, less the first-service discount on them, plus the travel fee (which the discount never touches). */
export function quoteFor(listCents: number, firstService: boolean, travelFeeCents = 0): Quote {
  const discount: QuoteDiscount | null = firstService ? { kind: 'first-service', percent: FIRST_SERVICE_DISCOUNT_PERCENT } : null;
  const discountCents = discount ? percentOf(listCents, discount.percent) : 0;
  return { currency: CURRENCY, listPriceCents: listCents, discountCents, travelFeeCents, totalCents: listCents - discountCents + travelFeeCents, discount };
}

/** A quote the server made: with the job's lines and minutes (src/domain/job.ts quoteForJob). */
export type JobQuote = Quote & { lines: JobLine[]; durationMinutes: number };


/** The words for a line of a job: its description, with how many when more than one ('Pet hair removal × 2'). */
export function lineLabel(line: Pick<JobLine, 'description' | 'quantity'>): string {
  return line.quantity > 1 ? `${line.description} × ${line.quantity}` : line.description;
}

/** The words for a travel fee line. */
export const TRAVEL_FEE_LABEL = 'Travel fee';

/**
 * Cents as NZ dollars for people: 16915 → '$169.15', -2985 → '-$29.85', 123456789 →
 * '$1,234,567.89'. Exactly what `Intl.NumberFormat('en-NZ', { style: 'currency', currency: 'NZD' })`
 * writes for whole cents (test/quotes.test.ts compares the two), without making that formatter:
 * in Chromium its first construction loads the locale's currency data, 45-125 ms of main thread
 * on the development machine (more on a phone), paid by every page that shows a price.
 */
export function formatNzd(cents: number): string {
  const whole = Math.abs(Math.round(cents));
  const dollars = String(Math.floor(whole / 100)).replace(/\B(?=(\d{3})+$)/g, ',');
  return `${cents < 0 && whole > 0 ? '-' : ''}$${dollars}.${String(whole % 100).padStart(2, '0')}`;
}

/** The words for a discount line: 'First-service discount 15%'. */
export function discountLabel(discount: QuoteDiscount): string {
  return discount.kind === 'plan' ? `Regular plan discount ${discount.percent}%` : `First-service discount ${discount.percent}%`;
}
