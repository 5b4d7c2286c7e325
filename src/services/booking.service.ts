/**
 * Taking a booking: the server's final check of every rule, its place in the schedule (the
 * scheduling engine: a van or bay free for the whole job, inside the hours, no closure), the
 * quote, and the write. The placement and the insert share one transaction holding the lock of
 * the kind's day, so two customers racing for the last van cannot both get it, and a closure made
 * meanwhile is either seen or lists the booking (it takes the same lock); the exclusion
 * constraint refuses whatever would still overlap. The quote is computed in the same transaction
 * under the locks on the customer's canonical e-mail and phone (taken before the day's, always in
 * that order; the e-mail's also guards the cap of upcoming bookings), so of two first bookings
 * sent at once by one customer, however the address or number is written, only the first gets
 * the first-service discount. Given a transaction (an idempotent request's,
 * which stores its answer beside the booking), it runs in that one.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { jobOf, validateBooking, type BookingInput } from '../domain/booking-rules.ts';
import { jobLines, linesMinutes, presentLines, quoteForJob } from '../domain/job.ts';
import { bookingWindow, staffBookingWindow, todayInAuckland } from '../domain/booking-dates.ts';
import { MESSAGES, tooManyActiveBookings } from '../domain/messages.ts';
import type { Booking, Database } from '../db/database.ts';
import { insertBookingUnlessReferenceTaken, listAllBookings, lockEmailAndPlacement, lockEmailBrakeAndPlacement, newBookingFacts } from '../db/bookings.repository.ts';
import { bookingColumnsOf } from '../db/booking-input.ts';
import { inTransaction } from '../db/transaction.ts';
import { withAdjustment, withPlanDiscount, type PriceAdjustment } from '../domain/pricing.ts';
import { adjustmentErrors, STAFF_BOOKING_MESSAGES, staffStartErrors } from '../domain/staff-booking-rules.ts';
import { kindOf, placeJob, placementSpan, zoneOfJob, zonesOf } from './scheduling.service.ts';
import { AppError, conflict, validationFailed } from '../errors.ts';
import { newBookingReference } from './booking-reference.ts';
import { newManageLink } from '../db/manage-link.repository.ts';
import { lapseUnconfirmed } from '../db/email-confirmation.repository.ts';
import { queueLapsedWebhooks } from '../webhooks/queue.ts';
import { leaveOnBooking } from '../db/waitlist.repository.ts';
import { queueBookingMail } from '../mail/booking-mail.ts';
import type { MailContext } from '../mail/mail-context.ts';

export interface BookingOptions {
  now: Date;
  /** Upcoming (pending or confirmed) bookings one e-mail address (its canonical form) may hold. */
  maxActivePerEmail: number;
  /** What the confirmation e-mails are composed with (the app's `app.mail`). */
  mail: MailContext;
  /** Draws a booking reference (tests pass their own to force a collision). */
  newReference?: () => string;
  /**
   * At most this many online bookings by new customers (no earlier completed booking for the
   * canonical e-mail or phone) across all clients in any rolling hour (ONLINE_NEW_BOOKINGS_PER_HOUR); 0 or absent:
   * no brake.
   */
  onlineNewBookingsPerHour?: number;
  /**
   * Where the booking comes from: 'online' (the wizard and the API, the default) is subject to
   * the hourly brake; 'staff' (a booking taken by staff, issue 21) is neither braked nor counted.
   */
  source?: 'online' | 'staff' | 'plan';
  /**
   * A booking taken by staff in the dashboard (issue 21; implies source 'staff'): who took it, the
   * van or bay chosen (absent: the engine chooses) and a price adjustment with its reason. The
   * e-mail is optional, the window starts at the next whole hour today, and the booking is
   * confirmed at once.
   */
  staff?: StaffBookingExtras;
  /**
   * BOOKING_CONFIRMATION=email (issue 23): a new customer's online booking holds its place only
   * `withinMs` unless they confirm it from their e-mail; absent or not `required`: no such step.
   */
  emailConfirmation?: { required: boolean; withinMs: number };
  /**
   * A visit booked by a maintenance plan (issue 43; implies source 'plan'): neither braked nor
   * held to the cap of upcoming bookings, never the first-service discount but the plan's own
   * (PLAN_DISCOUNT_PERCENT, 0: none), its status as given, and no e-mail needed (the plan's
   * booking may have been taken by staff for a customer without one).
   */
  plan?: { status: 'pending' | 'confirmed'; discountPercent: number };
  /**
   * A place offered to a waitlist entry (issue 43): booked in status 'offered', holding its place
   * until `expiresAt` for the customer to confirm, with the "a time opened up" e-mail instead of
   * the confirmation (which their confirmation sends). Not braked (the customer asked for nothing
   * just now) but held to the cap of upcoming bookings like any online booking.
   */
  offer?: { expiresAt: Date };
}

export interface StaffBookingExtras {
  by: string;
  resourceId?: string;
  priceAdjustment?: PriceAdjustment | null;
}

/** The 429 of the hourly brake: the customer is asked to phone instead. */
export function newCustomerBrakeHit(phone: string): AppError {
  return new AppError(
    429,
    'TOO_MANY_NEW_BOOKINGS',
    `We are taking a lot of online bookings right now. Please call us on ${phone} and we will book you in.`,
    [],
    { 'retry-after': '600' },
  );
}

/**
 * A reference already taken is drawn again; with 8.5 × 10^11 references a second collision in a
 * row is all but impossible, so running out of attempts means something else is wrong.
 */
const REFERENCE_ATTEMPTS = 5;

/** Text fields are stored without surrounding spaces; everything else as sent (the vehicles are trimmed by jobOf). */
function normalise(input: BookingInput): BookingInput {
  const trimmed = { ...input };
  for (const [key, value] of Object.entries(trimmed)) {
    if (typeof value === 'string') (trimmed as Record<string, unknown>)[key] = value.trim();
  }
  return trimmed;
}

export async function createBooking(db: Kysely<Database>, raw: BookingInput, options: BookingOptions): Promise<Booking> {
  const input = normalise(raw);
  const staff = options.staff;
  const window = staff ? staffBookingWindow(options.now) : bookingWindow(options.now);
  const plan = options.plan;
  const source = staff ? 'staff' : plan ? 'plan' : (options.source ?? 'online');
  const ruleErrors = validateBooking(input, window, { emailOptional: staff !== undefined || (plan !== undefined && input.email === '') });
  const errors = staff ? [...ruleErrors, ...staffStartErrors(input, window, ruleErrors), ...adjustmentErrors(staff.priceAdjustment)] : ruleErrors;
  if (errors.length > 0) throw validationFailed(errors);
  // The job, vehicle by vehicle, line by line: its price and the minutes it holds the van or bay.
  const { vehicles } = jobOf(input);
  const lines = jobLines(vehicles);
  if (lines === undefined) throw validationFailed([{ field: 'service', message: MESSAGES.serviceUnknown }]);
  const durationMinutes = linesMinutes(lines);
  const first = vehicles[0]!;
  const kind = kindOf(input.serviceType);
  const newReference = options.newReference ?? newBookingReference;

  return inTransaction(db, async (trx) => {
    // Locks in one order (address, the brake when it applies, then the kind's day) so two
    // bookings cannot deadlock.
    const offer = options.offer;
    const braked = source === 'online' && !offer && (options.onlineNewBookingsPerHour ?? 0) > 0;
    // The customer is the canonical e-mail and phone (migrations/013): `bob+1@x.com` and
    // `B.o.b@googlemail.com` are the customers `bob@x.com` and `bob@gmail.com`.
    const customerIdentity = { email: input.email, phone: input.phone };
    if (braked) await lockEmailBrakeAndPlacement(trx, customerIdentity, input.date, kind);
    else await lockEmailAndPlacement(trx, customerIdentity, input.date, kind);
    // Everything the rules read under those locks, in one round trip: the customer's bookings,
    // the brake's count, whether bookings that day lapse now, and the day's schedule.
    const read = await newBookingFacts(trx, customerIdentity, todayInAuckland(options.now), {
      date: input.date,
      span: placementSpan(input.date),
      now: options.now,
      countNewCustomers: braked,
    });
    const customer = read.customer;
    if (!plan && customer.upcoming >= options.maxActivePerEmail) {
      const message = tooManyActiveBookings(options.maxActivePerEmail);
      throw conflict(message, [{ field: 'email', message }]);
    }
    // Online and never served: counted, under the brake's lock, against the rolling hour.
    const newCustomer = source === 'online' && !customer.hasCompleted;
    if (braked && newCustomer && read.newCustomersLastHour! >= options.onlineNewBookingsPerHour!) {
      throw newCustomerBrakeHit(options.mail.business.phone);
    }
    // Bookings on that day whose customers never confirmed them give their places up first (and
    // the schedule is read again without them).
    if (read.lapsable) await queueLapsedWebhooks(trx, await lapseUnconfirmed(trx, options.now, input.date), options.mail);
    // On site: the zone of the postcode (a 400 when it is in none), which prices the travel and
    // tells the engine where the van must drive from and to.
    const zone = kind === 'onsite' ? zoneOfJob(zonesOf(read.schedule), { postalCode: input.postalCode, business: options.mail.business }) : null;
    const request = { kind, date: input.date, time: input.time, durationMinutes, zoneId: zone?.id ?? null, ...(staff?.resourceId ? { resourceId: staff.resourceId } : {}) };
    const placement = await placeJob(trx, request, read.lapsable ? undefined : read.schedule);
    // Under the address's lock: of two first bookings sent at once, the second waits and then
    // sees the first.
    const listed = quoteForJob(presentLines(lines, vehicles), !plan && !customer.hasActive, zone?.travelFeeCents ?? 0);
    const quote = withAdjustment(plan ? withPlanDiscount(listed, plan.discountPercent) : listed, staff?.priceAdjustment ?? null);
    if (quote.totalCents < 0) throw validationFailed([{ field: 'priceAdjustmentCents', message: STAFF_BOOKING_MESSAGES.totalNegative }]);
    const booking = {
      // The single-vehicle columns hold the first vehicle's package, as the original API reads them.
      ...bookingColumnsOf({ ...input, service: first.service, coatingType: first.coatingType, vehicleType: first.vehicleType, selectedVehicleType: first.selectedVehicleType }),
      vehicles: JSON.stringify(vehicles),
      lines: JSON.stringify(lines),
      list_price_cents: quote.listPriceCents,
      discount_cents: quote.discountCents,
      travel_fee_cents: quote.travelFeeCents,
      total_cents: quote.totalCents,
      discount_kind: quote.discount?.kind ?? null,
      discount_percent: quote.discount?.percent ?? null,
      new_customer: newCustomer,
      ...(plan ? { source: 'plan', status: plan.status } : {}),
      ...(offer ? { status: 'offered', offer_expires_at: offer.expiresAt } : {}),
      ...(!staff && !offer && newCustomer && options.emailConfirmation?.required
        ? { awaiting_email_until: new Date(options.now.getTime() + options.emailConfirmation.withinMs) }
        : {}),
      ...(staff
        ? {
            source: 'staff',
            created_by: staff.by,
            status: 'confirmed',
            price_adjustment_cents: quote.adjustment?.cents ?? 0,
            price_adjustment_reason: quote.adjustment?.reason ?? null,
          }
        : {}),
      ...placement,
    };
    // The id is drawn here, so that the manage link (derived from it) is written with the row.
    const id = randomUUID();
    const link = await newManageLink(trx, id, options.mail.manageKey);
    const identity = { id, manage_nonce: link.nonce, manage_token_hash: link.tokenHash };
    for (let attempt = 1; attempt <= REFERENCE_ATTEMPTS; attempt++) {
      const stored = await insertBookingUnlessReferenceTaken(trx, { ...booking, ...identity, reference: newReference() });
      if (stored) {
        // The confirmation, the staff notification and the reminder are written with the booking
        // (for an offer, the offer's e-mail: the rest when the customer confirms it).
        await queueBookingMail(trx, offer ? { type: 'offered', bookingId: stored.id, booking: stored } : { type: 'created', webhooks: read.webhooks, bookingId: stored.id, booking: stored }, options.mail);
        // A customer who books a date another way leaves that date's waitlist.
        if (!offer && read.waiting) await leaveOnBooking(trx, stored.email, stored.date);
        return stored;
      }
    }
    throw new Error(`No free booking reference in ${REFERENCE_ATTEMPTS} attempts`);
  });
}

export function listBookings(db: Kysely<Database>): Promise<Booking[]> {
  return listAllBookings(db);
}
