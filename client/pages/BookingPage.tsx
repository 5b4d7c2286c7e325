/**
 * Booking (spec sections 2, 4 and 5): the three-step wizard. One HTML form holds the current
 * step's controls and the other steps' values as hidden fields, so without JavaScript each
 * Continue posts to /booking and the server answers with the next step (or the same one with its
 * messages). Once hydrated the steps change in the browser with the same shared rules, and the
 * booking is sent to /v1/create-booking; the server's answer decides. A retry of the same booking
 * (after a network failure) carries the same Idempotency-Key, so it is never booked twice. A date
 * on which no start fits offers its waitlist (issue 43): step 3 then joins it instead of booking
 * (POST /v1/waitlist, or the same form post), and its message replaces the form.
 */
import { Honeypot } from '../components/Honeypot.tsx';
import { useEffect, useRef, useState, type FormEvent, type MouseEvent } from 'react';
import {
  ADDRESS_FIELDS,
  completeVehicle,
  validateDetailsStep,
  validateVehiclesStep,
  vehicleFormName,
  type WizardInput,
} from '#domain/booking-rules.ts';
import { PACKAGES } from '#domain/catalogue.ts';
import { MESSAGES, type FieldError } from '#domain/messages.ts';
import { focusFirstError } from '../components/field-errors.ts';
import { Icon } from '../components/Icon.tsx';
import { BookingSummary } from '../components/booking/BookingSummary.tsx';
import { laterSteps, loadLaterSteps, type LaterStepsModule } from '../components/booking/later-steps-loader.ts';
import { VehiclesStep } from '../components/booking/VehiclesStep.tsx';
import { WizardProgress } from '../components/booking/WizardProgress.tsx';
import { ID } from '../components/booking/types.ts';
import { useQuote } from '../components/booking/use-quote.ts';
import { showToast } from '../lib/toast.ts';
import { useHydrated } from '../lib/use-hydrated.ts';
import type { PageProps } from '../page-props.ts';
import type { BookingState, WizardStep } from '../page-state.ts';
import './BookingPage.css';

const STEP_HEADINGS: Record<WizardStep, string> = {
  1: 'Your vehicles',
  2: 'Choose Date, Time & Location',
  3: 'Your Details',
};

const STEP_CONTROLS: Record<WizardStep, readonly (keyof WizardInput)[]> = {
  1: ['vehicles'],
  2: ['date', 'time', 'serviceType', ...ADDRESS_FIELDS, 'landmark', 'saveAddress'],
  3: ['name', 'email', 'phone', 'notes'],
};


/**
 * The values of the other steps, carried as hidden fields so that a plain form post keeps them,
 * and step 3's submission token (see BookingState).
 */
function HiddenValues({ values, step, submission }: { values: WizardInput; step: WizardStep; submission: string | null }) {
  const shown = STEP_CONTROLS[step];
  return (
    <>
      <input type="hidden" name="step" value={step} />
      {step === 3 && submission && <input type="hidden" name="submission" value={submission} />}
      {step > 1 &&
        values.vehicles.flatMap((vehicle, i) =>
          (['service', 'coatingType', 'vehicleType', 'selectedVehicleType', 'make', 'model', 'colour', 'plate', 'addOns'] as const).flatMap((field) =>
            [vehicle[field]].flat().map((value) => <input key={`${i}${field}${value}`} type="hidden" name={vehicleFormName(i, field)} value={value} />),
          ),
        )}
      {(Object.keys(values) as (keyof WizardInput)[])
        .filter((key) => !shown.includes(key) && key !== 'vehicles')
        .map((key) =>
          key === 'saveAddress' ? (
            values.saveAddress && <input key={key} type="hidden" name={key} value="on" />
          ) : (
            <input key={key} type="hidden" name={key} value={values[key] as string} />
          ),
        )}
    </>
  );
}




/** Before hydrating a page the server rendered at step 2 or 3, that step's code is loaded. */
export async function prepare(state: BookingState): Promise<void> {
  if (state.step > 1) await loadLaterSteps();
}

export default function BookingPage({ business, state }: PageProps<BookingState>) {
  const hydrated = useHydrated();
  const [later, setLater] = useState(laterSteps);
  const [step, setStep] = useState<WizardStep>(state.step);
  const [values, setValues] = useState<WizardInput>(state.values);
  const [errors, setErrors] = useState<FieldError[]>(state.errors);
  const [formError, setFormError] = useState<string | null>(state.formError);
  const [loading, setLoading] = useState(false);
  // Whether the vans come to the on-site postcode (issue 40): step 2 asks, the price adds its fee.
  const [area, setArea] = useState(state.area);
  // The waitlist's part of the day: on step 3, joining it rather than booking; then its message.
  const [waitlist, setWaitlist] = useState(state.waitlist);
  const [joined, setJoined] = useState(state.joined);
  // Made with the later steps' chunk (loaded before step 3 can be submitted) to keep this one small.
  const send = useRef<ReturnType<LaterStepsModule['bookingSender']>>(undefined);
  const heading = useRef<HTMLHeadingElement>(null);
  const previousStep = useRef(step);
  const [quote, serverQuote] = useQuote(values, state.quote, state.values, area);

  const update = (change: Partial<WizardInput>) => setValues((current) => ({ ...current, ...change }));

  useEffect(() => {
    // A package passed as navigation state (the original pricing page's way) preselects it too.
    const passed: unknown = window.history.state?.package;
    const pkg = typeof passed === 'string' ? PACKAGES.find((p) => p.name === passed || p.id === passed) : undefined;
    if (pkg) setValues((current) => (current.vehicles[0]!.service ? current : { ...current, vehicles: [completeVehicle({ ...current.vehicles[0]!, service: pkg.name })] }));
  }, []);


  useEffect(() => {
    // Steps 2 and 3 are fetched while the customer chooses on step 1.
    loadLaterSteps().then(setLater, () => undefined);
  }, []);

  useEffect(() => {
    if (previousStep.current === step) return;
    previousStep.current = step;
    heading.current?.focus();
    heading.current?.scrollIntoView({ block: 'nearest' });
  }, [step]);

  /** Any step change clears the errors (spec section 4). */
  const goTo = (next: WizardStep) => {
    setErrors([]);
    setFormError(null);
    setStep(next);
  };

  const showErrors = (found: FieldError[]) => {
    setErrors(found);
    focusFirstError(ID, found);
  };

  const submitBooking = async () => {
    setLoading(true);
    try {
      send.current ??= (await loadLaterSteps()).bookingSender();
    } catch {
      setFormError(MESSAGES.networkError);
      void showToast('error', MESSAGES.networkError);
      setLoading(false);
      return;
    }
    const refusal = await send.current(values, waitlist);
    setJoined(refusal.joined ?? null);
    setStep(refusal.step);
    setErrors(refusal.errors);
    setFormError(refusal.formError);
    setLoading(false);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (loading) return;
    if (step === 1) {
      const completed = { ...values, vehicles: values.vehicles.map(completeVehicle) };
      const found = validateVehiclesStep(completed);
      if (found.length > 0) return showErrors(found);
      setValues(completed);
      if (later) return goTo(2);
      loadLaterSteps().then(
        (loaded) => {
          setLater(loaded);
          goTo(2);
        },
        () => setFormError(MESSAGES.networkError),
      );
    } else if (step === 2) {
      const found = later!.scheduleErrors(values, { min: state.minDate, max: state.maxDate }, area);
      if (found.length > 0) return showErrors(found);
      setWaitlist(null);
      goTo(3);
    } else {
      const found = validateDetailsStep(values);
      if (found.length > 0) return showErrors(found);
      setErrors([]);
      void submitBooking();
    }
  };

  /** Step 2's waitlist offer: step 3 joins it, once the step's fields but the time are right. */
  const joinWaitlist = () => {
    const found = later!.scheduleErrors(values, { min: state.minDate, max: state.maxDate }, area).filter((error) => error.field !== 'time');
    if (found.length > 0) return showErrors(found);
    setWaitlist((part) => part ?? 'any');
    goTo(3);
  };

  const onPrevious = (event: MouseEvent) => {
    event.preventDefault();
    goTo((step - 1) as WizardStep);
  };

  return (
    <section className="section booking" aria-labelledby="page-title">
      <div className="container">
        <a className="text-link back-link" href="/">
          <Icon name="arrow" size={18} /> Back to Home
        </a>
        <h1 id="page-title">Book Your Service</h1>
        {!joined && <WizardProgress step={step} />}
        <div className="booking-grid">
          {joined && later ? <later.WaitlistJoined message={joined} /> : <form className="card form wizard" method="post" action="/booking" noValidate={hydrated} onSubmit={onSubmit} aria-labelledby="step-title">
            <h2 id="step-title" ref={heading} tabIndex={-1}>
              {STEP_HEADINGS[step]}
            </h2>
            {formError && (
              <p className="notice notice-error" role="alert">
                {formError}
              </p>
            )}
            {/* Enter in a vehicle's field continues: the form's default button is its first submit
                button, and step 1's Add and Remove come before Continue. */}
            {step === 1 && (
              <button type="submit" name="action" value="next" hidden>
                Continue
              </button>
            )}
            {step === 3 && <Honeypot />}
            {step === 1 && <VehiclesStep values={values} errors={errors} update={update} />}
            {step === 2 && later && (
              <later.ScheduleStep
                values={values}
                errors={errors}
                update={update}
                business={business}
                minDate={state.minDate}
                maxDate={state.maxDate}
                rejectDate={(message) => setErrors([{ field: 'date', message }])}
                initialAvailability={state.availability}
                hydrated={hydrated}
                area={area}
                setArea={setArea}
                waitlist={waitlist}
                setWaitlist={setWaitlist}
                joinWaitlist={joinWaitlist}
              />
            )}
            {step === 3 && later && <later.DetailsStep values={values} errors={errors} update={update} quote={quote} server={serverQuote} waitlist={waitlist} />}
            <HiddenValues values={values} step={step} submission={state.submission} />
            {step === 3 && waitlist && <input type="hidden" name="part" value={waitlist} />}
            {/* Continue comes first in the markup so that Enter in a field continues (the first
                submit button is the form's default); CSS puts Previous on the left. */}
            <div className="wizard-actions">
              <button type="submit" name="action" value="next" className="button button-accent button-large" disabled={loading}>
                {step === 1 ? 'Continue to Booking' : step === 2 ? 'Continue to Your Details' : loading ? 'Processing...' : waitlist ? later!.WAITLIST_WIZARD_MESSAGES.joinButton : 'Complete Booking'}
              </button>
              {step > 1 && (
                <button type="submit" name="action" value="back" formNoValidate className="button button-ghost" onClick={onPrevious}>
                  Previous Step
                </button>
              )}
            </div>
          </form>}
          <BookingSummary values={values} quote={quote} />
        </div>
      </div>
    </section>
  );
}
