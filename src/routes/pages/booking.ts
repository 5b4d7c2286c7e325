/**
 * /booking: the wizard page, and its steps posted without JavaScript. Each post carries the whole
 * form state (the other steps' values ride along as hidden fields) plus the step it came from; the
 * server checks that step with the shared rules and answers with the next step, or the same step
 * with its messages. The last step books through the same service as POST /v1/create-booking and
 * redirects home (POST/redirect/GET). Step 3 carries a submission token made when it is rendered
 * (always per request: it is the answer to a step-2 post), so that the same form posted twice
 * (a double click, a resubmission) makes one booking and gets the same redirect.
 *
 * The waitlist (issue 43): step 2 for a date on which no start fits offers it (action 'waitlist',
 * with the part of the day); step 3 then carries the part and joins the waitlist through the same
 * service as POST /v1/waitlist, under the same budget as a booking, and answers with its message
 * (the same token posted twice gets the same answer).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { withSlotError } from '../../domain/availability.ts';
import {
  BOOKING_LIMITS,
  completeVehicle,
  emptyWizard,
  isCalendarDate,
  jobBody,
  stepOfField,
  validateDetailsStep,
  validateScheduleStep,
  validateVehiclesStep,
  vehicleFormName,
  wizardField,
  type BookingTextField,
  type WizardInput,
} from '../../domain/booking-rules.ts';
import { findAddOn } from '../../domain/add-ons.ts';
import { MAX_VEHICLES, VEHICLE_TEXT_LIMITS, emptyVehicle, type VehicleChoice } from '../../domain/job.ts';
import { bookingWindow } from '../../domain/booking-dates.ts';
import { PACKAGES } from '../../domain/catalogue.ts';
import { HONEYPOT_FIELD } from '../../domain/forms.ts';
import { MESSAGES } from '../../domain/messages.ts';
import { areaAnswer, postcodeOf, type AreaAnswer } from '../../domain/service-area.ts';
import { listZones } from '../../db/service-zones.repository.ts';
import { AppError, formError, isConnectionError } from '../../errors.ts';
import { availabilityOn, jobQuery } from '../../services/scheduling.service.ts';
import { joinWaitlist } from '../../services/waitlist.service.ts';
import { WAITLIST_MESSAGES, WAITLIST_PARTS, WAITLIST_WIZARD_MESSAGES, type WaitlistPart } from '../../domain/waitlist.ts';
import { createBooking } from '../../services/booking.service.ts';
import { answerOnce } from '../../services/idempotency.service.ts';
import { submissionKey } from '../v1/idempotency.ts';
import { formPostOnly } from './form-post.ts';
import { quoteForWizard } from '../../services/quote.service.ts';
import type { Quote } from '../../domain/pricing.ts';
import type { BookingState, WizardStep } from '#client/page-state.ts';
import { bookingReceivedUrl } from './home.ts';

const textFields = Object.fromEntries(
  Object.entries(BOOKING_LIMITS).map(([field, max]) => [field, Type.Optional(Type.String({ maxLength: max }))]),
);

/** A vehicle's fields in the form besides its add-ons, with their limits (the first vehicle's package fields are in BOOKING_LIMITS). */
const VEHICLE_FORM_LIMITS = {
  service: BOOKING_LIMITS.service,
  coatingType: BOOKING_LIMITS.coatingType,
  vehicleType: BOOKING_LIMITS.vehicleType,
  selectedVehicleType: BOOKING_LIMITS.selectedVehicleType,
  ...VEHICLE_TEXT_LIMITS,
};
type VehicleFormField = keyof typeof VEHICLE_FORM_LIMITS;
const VEHICLE_INDEXES = Array.from({ length: MAX_VEHICLES }, (_, i) => i);
/** A repeated checkbox posts an array, a single one a string. */
const addOnsField = Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Array(Type.String({ maxLength: 40 }), { maxItems: 10 })]));

/** Each vehicle's controls by their form names (see WizardInput): `plate`, `vehicles[1][plate]`. */
const vehicleFields = Object.fromEntries(
  VEHICLE_INDEXES.flatMap((i) => [
    ...Object.entries(VEHICLE_FORM_LIMITS).map(([field, max]) => [vehicleFormName(i, field), Type.Optional(Type.String({ maxLength: max }))]),
    [vehicleFormName(i, 'addOns'), addOnsField],
  ]),
);

/** Step 1's buttons besides Continue: another vehicle, or one of the later ones removed. */
const VEHICLE_ACTIONS = ['add-vehicle', ...VEHICLE_INDEXES.slice(1).map((i) => `remove-${i}`)] as const;

const BookingForm = Type.Object(
  {
    ...textFields,
    ...vehicleFields,
    saveAddress: Type.Optional(Type.Literal('on')),
    [HONEYPOT_FIELD]: Type.Optional(Type.String({ maxLength: 200 })),
    step: Type.Optional(Type.Union([Type.Literal('1'), Type.Literal('2'), Type.Literal('3')])),
    // 'dropoff': step 2's offer when the vans do not come to the postcode, which keeps everything entered.
    // 'waitlist': step 2's offer when no start fits the date (issue 43).
    action: Type.Optional(Type.Union([...['next', 'back', 'dropoff', 'waitlist', ...VEHICLE_ACTIONS].map((action) => Type.Literal(action))])),
    // The waitlist's part of the day: step 2's choice, and on step 3 joining the waitlist instead of booking.
    part: Type.Optional(Type.Union(WAITLIST_PARTS.map((part) => Type.Literal(part)))),
    submission: Type.Optional(submissionKey("Step 3's submission token")),
  },
  { additionalProperties: false },
);

type BookingFormBody = Partial<Record<BookingTextField, string>> & {
  saveAddress?: 'on';
  [HONEYPOT_FIELD]?: string;
  step?: '1' | '2' | '3';
  action?: string;
  submission?: string;
  part?: WaitlistPart;
} & Record<string, string | string[] | undefined>;

function isFinalStep(body: BookingFormBody | undefined): boolean {
  return typeof body === 'object' && body !== null && body.step === '3' && (body.action ?? 'next') === 'next';
}

function findPackageParam(value: string | undefined) {
  if (!value) return undefined;
  const wanted = value.trim().toLowerCase();
  return PACKAGES.find((pkg) => pkg.id === wanted || pkg.name.toLowerCase() === wanted);
}

interface StateExtras {
  /** Step 2 for a date already chosen: that date's times. */
  availability?: BookingState['availability'];
  /** Step 3: the form's submission token. */
  submission?: string | null;
  /** Step 3: the server's quote. */
  quote?: Quote | null;
  /** Step 2 on site: whether the vans come to the postcode. */
  area?: AreaAnswer | null;
  /** The waitlist's part of the day (step 3: joining it). */
  waitlist?: WaitlistPart | null;
  /** The waitlist joined: its message. */
  joined?: string;
}

function state(now: Date, step: WizardStep, values: WizardInput, errors: BookingState['errors'] = [], message: string | null = null, extras: StateExtras = {}): BookingState {
  const window = bookingWindow(now);
  return {
    step,
    values,
    errors,
    formError: message,
    minDate: window.min,
    maxDate: window.max,
    availability: extras.availability ?? null,
    submission: extras.submission ?? null,
    quote: extras.quote ?? null,
    area: extras.area ?? null,
    waitlist: extras.waitlist ?? null,
    joined: extras.joined ?? null,
  };
}

/** Vehicle `i` of the form, or undefined when the form has none of its controls (every vehicle posts its make). */
function vehicleOfForm(body: BookingFormBody, i: number): VehicleChoice | undefined {
  const names = [...Object.keys(VEHICLE_FORM_LIMITS), 'addOns'].map((field) => vehicleFormName(i, field));
  if (i > 0 && !names.some((name) => body[name] !== undefined)) return undefined;
  const vehicle = emptyVehicle();
  for (const field of Object.keys(VEHICLE_FORM_LIMITS) as VehicleFormField[]) {
    const value = body[vehicleFormName(i, field)];
    if (typeof value === 'string') vehicle[field] = value;
  }
  vehicle.addOns = [body[vehicleFormName(i, 'addOns')] ?? []].flat();
  return vehicle;
}

/** The text fields that are not a vehicle's. */
const WIZARD_TEXT_FIELDS = (Object.keys(BOOKING_LIMITS) as BookingTextField[]).filter(
  (field): field is Exclude<BookingTextField, VehicleFormField> => !(field in VEHICLE_FORM_LIMITS),
);

function valuesOf(body: BookingFormBody): WizardInput {
  const values = emptyWizard();
  for (const field of WIZARD_TEXT_FIELDS) {
    const value = body[field];
    if (typeof value === 'string') values[field] = value;
  }
  values.saveAddress = body.saveAddress === 'on';
  values.vehicles = VEHICLE_INDEXES.map((i) => vehicleOfForm(body, i)).filter((vehicle) => vehicle !== undefined);
  return values;
}

/** The wizard opened for a package or an add-on: the add-on with that package when it fits, else the first package it fits. */
function chosenStart(packageParam: string | undefined, addOnParam: string | undefined): WizardInput {
  const values = emptyWizard();
  const pkg = findPackageParam(packageParam);
  const addOn = addOnParam ? findAddOn(addOnParam.trim()) : undefined;
  const service = addOn && !addOn.fits.includes(pkg?.name ?? '') ? addOn.fits[0] : pkg?.name;
  if (service) values.vehicles = [completeVehicle({ ...emptyVehicle(), service, addOns: addOn ? [addOn.id] : [] })];
  return values;
}

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/booking',
    { schema: { hide: true, querystring: Type.Object({ package: Type.Optional(Type.String({ maxLength: 80 })), addOn: Type.Optional(Type.String({ maxLength: 80 })) }) } },
    (request, reply) => {
      const now = app.now();
      const start = chosenStart(request.query.package, request.query.addOn);
      const [first] = start.vehicles;
      const pkg = findPackageParam(first?.service);
      const addOn = first?.addOns[0];
      // The earliest date changes at midnight in Auckland, so the day is part of the variant; the
      // state is only built when that variant is not cached yet. The page without a package is
      // the same for everyone until then (the form guard's cookie aside): the lean path sends it
      // while its earliest date is still the day's, and so does each package's page at the
      // address the site links to (`?package=` and the package's id).
      const earliest = bookingWindow(now).min;
      return reply.page({
        state: () => state(now, 1, start),
        cacheKey: `${pkg?.id ?? ''}|${addOn ?? ''}|${earliest}`,
        setCookie: app.formGuard.cookie,
        everyone: true,
        address: addOn ? `/booking?addOn=${addOn}` : pkg ? `/booking?package=${pkg.id}` : '/booking',
        current: () => bookingWindow(app.now()).min === earliest,
      });
    },
  );

  app.post(
    '/booking',
    {
      // Only the last step writes a booking, so only it spends the booking budget; the steps
      // before it (and Back) have a generous budget of their own. Step 2's Next shows the price,
      // and spends the quote budget as well (in the handler, once the step is valid).
      config: { limit: (request) => (isFinalStep(request.body as BookingFormBody | undefined) ? 'booking' : 'wizardStep') },
      onRequest: formPostOnly,
      schema: { hide: true, body: BookingForm },
    },
    async (request, reply) => {
      const now = app.now();
      const body = request.body as BookingFormBody;
      const step = Number(body.step ?? '1') as WizardStep;
      let values = valuesOf(body);
      // The waitlist's part of the day as posted (issue 43): step 2's choice, or step 3 joining the waitlist.
      let waitlist = body.part ?? null;
      const render = (status: number, next: BookingState) => reply.page({ status, state: next, cacheKey: false });
      // Step 3 shows the server's quote for the e-mail already entered (the list price before).
      const detailsStep = async (status: number, submission: string, errors: BookingState['errors'] = [], message: string | null = null) =>
        render(status, state(now, 3, values, errors, message, { submission, quote: await quoteForWizard(app.db, jobBody(values), app.config.business), waitlist }));

      /** Step 2 for a date already chosen shows that date's times as they stand (no JavaScript needed). */
      const availabilityOf = async (date: string): Promise<BookingState['availability']> => {
        if (!isCalendarDate(date)) return null;
        try {
          const { vehicles } = values;
          return await availabilityOn(app.db, date, jobQuery(
              {
                service: vehicles.map((v) => v.service),
                vehicleType: vehicles.map((v) => v.vehicleType),
                coatingType: vehicles.map((v) => v.coatingType),
                addOns: vehicles.map((v) => v.addOns.join(',')),
                serviceType: values.serviceType || undefined,
                postalCode: values.postalCode,
              },
              app.config.business,
            ), now);
        } catch (caught) {
          // The times are a help on this step; booking itself says when the database is away, or
          // what is wrong with a job that cannot be asked about.
          if (!isConnectionError(caught) && !(caught instanceof AppError)) throw caught;
          return null;
        }
      };
      /** Step 2 on site: whether the vans come to a 4-digit postcode (none asked otherwise, nor with the database away). */
      const areaOf = async (): Promise<AreaAnswer | null> => {
        if (values.serviceType !== 'onsite' || postcodeOf(values.postalCode) === undefined) return null;
        try {
          return areaAnswer(await listZones(app.db), values.postalCode, app.config.business);
        } catch (caught) {
          if (!isConnectionError(caught)) throw caught;
          return null;
        }
      };
      const stepTwo = async (status: number, errors: BookingState['errors'] = [], message: string | null = null) =>
        render(status, state(now, 2, values, errors, message, { availability: await availabilityOf(values.date), area: await areaOf(), waitlist }));

      if (body.action === 'dropoff') {
        values.serviceType = 'dropoff';
        return stepTwo(200);
      }
      if (body.action === 'back') {
        const previous = Math.max(1, step - 1) as WizardStep;
        return previous === 2 ? stepTwo(200) : render(200, state(now, previous, values));
      }

      if (body.action === 'add-vehicle' || body.action?.startsWith('remove-')) {
        const removed = Number(body.action.slice('remove-'.length));
        if (body.action === 'add-vehicle' && values.vehicles.length < MAX_VEHICLES) values.vehicles.push(emptyVehicle());
        else if (removed > 0) values.vehicles.splice(removed, 1);
        return render(200, state(now, 1, values));
      }
      if (step === 1) {
        values = { ...values, vehicles: values.vehicles.map(completeVehicle) };
        const errors = validateVehiclesStep(values);
        return errors.length > 0 ? render(400, state(now, 1, values, errors)) : stepTwo(200);
      }
      if (step === 2) {
        const [availability, area] = [await availabilityOf(values.date), await areaOf()];
        // The waitlist's offer (issue 43) takes the step's rules but the time, for a date on which no start fits.
        const joining = body.action === 'waitlist';
        const scheduleErrors = validateScheduleStep(values, bookingWindow(now));
        const errors = joining ? scheduleErrors.filter((error) => error.field !== 'time') : withSlotError(scheduleErrors, availability?.slots ?? null, values.time);
        if (joining && availability?.slots.some((slot) => slot.available)) errors.push({ field: 'time', message: WAITLIST_WIZARD_MESSAGES.timeFree });
        // Outside the service area the times mean nothing: the postcode comes first.
        if (area?.served === false) errors.unshift({ field: 'postalCode', message: area.message });
        if (errors.length > 0) return render(400, state(now, 2, values, errors, null, { availability, area, waitlist }));
        if (joining) {
          waitlist ??= 'any';
          values.time = '';
        } else {
          waitlist = null;
        }
        // Step 3 shows the quote, which tells whether the e-mail has booked before: the same budget
        // as POST /v1/quote, so that the probe runs at the documented rate whatever the door.
        try {
          await app.limits.spend(request, 'quote');
        } catch (caught) {
          const error = formError(caught);
          if (!error || error.statusCode !== 429) throw caught;
          reply.headers(error.headers);
          return render(429, state(now, 2, values, [], error.message, { availability, area, waitlist }));
        }
        return detailsStep(200, randomUUID());
      }
      // A step 3 shown again keeps its token while nothing was booked with it.
      const submission = body.submission ?? randomUUID();
      const errors = validateDetailsStep(values);
      if (errors.length > 0) return detailsStep(400, submission, errors);
      try {
        app.formGuard.check(request, reply, body[HONEYPOT_FIELD]);
        const payload = jobBody(values);
        if (waitlist) {
          // Joining the waitlist: the same service as POST /v1/waitlist; the same token posted again gets the same answer.
          const part = waitlist;
          const joined = await answerOnce(app.db, { scope: 'waitlist-form', key: body.submission, payload: { ...payload, part } }, async (trx) => {
            const entry = await joinWaitlist(trx, { ...payload, part }, app.waitlistOptions());
            request.log.info({ waitlistEntryId: entry.id, date: entry.date }, 'waitlist joined (form post)');
            return { status: 200, body: { message: WAITLIST_MESSAGES.joined(entry.date, part) } };
          });
          if (joined.replayed) request.log.info('waitlist form posted again; the first answer is repeated');
          return render(joined.status, state(now, 3, values, [], null, { waitlist, joined: joined.body.message }));
        }
        const answer = await answerOnce(app.db, { scope: 'booking-form', key: body.submission, payload }, async (trx) => {
          const booking = await createBooking(trx, payload, {
            now,
            maxActivePerEmail: app.config.maxActiveBookingsPerEmail,
            mail: app.mail,
            onlineNewBookingsPerHour: app.config.onlineNewBookingsPerHour,
            emailConfirmation: app.config.emailConfirmation,
          });
          request.log.info({ bookingId: booking.id, service: booking.service, date: booking.date }, 'booking created (form post)');
          return { status: 303, body: { location: bookingReceivedUrl(booking.reference, booking.awaiting_email_until !== null) } };
        });
        if (answer.replayed) request.log.info('booking form posted again; the first answer is repeated');
        return reply.redirect(answer.body.location, answer.status);
      } catch (caught) {
        const error = formError(caught);
        if (!error) throw caught;
        // The token was used for other details (the page kept by the browser after a booking,
        // then changed): nothing is booked until the visitor sends them again, with a new token.
        if (error.code === 'IDEMPOTENCY_KEY_REUSED') return detailsStep(422, randomUUID(), [], MESSAGES.submissionChanged);
        const errors = error.errors.map(wizardField);
        const target = errors[0] ? stepOfField(errors[0].field) : 3;
        const message = errors.length === 0 || error.statusCode === 409 ? error.message : null;
        reply.headers(error.headers);
        if (target === 2) return stepTwo(error.statusCode, errors, message);
        if (target === 3) return detailsStep(error.statusCode, submission, errors, message);
        return render(error.statusCode, state(now, target, values, errors, message));
      }
    },
  );
};

export default route;
