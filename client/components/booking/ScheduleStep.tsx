/**
 * Step 2, 'Choose Date, Time & Location': on-site or drop-off first; on site the postcode next,
 * since the times depend on it (issue 40): the vans come only to the zones of the service area,
 * each with its travel fee, said as soon as the postcode has four digits. A postcode outside the
 * area gets the offer to drop the car off instead, and no times. Then the date (from tomorrow in
 * Auckland) and the hourly start time, then the rest of the address or the service centre's
 * details. Both blocks are in the markup and CSS shows the one matching the checked radio, so the
 * step also works without JavaScript (the server then answers for the postcode on Continue).
 * The times are those of the chosen job (package, size, coating and service type: it holds a van
 * or a bay for its whole duration): each says when the job would end, and why it cannot be had
 * when it cannot ('09:00 – 12:00 — Full'); once the page is interactive those times cannot be
 * chosen (without JavaScript the date may change before the post, which the server then checks,
 * so they stay choosable there). Under the date, the next dates with times, and the coming dates
 * with none (a date input cannot mark days itself). A date on which no start fits offers its
 * waitlist instead (issue 43: see Waitlist.tsx).
 */
import { useEffect, useState } from 'react';
import { ADDRESS_FIELDS, BOOKING_LIMITS, REGIONS, TIME_SLOTS, isCalendarDate, validateScheduleStep, type BookingInput, type DateWindow, type WizardInput } from '#domain/booking-rules.ts';
import { HOURS, type BusinessInfo } from '#domain/business.ts';
import { durationText } from '#domain/catalogue.ts';
import { MESSAGES, type FieldError } from '#domain/messages.ts';
import { POSTCODE_PATTERN, type AreaAnswer } from '#domain/service-area.ts';
import type { WaitlistPart } from '#domain/waitlist-words.ts';
import { slotLabel, type DayAvailability, type DaySummary } from '#domain/availability.ts';
import { addDays, getAvailability, getAvailableDays, getServiceArea, jobParams, shortDate } from '../../lib/availability-api.ts';
import { SelectField, TextField, errorFor } from '../Field.tsx';
import { Icon } from '../Icon.tsx';
import { readSavedAddress } from './saved-address.ts';
import { WaitlistOffer } from './Waitlist.tsx';
import { ID, type StepProps } from './types.ts';
import './ScheduleStep.css';

interface ScheduleStepProps extends StepProps {
  business: BusinessInfo;
  minDate: string;
  maxDate: string;
  /** Reports a date the customer typed that is already past (it is not accepted). */
  rejectDate(message: string): void;
  /** The chosen date's slots as the server rendered them (no JavaScript needed), if it did. */
  initialAvailability: DayAvailability | null;
  /** Unavailable times are disabled only once the page is interactive. */
  hydrated: boolean;
  /** What the wizard knows of the service area at a postcode (the page keeps it for the price), and where a new answer goes. */
  area: AreaAnswer | null;
  setArea(area: AreaAnswer): void;
  /** The waitlist's part of the day as chosen (null: none yet), where a choice goes, and on to join it (issue 43). */
  waitlist: WaitlistPart | null;
  setWaitlist(part: WaitlistPart): void;
  joinWaitlist(): void;
}

/** The answer about the postcode as it stands, on site; null when none is known for it. */
function areaFor(values: Pick<BookingInput, 'serviceType' | 'postalCode'>, area: AreaAnswer | null): AreaAnswer | null {
  return values.serviceType === 'onsite' && area?.postalCode === values.postalCode.trim() ? area : null;
}

/**
 * Step 2's rules, in the order the step shows its fields (the first error gets the focus), with,
 * on site, a postcode the vans do not come to: the booking would be refused for it.
 */
export function scheduleErrors(values: WizardInput, window: DateWindow, area: AreaAnswer | null): FieldError[] {
  const errors = validateScheduleStep(values, window);
  const known = areaFor(values, area);
  if (known?.served === false) errors.unshift({ field: 'postalCode', message: known.message });
  const first = (error: FieldError) => error.field === 'serviceType' || error.field === 'postalCode';
  return [...errors.filter(first), ...errors.filter((error) => !first(error))];
}

const ADDRESS_LABELS = {
  houseNumber: ['House/Unit Number', 'address-line1'],
  streetAddress: ['Street Address', 'address-line2'],
  suburb: ['Suburb', 'address-level3'],
  city: ['City', 'address-level2'],
} as const;

/** How many dates the summary under the date lists, and how far ahead it looks for dates with no time. */
const NEXT_DATES = 4;
const NO_TIMES_DAYS = 14;
/** The most days GET /v1/availability/days answers at once. */
const SUMMARY_DAYS = 62;

/** That the chosen date has no time for the job. */
function NoTimes({ date }: { date: string }) {
  return (
    <p className="date-none" role="status">
      {`No times left on ${shortDate(date)} for this service. Please choose another date.`}
    </p>
  );
}

/**
 * Under the date: the next dates the job fits on (buttons that choose them), and the coming dates
 * it does not (full or closed), in words. That the chosen date has none is said here unless the
 * waitlist's offer below says it (`offered`).
 */
function DateSummary({ days, date, choose, offered }: { days: readonly DaySummary[]; date: string; choose(date: string): void; offered: boolean }) {
  const chosen = days.find((day) => day.date === date);
  const next = days.filter((day) => day.availableStarts > 0 && (!chosen || day.date > date)).slice(0, NEXT_DATES);
  const soon = addDays(days[0]!.date, NO_TIMES_DAYS - 1);
  const none = days.filter((day) => day.availableStarts === 0 && day.date <= soon);
  return (
    <>
      {chosen?.availableStarts === 0 && !offered && <NoTimes date={date} />}
      {next.length > 0 && (
        <div className="next-dates">
          <p id="next-dates-title">{chosen ? 'Next dates with times:' : 'First dates with times:'}</p>
          <ul aria-labelledby="next-dates-title">
            {next.map((day) => (
              <li key={day.date}>
                <button type="button" className="date-choice" onClick={() => choose(day.date)}>
                  {shortDate(day.date)}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      <p className="field-hint">
        {none.length > 0
          ? `Fully booked or closed in the next two weeks: ${none.map((day) => shortDate(day.date)).join(', ')}.`
          : 'Every date in the next two weeks has times for this service.'}
      </p>
    </>
  );
}

/** The saved address is offered once per page: when the step is first shown, into empty address fields. */
let savedAddressOffered = false;

export function ScheduleStep({ values, errors, update, business, minDate, maxDate, rejectDate, initialAvailability, hydrated, area, setArea, waitlist, setWaitlist, joinWaitlist }: ScheduleStepProps) {
  const dropoff = values.serviceType === 'dropoff';
  const postcode = values.postalCode.trim();
  const known = areaFor(values, area);
  // A postcode whose check failed: its times are shown (plain if they fail too) and the booking decides.
  const [unchecked, setUnchecked] = useState<string | null>(null);
  // Once interactive, on-site times are offered only at a postcode the vans come to (issue 40).
  const timesOffered = !hydrated || dropoff || known?.served === true || unchecked === postcode;
  // The job the times are for: a change of any of it (the service type and postcode on this step) asks again.
  const job = { vehicles: values.vehicles, serviceType: values.serviceType, postalCode: dropoff ? '' : postcode };
  const jobKey = jobParams(job);
  const [availability, setAvailability] = useState(initialAvailability && { key: `${initialAvailability.date}&${jobKey}`, answer: initialAvailability });
  const [days, setDays] = useState<{ key: string; days: DaySummary[] } | null>(null);
  useEffect(() => {
    if (savedAddressOffered) return;
    savedAddressOffered = true;
    const saved = readSavedAddress();
    if (saved && ADDRESS_FIELDS.every((field) => values[field] === '')) update({ ...saved, saveAddress: true });
  }, []);
  // On site, the service area's answer for a 4-digit postcode, asked once per postcode (the page
  // keeps the last); the server caches it for a minute.
  useEffect(() => {
    if (dropoff || known || !POSTCODE_PATTERN.test(postcode)) return;
    let current = true;
    getServiceArea(postcode).then(
      (answer) => current && setArea(answer),
      () => current && setUnchecked(postcode),
    );
    return () => {
      current = false;
    };
  }, [dropoff, postcode]);
  // The chosen date's times for the job, fetched whenever this step is shown, the date or the job
  // changes (so also after a 409 sends the customer back here). A chosen time that cannot be had
  // is cleared, its message (if the server gave one) staying beside it; a failure leaves the times
  // plain and the server decides. It lives here, in the later steps' chunk, to keep the page's
  // first chunk small.
  useEffect(() => {
    if (!timesOffered || !isCalendarDate(values.date)) return;
    let current = true;
    getAvailability(values.date, job).then((answer) => {
      if (!current) return;
      setAvailability({ key: `${values.date}&${jobKey}`, answer });
      if (answer.slots.some((slot) => slot.time === values.time && !slot.available)) update({ time: '' });
    }, () => undefined);
    return () => {
      current = false;
    };
  }, [values.date, jobKey, timesOffered]);
  // The dates with and without times, from the first bookable date: when the step is shown (after
  // a 409 too) and when the job changes.
  useEffect(() => {
    if (!timesOffered) return;
    let current = true;
    const last = addDays(minDate, SUMMARY_DAYS - 1);
    getAvailableDays(minDate, last < maxDate ? last : maxDate, job).then((answer) => {
      if (current && answer.length > 0) setDays({ key: jobKey, days: answer });
    }, () => undefined);
    return () => {
      current = false;
    };
  }, [jobKey, timesOffered]);
  const shown = availability?.key === `${values.date}&${jobKey}` ? availability.answer : null;
  const slots = shown?.slots ?? null;
  // No start of the chosen date fits the job: its waitlist is offered (issue 43).
  const full = slots !== null && slots.length > 0 && slots.every((slot) => !slot.available);
  const slotAt = (time: string) => slots?.find((slot) => slot.time === time);
  const onDate = (date: string) => {
    if (date !== '' && date < minDate) {
      update({ date: '' });
      rejectDate(MESSAGES.futureDateAlert);
      return;
    }
    update({ date });
  };
  const toDropoff = () => {
    update({ serviceType: 'dropoff' });
    document.getElementById('serviceType-dropoff')?.focus();
  };
  const outside = known?.served === false;
  return (
    <div className={dropoff ? 'schedule is-dropoff' : 'schedule'}>
      {/* Without JavaScript the first submit button is the one Enter presses: Continue, not an offer below. */}
      {(outside || full) && !hydrated && (
        <button type="submit" name="action" value="next" hidden>
          Continue to Your Details
        </button>
      )}
      <fieldset className="choice-group service-type">
        <legend>Service type</legend>
        <div className="choices two">
          <label className="choice">
            <input type="radio" id="serviceType-onsite" name="serviceType" value="onsite" checked={!dropoff} onChange={() => update({ serviceType: 'onsite' })} />
            <span className="choice-label">
              <Icon name="home" size={20} /> On-site Service
            </span>
            <span className="choice-note">We come to your home or workplace</span>
          </label>
          <label className="choice">
            <input type="radio" id="serviceType-dropoff" name="serviceType" value="dropoff" checked={dropoff} onChange={() => update({ serviceType: 'dropoff' })} />
            <span className="choice-label">
              <Icon name="building" size={20} /> Drop-off Service
            </span>
            <span className="choice-note">Bring your car to our service centre</span>
          </label>
        </div>
      </fieldset>

      <div className="area-block">
        <TextField
          idPrefix={ID}
          name="postalCode"
          label="Postcode"
          hint="It tells us whether our vans come to you, and any travel fee."
          autoComplete="postal-code"
          value={values.postalCode}
          onChange={(postalCode) => update({ postalCode })}
          maxLength={BOOKING_LIMITS.postalCode}
          // Once the area's answer for this postcode is known, it decides (an earlier Continue's message is stale).
          error={known ? (outside ? known.message : undefined) : errorFor(errors, 'postalCode')}
          required
        />
        <div className="area-answer" aria-live="polite">
          {known?.zone && (
            <p className="area-served">
              <Icon name="pin" size={18} /> {known.message}
            </p>
          )}
          {outside && (
            <button type={hydrated ? 'button' : 'submit'} name="action" value="dropoff" formNoValidate className="button button-ghost" onClick={hydrated ? toDropoff : undefined}>
              Drop off at our service centre instead
            </button>
          )}
        </div>
      </div>

      {timesOffered ? (
        <>
          <div className="field-row">
            <TextField idPrefix={ID} name="date" type="date" label="Date" value={values.date} onChange={onDate} min={minDate} max={maxDate} error={errorFor(errors, 'date')} required nativeRequired />
            <SelectField
              idPrefix={ID}
              name="time"
              label="Time"
              placeholder="Select a time"
              options={TIME_SLOTS}
              labelOf={(time) => {
                const slot = slotAt(time);
                return slot ? slotLabel(slot) : time;
              }}
              isDisabled={(time) => hydrated && slotAt(time)?.available === false}
              value={values.time}
              onChange={(time) => update({ time })}
              error={errorFor(errors, 'time')}
              required
              nativeRequired
            />
          </div>
          {(shown || days?.key === jobKey) && (
            <div className="date-summary">
              {shown && <p id="booking-duration">{`This service takes ${durationText(shown.durationMinutes)}: each time shows when it would end.`}</p>}
              {days?.key === jobKey && <DateSummary days={days.days} date={values.date} choose={onDate} offered={full} />}
            </div>
          )}
          {full && (
            <WaitlistOffer day={shortDate(values.date)} part={waitlist ?? 'any'} choose={setWaitlist} join={joinWaitlist} hydrated={hydrated}>
              <NoTimes date={values.date} />
            </WaitlistOffer>
          )}
        </>
      ) : (
        !outside && <p className="area-first">Enter your postcode to see the dates and times we can come to you.</p>
      )}

      <fieldset className="address-block">
        <legend>Service address</legend>
        <div className="field-row">
          {(['houseNumber', 'streetAddress'] as const).map((field) => (
            <TextField key={field} idPrefix={ID} name={field} label={ADDRESS_LABELS[field][0]} autoComplete={ADDRESS_LABELS[field][1]} value={values[field]} onChange={(value) => update({ [field]: value })} maxLength={BOOKING_LIMITS[field]} error={errorFor(errors, field)} required />
          ))}
        </div>
        <div className="field-row">
          {(['suburb', 'city'] as const).map((field) => (
            <TextField key={field} idPrefix={ID} name={field} label={ADDRESS_LABELS[field][0]} autoComplete={ADDRESS_LABELS[field][1]} value={values[field]} onChange={(value) => update({ [field]: value })} maxLength={BOOKING_LIMITS[field]} error={errorFor(errors, field)} required />
          ))}
        </div>
        <div className="field-row">
          <SelectField idPrefix={ID} name="region" label="Region" placeholder="Select your region" options={REGIONS} value={values.region} onChange={(region) => update({ region })} error={errorFor(errors, 'region')} required />
          <TextField idPrefix={ID} name="landmark" label="Landmark (optional)" hint="Anything that helps us find you" value={values.landmark} onChange={(landmark) => update({ landmark })} maxLength={BOOKING_LIMITS.landmark} error={errorFor(errors, 'landmark')} />
        </div>
        <label className="checkbox">
          <input type="checkbox" name="saveAddress" checked={values.saveAddress} onChange={(event) => update({ saveAddress: event.target.checked })} />
          Save this address for future bookings (kept on this device only)
        </label>
      </fieldset>

      <section className="dropoff-block card" aria-labelledby="dropoff-title">
        <h3 id="dropoff-title">Drop-off at our service centre</h3>
        <p>
          <Icon name="pin" size={18} /> {business.streetAddress}, {business.suburb}, {business.city} {business.postcode}
        </p>
        <p className="dropoff-hours-title">Drop-off hours</p>
        <ul className="hours">
          {HOURS.dropOff.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        <p className="notice">
          <Icon name="clock" size={18} /> {HOURS.dropOffGuidance}
        </p>
      </section>
    </div>
  );
}
