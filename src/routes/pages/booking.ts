/**
 * /booking: the wizard page, and its steps posted without JavaScript. Each post carries the whole
 * form state (the other steps' values ride along as hidden fields) plus the step it came from; the
 * server checks that step with the shared rules and answers with the next step, or the same step
 * with its messages. The last step books through the same service as POST /v1/create-booking and
 * redirects home (POST/redirect/GET). Step 3 carries a submission token made when it is rendered
 * (always per request: it is the answer to a step-2 post), so that the same form posted twice
 * (a double click, a resubmission) makes one booking and gets the same redirect.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { withSlotError } from '../../domain/availability.ts';
import {
  BOOKING_LIMITS,
  completeServiceChoice,
  isCalendarDate,
  emptyBooking,
  stepOfField,
  validateDetailsStep,
  validateScheduleStep,
  validateServiceStep,
  type BookingInput,
  type BookingTextField,
} from '../../domain/booking-rules.ts';
import { bookingWindow } from '../../domain/booking-dates.ts';
import { PACKAGES } from '../../domain/catalogue.ts';
import { HONEYPOT_FIELD } from '../../domain/forms.ts';
import { MESSAGES } from '../../domain/messages.ts';
import { areaAnswer, postcodeOf, type AreaAnswer } from '../../domain/service-area.ts';
import { listZones } from '../../db/service-zones.repository.ts';
import { AppError, formError, isConnectionError } from '../../errors.ts';
import { availabilityOn, jobQuery } from '../../services/scheduling.service.ts';
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

const BookingForm = Type.Object(
  {
    ...textFields,
    saveAddress: Type.Optional(Type.Literal('on')),
    [HONEYPOT_FIELD]: Type.Optional(Type.String({ maxLength: 200 })),
    step: Type.Optional(Type.Union([Type.Literal('1'), Type.Literal('2'), Type.Literal('3')])),
    // 'dropoff': step 2's offer when the vans do not come to the postcode, which keeps everything entered.
    action: Type.Optional(Type.Union([Type.Literal('next'), Type.Literal('back'), Type.Literal('dropoff')])),
    submission: Type.Optional(submissionKey("Step 3's submission token")),
  },
  { additionalProperties: false },
);

type BookingFormBody = Partial<Record<BookingTextField, string>> & {
  saveAddress?: 'on';
  [HONEYPOT_FIELD]?: string;
  step?: '1' | '2' | '3';
  action?: 'next' | 'back' | 'dropoff';
  submission?: string;
};

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
}

function state(now: Date, step: WizardStep, values: BookingInput, errors: BookingState['errors'] = [], message: string | null = null, extras: StateExtras = {}): BookingState {
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
  };
}

function valuesOf(body: BookingFormBody): BookingInput {
  const values = emptyBooking();
  for (const field of Object.keys(BOOKING_LIMITS) as BookingTextField[]) {
    const value = body[field];
    if (typeof value === 'string') values[field] = value;
  }
  values.saveAddress = body.saveAddress === 'on';
  return values;
}

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/booking',
    { schema: { hide: true, querystring: Type.Object({ package: Type.Optional(Type.String({ maxLength: 80 })) }) } },
    (request, reply) => {
      const now = app.now();
      const pkg = findPackageParam(request.query.package);
      // The earliest date changes at midnight in Auckland, so the day is part of the variant; the
      // state is only built when that variant is not cached yet. The page without a package is
      // the same for everyone until then (the form guard's cookie aside): the lean path sends it
      // while its earliest date is still the day's, and so does each package's page at the
      // address the site links to (`?package=` and the package's id).
      const earliest = bookingWindow(now).min;
      return reply.page({
        state: () => state(now, 1, pkg ? completeServiceChoice({ ...emptyBooking(), service: pkg.name }) : emptyBooking()),
        cacheKey: `${pkg?.id ?? ''}|${earliest}`,
        setCookie: app.formGuard.cookie,
        everyone: true,
        address: pkg ? `/booking?package=${pkg.id}` : '/booking',
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
      const render = (status: number, next: BookingState) => reply.page({ status, state: next, cacheKey: false });
      // Step 3 shows the server's quote for the e-mail already entered (the list price before).
      const detailsStep = async (status: number, submission: string, errors: BookingState['errors'] = [], message: string | null = null) =>
        render(status, state(now, 3, values, errors, message, { submission, quote: await quoteForWizard(app.db, values, app.config.business) }));

      /** Step 2 for a date already chosen shows that date's times as they stand (no JavaScript needed). */
      const availabilityOf = async (date: string): Promise<BookingState['availability']> => {
        if (!isCalendarDate(date)) return null;
        try {
          return await availabilityOn(app.db, date, jobQuery(
              { service: values.service, vehicleType: values.vehicleType, coatingType: values.coatingType, serviceType: values.serviceType || undefined, postalCode: values.postalCode },
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
        render(status, state(now, 2, values, errors, message, { availability: await availabilityOf(values.date), area: await areaOf() }));

      if (body.action === 'dropoff') {
        values.serviceType = 'dropoff';
        return stepTwo(200);
      }
      if (body.action === 'back') {
        const previous = Math.max(1, step - 1) as WizardStep;
        return previous === 2 ? stepTwo(200) : render(200, state(now, previous, values));
      }

      if (step === 1) {
        values = completeServiceChoice(values);
        const errors = validateServiceStep(values);
        return errors.length > 0 ? render(400, state(now, 1, values, errors)) : stepTwo(200);
      }
      if (step === 2) {
        const [availability, area] = [await availabilityOf(values.date), await areaOf()];
        const errors = withSlotError(validateScheduleStep(values, bookingWindow(now)), availability?.slots ?? null, values.time);
        // Outside the service area the times mean nothing: the postcode comes first.
        if (area?.served === false) errors.unshift({ field: 'postalCode', message: area.message });
        if (errors.length > 0) return render(400, state(now, 2, values, errors, null, { availability, area }));
        // Step 3 shows the quote, which tells whether the e-mail has booked before: the same budget
        // as POST /v1/quote, so that the probe runs at the documented rate whatever the door.
        try {
          await app.limits.spend(request, 'quote');
        } catch (caught) {
          const error = formError(caught);
          if (!error || error.statusCode !== 429) throw caught;
          reply.headers(error.headers);
          return render(429, state(now, 2, values, [], error.message, { availability, area }));
        }
        return detailsStep(200, randomUUID());
      }
      // A step 3 shown again keeps its token while nothing was booked with it.
      const submission = body.submission ?? randomUUID();
      const errors = validateDetailsStep(values);
      if (errors.length > 0) return detailsStep(400, submission, errors);
      try {
        app.formGuard.check(request, reply, body[HONEYPOT_FIELD]);
        const answer = await answerOnce(app.db, { scope: 'booking-form', key: body.submission, payload: values }, async (trx) => {
          const booking = await createBooking(trx, values, {
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
        const first = error.errors[0];
        const target = first ? stepOfField(first.field) : 3;
        const message = error.errors.length === 0 || error.statusCode === 409 ? error.message : null;
        reply.headers(error.headers);
        if (target === 2) return stepTwo(error.statusCode, error.errors, message);
        if (target === 3) return detailsStep(error.statusCode, submission, error.errors, message);
        return render(error.statusCode, state(now, target, values, error.errors, message));
      }
    },
  );
};

export default route;
