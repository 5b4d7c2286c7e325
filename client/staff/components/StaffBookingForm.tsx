/**
 * "New booking" (issue 21): staff book a customer who phones or walks in. The wizard's fields and
 * rules (one to four vehicles, each with its add-ons: issue 41), in one column that works at 390 px: the start times come from the scheduling engine as
 * staff may book them (today from the next whole hour), the quote from the server; the e-mail is
 * optional (without one nothing is e-mailed), the van or bay may be chosen, and the price may be
 * adjusted with a reason. Loaded lazily from the dashboard.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { FieldError } from '#domain/messages.ts';
import { withAdjustment, type JobQuote } from '#domain/pricing.ts';
import { ApiError, type BookingDto } from '../lib/staff-api.ts';
import { staffBookingApi } from '../lib/staff-booking-api.ts';
import {
  ADJUSTMENT_NOT_AMOUNT,
  AddressFieldset,
  aucklandToday,
  CustomerFieldset,
  EMPTY_DRAFT,
  NO_ADDRESS,
  PriceFieldset,
  QuoteLines,
  ServiceFieldset,
  WhenFieldset,
  centsOf,
  jobChosen,
  vehiclesOf,
  useResources,
  useStaffSlots,
  type BookingDraft,
} from './BookingFields.tsx';
import { Dialog } from './Dialog.tsx';

export interface StaffBookingFormProps {
  /** Fields filled in from the start (e.g. a returning customer's contact details and address). */
  prefill?: Partial<BookingDraft>;
  /** The booking was taken (the form then says so, with its reference). */
  onCreated(booking: BookingDto): void;
  onSignedOut(): void;
  onClose(): void;
}

export default function StaffBookingForm({ prefill, onCreated, onSignedOut, onClose }: StaffBookingFormProps) {
  const [today] = useState(aucklandToday);
  const key = useRef(crypto.randomUUID());
  const blank = (): BookingDraft => ({ ...EMPTY_DRAFT, ...prefill, date: today });
  const [draft, setDraft] = useState<BookingDraft>(blank);
  const resources = useResources();
  const slots = useStaffSlots(draft);
  const [quote, setQuote] = useState<JobQuote | null>(null);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const change = (patch: Partial<BookingDraft>) => setDraft((d) => ({ ...d, ...patch }));
  // The vehicles as text: the effect's key (the array is a new one each render) and its body.
  const job = jobChosen(draft) ? JSON.stringify(vehiclesOf(draft)) : '';

  useEffect(() => {
    if (!job) return setQuote(null);
    let current = true;
    const timer = setTimeout(() => {
      const email = /^\S+@\S+\.\S+$/.test(draft.email.trim()) ? draft.email.trim() : '';
      staffBookingApi.quote({ vehicles: JSON.parse(job), email }).then(
        (answer) => current && setQuote(answer),
        () => current && setQuote(null),
      );
    }, 400);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [job, draft.email]);

  const adjustmentCents = centsOf(draft.adjustment);
  const shown = quote && adjustmentCents !== undefined ? { ...quote, ...withAdjustment(quote, adjustmentCents ? { cents: adjustmentCents, reason: draft.adjustmentReason.trim() || '…' } : null) } : quote;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (adjustmentCents === undefined) return setErrors([{ field: 'priceAdjustmentCents', message: ADJUSTMENT_NOT_AMOUNT }]);
    setBusy(true);
    setErrors([]);
    setRefusal(null);
    const { adjustment: _a, adjustmentReason, resourceId, ...fields } = draft;
    const body = {
      ...fields,
      ...(draft.serviceType === 'onsite' ? {} : NO_ADDRESS),
      vehicles: vehiclesOf(draft),
      saveAddress: false,
      ...(resourceId ? { resourceId } : {}),
      ...(adjustmentCents ? { priceAdjustmentCents: adjustmentCents, priceAdjustmentReason: adjustmentReason } : {}),
    };
    try {
      const answer = await staffBookingApi.create(body, key.current);
      setDone(answer.message);
      onCreated(answer.booking);
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 401) return onSignedOut();
      const fieldErrors = caught instanceof ApiError && caught.status === 400 && Array.isArray(caught.body.errors) ? (caught.body.errors as FieldError[]) : [];
      setErrors(fieldErrors);
      setRefusal(caught instanceof ApiError ? caught.message : 'The booking could not be saved. Check the connection and try again.');
      // A refused booking wrote nothing: the next attempt is a new submission.
      key.current = crypto.randomUUID();
    } finally {
      setBusy(false);
    }
  };

  const another = () => {
    key.current = crypto.randomUUID();
    setDraft(blank());
    setQuote(null);
    setDone(null);
  };
  if (done) {
    return (
      <Dialog
        id="new-booking"
        className="staff-booking"
        title="Booking taken"
        closeLabel="Close"
        onClose={onClose}
        foot={
          <>
            <button type="button" className="button button-ghost" onClick={another}>
              Book another
            </button>
            <button type="button" className="button button-accent" onClick={onClose}>
              Close
            </button>
          </>
        }
      >
        <p role="status">{done}</p>
      </Dialog>
    );
  }
  const fields = { idPrefix: 'nb', draft, errors, change };
  return (
    <Dialog
      id="new-booking"
      className="staff-booking"
      title="New booking"
      closeLabel="Close without booking"
      onClose={onClose}
      onSubmit={submit}
      refusal={refusal}
      submitLabel="Book and confirm"
      busy={busy}
    >
      <ServiceFieldset {...fields} />
      <WhenFieldset {...fields} today={today} slots={slots} resources={resources} />
      <AddressFieldset {...fields} />
      <CustomerFieldset {...fields} emailHint="Optional. Without one, nothing is e-mailed to the customer." />
      <PriceFieldset {...fields} hint="Optional: e.g. 25 for more, -10 for less.">
        <div aria-live="polite">{shown ? <QuoteLines quote={shown} /> : <p>Choose each vehicle's package and size to see the price.</p>}</div>
      </PriceFieldset>
    </Dialog>
  );
}
