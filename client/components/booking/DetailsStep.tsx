/**
 * Step 3, 'Your Details': name, e-mail, phone and notes, with the errors listed above the fields,
 * and the price (with the first-service discount once the e-mail says it applies). Joining the
 * waitlist (issue 43), it says so first.
 */
import { BOOKING_LIMITS } from '#domain/booking-rules.ts';
import type { Quote } from '#domain/pricing.ts';
import { EMAIL_PATTERN } from '#domain/text-rules.ts';
import type { WaitlistPart } from '#domain/waitlist-words.ts';
import { shortDate } from '../../lib/availability-api.ts';
import { TextAreaField, TextField, errorFor } from '../Field.tsx';
import { QuoteBreakdown } from './QuoteBreakdown.tsx';
import { WaitlistJoining } from './Waitlist.tsx';
import { ID, type StepProps } from './types.ts';
import type { ServerQuote } from './use-quote.ts';
import { useServerQuote } from './use-server-quote.ts';
import './DetailsStep.css';

interface QuoteProps {
  quote: Quote | undefined;
  /** The server quote the page knows, and where a new one goes. */
  server: ServerQuote;
  /** Joining the waitlist for that part of the day (null: booking). */
  waitlist: WaitlistPart | null;
}

export function DetailsStep({ values, errors, update, quote, server, waitlist }: StepProps & QuoteProps) {
  useServerQuote(values, server);
  return (
    <div>
      {waitlist && <WaitlistJoining day={shortDate(values.date)} part={waitlist} />}
      {errors.length > 0 && (
        <div className="error-summary" role="alert" aria-labelledby="error-summary-title">
          <p id="error-summary-title">Please correct the following errors:</p>
          <ul>
            {errors.map((error) => (
              <li key={`${error.field}:${error.message}`}>
                <a href={`#${ID}-${error.field}`}>{error.message}</a>
              </li>
            ))}
          </ul>
        </div>
      )}
      <TextField idPrefix={ID} name="name" label="Full Name" autoComplete="name" value={values.name} onChange={(name) => update({ name })} maxLength={BOOKING_LIMITS.name} error={errorFor(errors, 'name')} required nativeRequired />
      <div className="field-row">
        <TextField idPrefix={ID} name="email" type="email" label="Email" autoComplete="email" value={values.email} onChange={(email) => update({ email })} maxLength={BOOKING_LIMITS.email} error={errorFor(errors, 'email')} required nativeRequired />
        <TextField idPrefix={ID} name="phone" type="tel" label="Phone Number" autoComplete="tel" value={values.phone} onChange={(phone) => update({ phone })} maxLength={15} error={errorFor(errors, 'phone')} required nativeRequired />
      </div>
      <TextAreaField idPrefix={ID} name="notes" label="Additional Notes (optional)" hint="Access instructions, pets, stains we should know about…" value={values.notes} onChange={(notes) => update({ notes })} maxLength={BOOKING_LIMITS.notes} rows={4} error={errorFor(errors, 'notes')} />
      {quote && <QuoteBreakdown quote={quote} emailEntered={EMAIL_PATTERN.test(values.email.trim())} />}
    </div>
  );
}
