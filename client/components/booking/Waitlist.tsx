/**
 * The waitlist in the wizard (issue 43), a part of the later steps' chunk: on step 2, when no
 * start fits the chosen date, the offer to be told if a time opens up there (morning, afternoon
 * or any time), which carries the customer to step 3 to join it; and the answer once joined.
 * Without JavaScript the offer's button posts the form (action 'waitlist') and the server answers
 * in the same way (src/routes/pages/booking.ts).
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { PART_LABELS, WAITLIST_WIZARD_MESSAGES, type WaitlistPart } from '#domain/waitlist-words.ts';
import './Waitlist.css';

/** The parts in the order offered: the default, any time, last. */
const PARTS: readonly WaitlistPart[] = ['morning', 'afternoon', 'any'];

interface OfferProps {
  /** The chosen date as the step shows it ('Tue 14 Jul'). */
  day: string;
  /** The part of the day chosen (any time until one is). */
  part: WaitlistPart;
  choose(part: WaitlistPart): void;
  /** Once interactive: on to step 3 to join (without JavaScript the button posts the form). */
  join(): void;
  hydrated: boolean;
  /** What the step says of the date first (that no time is left on it). */
  children: ReactNode;
}

export function WaitlistOffer({ day, part, choose, join, hydrated, children }: OfferProps) {
  return (
    <div className="waitlist-offer">
      {children}
      <fieldset className="choice-group" aria-describedby="waitlist-hint">
        <legend>{WAITLIST_WIZARD_MESSAGES.offerLegend(day)}</legend>
        <p id="waitlist-hint" className="field-hint">
          {WAITLIST_WIZARD_MESSAGES.offerHint}
        </p>
        <div className="choices">
          {PARTS.map((value) => (
            <label key={value} className="choice">
              <input type="radio" id={`waitlist-part-${value}`} name="part" value={value} checked={part === value} onChange={() => choose(value)} />
              <span className="choice-label">{PART_LABELS[value]}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <button type={hydrated ? 'button' : 'submit'} name="action" value="waitlist" formNoValidate className="button button-primary" onClick={hydrated ? join : undefined}>
        {WAITLIST_WIZARD_MESSAGES.offerButton}
      </button>
    </div>
  );
}

/** Step 3 in waitlist mode: what is being asked for, above the details. */
export function WaitlistJoining({ day, part }: { day: string; part: WaitlistPart }) {
  return <p className="notice waitlist-joining">{WAITLIST_WIZARD_MESSAGES.joining(day, part)}</p>;
}

/** The waitlist joined: the server's message, in place of the form; the focus goes to it. */
export function WaitlistJoined({ message }: { message: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="card waitlist-joined" aria-labelledby="waitlist-joined-title">
      <h2 id="waitlist-joined-title" ref={heading} tabIndex={-1}>
        {WAITLIST_WIZARD_MESSAGES.joinedHeading}
      </h2>
      <div className="notice notice-success" role="status">
        {message}
      </div>
      <a className="button button-ghost" href="/">
        Back to Home
      </a>
    </section>
  );
}
