/**
 * "Find my booking" (issue 22): a customer who lost the e-mail with their booking's link enters
 * their address, and the links to its upcoming bookings are e-mailed to it. The page always gives
 * the same answer, so it tells nobody whether an address has booked. With JavaScript the form
 * posts to POST /v1/find-booking and shows the answer in place; without it, it posts to the page,
 * which redirects to itself showing the answer (or comes back with the field's message).
 */
import { useState, type FormEvent } from 'react';
import { telHref } from '#domain/business.ts';
import { FIND_BOOKING_LIMITS, FIND_BOOKING_MESSAGES, validateFindBooking } from '#domain/find-booking-rules.ts';
import { MESSAGES, type FieldError } from '#domain/messages.ts';
import { TextField, errorFor, focusFirstError } from '../components/Field.tsx';
import { Honeypot } from '../components/Honeypot.tsx';
import { Icon } from '../components/Icon.tsx';
import { PageHero } from '../components/PageHero.tsx';
import { postJson } from '../lib/api.ts';
import { useHydrated } from '../lib/use-hydrated.ts';
import type { PageProps } from '../page-props.ts';
import type { FindBookingState } from '../page-state.ts';
import './FindBookingPage.css';

const ID = 'find';

export default function FindBookingPage({ business, state }: PageProps<FindBookingState>) {
  const hydrated = useHydrated();
  const [email, setEmail] = useState(state.email);
  const [errors, setErrors] = useState<FieldError[]>(state.errors);
  const [formError, setFormError] = useState<string | null>(state.formError);
  const [answered, setAnswered] = useState(state.sent);
  const [loading, setLoading] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateFindBooking({ email });
    setErrors(found);
    setFormError(null);
    setAnswered(false);
    if (found.length > 0) {
      focusFirstError(ID, found);
      return;
    }
    setLoading(true);
    try {
      const answer = await postJson('/v1/find-booking', { email });
      if (answer.status === 202) {
        setAnswered(true);
        setEmail('');
      } else {
        setErrors(answer.errors);
        setFormError(answer.errors.length === 0 ? (answer.message ?? MESSAGES.somethingWentWrong) : null);
        focusFirstError(ID, answer.errors);
      }
    } catch {
      setFormError(MESSAGES.networkError);
    } finally {
      setLoading(false);
    }
  };

  return (
    <>
      <PageHero eyebrow="Your bookings" title="Find My Booking">
        <p>Lost the e-mail with your booking? We will send the links to your upcoming bookings again.</p>
      </PageHero>
      <section className="section" aria-labelledby="find-title">
        <div className="container narrow">
          <form className="card form find-form" method="post" action="/booking/find" noValidate={hydrated} onSubmit={onSubmit} aria-labelledby="find-title">
            <h2 id="find-title">E-mail me my booking links</h2>
            <p>Enter the e-mail address you booked with. If it has upcoming bookings, we e-mail it the link to each one, where you can see, move or cancel it.</p>
            <Honeypot />
            <div role="status">
              {answered && (
                <p className="notice notice-success">
                  <Icon name="check" /> {FIND_BOOKING_MESSAGES.answer}
                </p>
              )}
            </div>
            {formError && (
              <p className="notice notice-error" role="alert">
                {formError}
              </p>
            )}
            <TextField
              idPrefix={ID}
              name="email"
              type="email"
              label="Email Address"
              value={email}
              onChange={setEmail}
              error={errorFor(errors, 'email')}
              autoComplete="email"
              maxLength={FIND_BOOKING_LIMITS.email}
              required
              nativeRequired
            />
            <button type="submit" className="button button-accent button-large" disabled={loading}>
              {loading ? 'Sending...' : 'Send Me the Links'}
            </button>
          </form>
          <p className="find-help">
            {"No e-mail after a few minutes? Check your spam folder, or call us on "}
            <a className="text-link" href={telHref(business.phone)}>
              {business.phone}
            </a>
            {' and we will find your booking for you.'}
          </p>
        </div>
      </section>
    </>
  );
}
