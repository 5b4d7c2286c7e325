/**
 * "New booking" (issue 21): staff book a customer who phones or walks in. The wizard's fields and
 * rules, in one column that works at 390 px: the start times come from the scheduling engine as
 * staff may book them (today from the next whole hour), the quote from the server; the e-mail is
 * optional (without one nothing is e-mailed), the van or bay may be chosen, and the price may be
 * adjusted with a reason. Loaded lazily from the dashboard.
 */
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { slotLabel, type SlotState } from '#domain/availability.ts';
import { isCeramic, REGIONS, SERVICE_TYPES } from '#domain/booking-rules.ts';
import { COATING_LABELS, COATING_TYPES, PACKAGE_NAMES, VEHICLE_LABELS, VEHICLE_TYPES, type CoatingType, type VehicleType } from '#domain/catalogue.ts';
import type { FieldError } from '#domain/messages.ts';
import { adjustmentLabel, discountLabel, formatNzd, withAdjustment, type Quote } from '#domain/pricing.ts';
import { SelectField, TextAreaField, TextField, errorFor } from '../../components/Field.tsx';
import { Icon } from '../../components/Icon.tsx';
import { ApiError, type BookingDto, type ResourceDto } from '../lib/staff-api.ts';
import { staffBookingApi } from '../lib/staff-booking-api.ts';
import './BookingModal.css';
import './StaffBooking.css';

/** Today's date in Auckland (YYYY-MM-DD): the earliest date staff may book. */
const aucklandToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

export interface StaffBookingFormProps {
  /** The booking was taken (the form then says so, with its reference). */
  onCreated(booking: BookingDto): void;
  onSignedOut(): void;
  onClose(): void;
}

const EMPTY = {
  service: '',
  vehicleType: '',
  coatingType: '',
  serviceType: 'onsite',
  date: '',
  time: '',
  resourceId: '',
  houseNumber: '',
  streetAddress: '',
  suburb: '',
  city: 'Auckland',
  postalCode: '',
  region: 'Auckland',
  landmark: '',
  name: '',
  phone: '',
  email: '',
  notes: '',
  adjustment: '',
  adjustmentReason: '',
};
type Draft = typeof EMPTY;

/** Dollars typed by staff ('25', '-10.50') as cents; undefined when it is not an amount. */
export function centsOf(dollars: string): number | undefined {
  const text = dollars.trim().replace(/^\$/, '');
  if (text === '') return 0;
  if (!/^-?\d{1,5}(\.\d{1,2})?$/.test(text)) return undefined;
  return Math.round(Number(text) * 100);
}

export const ADJUSTMENT_NOT_AMOUNT = 'Please enter an amount in dollars, e.g. 25 or -10.50';

export function QuoteLines({ quote }: { quote: Quote }) {
  return (
    <dl className="quote-lines">
      <dt>List price</dt>
      <dd>{formatNzd(quote.listPriceCents)}</dd>
      {quote.discount && (
        <>
          <dt>{discountLabel(quote.discount)}</dt>
          <dd>{`−${formatNzd(quote.discountCents)}`}</dd>
        </>
      )}
      {quote.adjustment && (
        <>
          <dt>{adjustmentLabel(quote.adjustment)}</dt>
          <dd>{formatNzd(quote.adjustment.cents)}</dd>
        </>
      )}
      <dt>
        <strong>Total</strong>
      </dt>
      <dd>
        <strong>{formatNzd(quote.totalCents)}</strong>
      </dd>
    </dl>
  );
}

export default function StaffBookingForm({ onCreated, onSignedOut, onClose }: StaffBookingFormProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [today] = useState(aucklandToday);
  const key = useRef(crypto.randomUUID());
  const [draft, setDraft] = useState<Draft>({ ...EMPTY, date: today });
  const [resources, setResources] = useState<ResourceDto[]>([]);
  const [slots, setSlots] = useState<SlotState[] | null>(null);
  const [quote, setQuote] = useState<Quote | null>(null);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const set = (field: keyof Draft) => (value: string) => setDraft((d) => ({ ...d, [field]: value }));
  const ceramic = isCeramic(draft.service);
  const onsite = draft.serviceType === 'onsite';

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    staffBookingApi.resources().then(setResources, () => setResources([]));
  }, []);

  const job = useMemo(
    () => ({ service: draft.service, vehicleType: draft.vehicleType, coatingType: ceramic ? draft.coatingType || 'coat1' : '', serviceType: draft.serviceType }),
    [draft.service, draft.vehicleType, draft.coatingType, draft.serviceType, ceramic],
  );

  useEffect(() => {
    if (!draft.date || !job.service || !job.vehicleType) return setSlots(null);
    let current = true;
    staffBookingApi.availability(draft.date, job).then(
      (answer) => current && setSlots(answer.slots),
      () => current && setSlots(null),
    );
    return () => {
      current = false;
    };
  }, [draft.date, job]);

  useEffect(() => {
    if (!job.service || !job.vehicleType) return setQuote(null);
    let current = true;
    const timer = setTimeout(() => {
      const email = /^\S+@\S+\.\S+$/.test(draft.email.trim()) ? draft.email.trim() : '';
      staffBookingApi.quote({ service: job.service, vehicleType: job.vehicleType, selectedVehicleType: job.vehicleType, coatingType: job.coatingType, email }).then(
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
  const shown = quote && adjustmentCents !== undefined ? withAdjustment(quote, adjustmentCents ? { cents: adjustmentCents, reason: draft.adjustmentReason.trim() || '…' } : null) : quote;
  const lanes = resources.filter((r) => r.active && r.kind === draft.serviceType);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (adjustmentCents === undefined) return setErrors([{ field: 'priceAdjustmentCents', message: ADJUSTMENT_NOT_AMOUNT }]);
    setBusy(true);
    setErrors([]);
    setRefusal(null);
    const { adjustment: _a, adjustmentReason, resourceId, coatingType: _c, ...fields } = draft;
    const body = {
      ...fields,
      ...(onsite ? {} : { houseNumber: '', streetAddress: '', suburb: '', city: '', postalCode: '', region: '', landmark: '' }),
      coatingType: job.coatingType,
      selectedVehicleType: draft.vehicleType,
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

  const slotOf = (time: string) => slots?.find((s) => s.time === time);
  const another = () => {
    key.current = crypto.randomUUID();
    setDraft({ ...EMPTY, date: today });
    setQuote(null);
    setDone(null);
  };
  if (done) {
    return (
      <dialog ref={dialog} className="booking-modal staff-booking" aria-labelledby="new-booking-title" onClose={onClose} onCancel={onClose}>
        <div className="modal-head">
          <h2 id="new-booking-title">Booking taken</h2>
        </div>
        <div className="modal-body">
          <p role="status">{done}</p>
        </div>
        <div className="modal-foot">
          <button type="button" className="button button-ghost" onClick={another}>
            Book another
          </button>
          <button type="button" className="button button-accent" onClick={onClose}>
            Close
          </button>
        </div>
      </dialog>
    );
  }
  return (
    <dialog ref={dialog} className="booking-modal staff-booking" aria-labelledby="new-booking-title" onClose={onClose} onCancel={onClose}>
      <form onSubmit={submit} noValidate>
        <div className="modal-head">
          <h2 id="new-booking-title">New booking</h2>
          <button type="button" className="icon-button" aria-label="Close without booking" onClick={onClose}>
            <Icon name="close" />
          </button>
        </div>
        <div className="modal-body form">
          {refusal && (
            <p className="notice notice-error" role="alert">
              {refusal}
            </p>
          )}
          <fieldset>
            <legend>Service</legend>
            <SelectField idPrefix="nb" name="service" label="Package" required placeholder="Choose a package" options={PACKAGE_NAMES} value={draft.service} error={errorFor(errors, 'service')} onChange={set('service')} />
            <SelectField
              idPrefix="nb"
              name="vehicleType"
              label="Vehicle size"
              required
              placeholder="Choose a size"
              options={VEHICLE_TYPES}
              labelOf={(v) => VEHICLE_LABELS[v as VehicleType]}
              value={draft.vehicleType}
              error={errorFor(errors, 'vehicleType')}
              onChange={set('vehicleType')}
            />
            {ceramic && (
              <SelectField
                idPrefix="nb"
                name="coatingType"
                label="Coating"
                placeholder="1 year (default)"
                options={COATING_TYPES}
                labelOf={(c) => COATING_LABELS[c as CoatingType]}
                value={draft.coatingType}
                error={errorFor(errors, 'coatingType')}
                onChange={set('coatingType')}
              />
            )}
            <SelectField
              idPrefix="nb"
              name="serviceType"
              label="Where"
              required
              placeholder="Choose"
              options={SERVICE_TYPES}
              labelOf={(s) => (s === 'onsite' ? 'On-site (a van comes)' : 'Drop-off (a bay)')}
              value={draft.serviceType}
              error={errorFor(errors, 'serviceType')}
              onChange={(serviceType) => setDraft((d) => ({ ...d, serviceType, resourceId: '' }))}
            />
          </fieldset>
          <fieldset>
            <legend>When</legend>
            <TextField idPrefix="nb" name="date" label="Date" type="date" required nativeRequired min={today} value={draft.date} error={errorFor(errors, 'date')} onChange={set('date')} />
            <SelectField
              idPrefix="nb"
              name="time"
              label="Start time"
              required
              placeholder={slots ? 'Choose a time' : 'Choose the package and size first'}
              options={slots ? slots.map((s) => s.time) : []}
              labelOf={(time) => {
                const slot = slotOf(time);
                return slot ? slotLabel(slot) : time;
              }}
              isDisabled={(time) => !slotOf(time)?.available}
              value={draft.time}
              error={errorFor(errors, 'time')}
              onChange={set('time')}
            />
            <SelectField
              idPrefix="nb"
              name="resourceId"
              label={onsite ? 'Van' : 'Bay'}
              placeholder="Let the schedule choose"
              options={lanes.map((r) => r.id)}
              labelOf={(id) => lanes.find((r) => r.id === id)?.name ?? id}
              value={draft.resourceId}
              error={errorFor(errors, 'resourceId')}
              onChange={set('resourceId')}
            />
          </fieldset>
          {onsite && (
            <fieldset>
              <legend>Address</legend>
              <TextField idPrefix="nb" name="houseNumber" label="House/unit number" required value={draft.houseNumber} maxLength={20} error={errorFor(errors, 'houseNumber')} onChange={set('houseNumber')} />
              <TextField idPrefix="nb" name="streetAddress" label="Street" required value={draft.streetAddress} maxLength={120} error={errorFor(errors, 'streetAddress')} onChange={set('streetAddress')} />
              <TextField idPrefix="nb" name="suburb" label="Suburb" required value={draft.suburb} maxLength={80} error={errorFor(errors, 'suburb')} onChange={set('suburb')} />
              <TextField idPrefix="nb" name="city" label="City" required value={draft.city} maxLength={80} error={errorFor(errors, 'city')} onChange={set('city')} />
              <TextField idPrefix="nb" name="postalCode" label="Postal code" required value={draft.postalCode} maxLength={10} error={errorFor(errors, 'postalCode')} onChange={set('postalCode')} />
              <SelectField idPrefix="nb" name="region" label="Region" required placeholder="Choose a region" options={REGIONS} value={draft.region} error={errorFor(errors, 'region')} onChange={set('region')} />
              <TextField idPrefix="nb" name="landmark" label="Landmark" value={draft.landmark} maxLength={200} error={errorFor(errors, 'landmark')} onChange={set('landmark')} />
            </fieldset>
          )}
          <fieldset>
            <legend>Customer</legend>
            <TextField idPrefix="nb" name="name" label="Name" required autoComplete="off" value={draft.name} maxLength={100} error={errorFor(errors, 'name')} onChange={set('name')} />
            <TextField idPrefix="nb" name="phone" label="Phone" type="tel" required autoComplete="off" value={draft.phone} maxLength={20} error={errorFor(errors, 'phone')} onChange={set('phone')} />
            <TextField
              idPrefix="nb"
              name="email"
              label="E-mail"
              type="email"
              autoComplete="off"
              hint="Optional. Without one, nothing is e-mailed to the customer."
              value={draft.email}
              maxLength={254}
              error={errorFor(errors, 'email')}
              onChange={set('email')}
            />
            <TextAreaField idPrefix="nb" name="notes" label="Notes" rows={3} value={draft.notes} maxLength={1000} error={errorFor(errors, 'notes')} onChange={set('notes')} />
          </fieldset>
          <fieldset>
            <legend>Price</legend>
            <TextField
              idPrefix="nb"
              name="priceAdjustmentCents"
              label="Adjust the price by ($)"
              hint="Optional: e.g. 25 for more, -10 for less."
              value={draft.adjustment}
              maxLength={10}
              error={errorFor(errors, 'priceAdjustmentCents')}
              onChange={set('adjustment')}
            />
            {adjustmentCents ? (
              <TextField idPrefix="nb" name="priceAdjustmentReason" label="Reason for the adjustment" required value={draft.adjustmentReason} maxLength={200} error={errorFor(errors, 'priceAdjustmentReason')} onChange={set('adjustmentReason')} />
            ) : null}
            <div aria-live="polite">{shown ? <QuoteLines quote={shown} /> : <p>Choose the package and size to see the price.</p>}</div>
          </fieldset>
        </div>
        <div className="modal-foot">
          <button type="button" className="button button-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-accent" disabled={busy}>
            Book and confirm
          </button>
        </div>
      </form>
    </dialog>
  );
}
