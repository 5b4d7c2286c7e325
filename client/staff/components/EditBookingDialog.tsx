/**
 * "Edit booking" (issue 21): contact details, address, notes, package, size, coating, date, time,
 * van or bay and the price adjustment. "Preview" asks the server what would change (a dry run:
 * the new quote, and whether the new time fits); "Save" sends only the fields changed, with the
 * version the dialog was opened on (a stale one is refused and the booking reloaded). "E-mail the
 * customer" is on when the booking has an address. Loaded lazily from the booking's details.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { isCeramic, REGIONS } from '#domain/booking-rules.ts';
import { COATING_LABELS, COATING_TYPES, PACKAGE_NAMES, VEHICLE_LABELS, VEHICLE_TYPES, type CoatingType, type VehicleType } from '#domain/catalogue.ts';
import type { FieldError } from '#domain/messages.ts';
import { TIME_SLOTS } from '#domain/schedule.ts';
import { SelectField, TextAreaField, TextField, errorFor } from '../../components/Field.tsx';
import { Icon } from '../../components/Icon.tsx';
import { ApiError, type BookingDto, type ResourceDto, type StatusChangeDto } from '../lib/staff-api.ts';
import { staffBookingApi, type EditAnswer } from '../lib/staff-booking-api.ts';
import { ADJUSTMENT_NOT_AMOUNT, centsOf, QuoteLines } from './StaffBookingForm.tsx';
import './BookingModal.css';
import './StaffBooking.css';

export interface EditBookingDialogProps {
  booking: BookingDto;
  onSaved(booking: BookingDto, history: StatusChangeDto[]): void;
  /** The booking changed meanwhile: as it is now, with its history. */
  onStale(booking: BookingDto, history: StatusChangeDto[]): void;
  onSignedOut(): void;
  onClose(): void;
}

function draftOf(b: BookingDto) {
  return {
    name: b.name,
    phone: b.phone,
    email: b.email,
    houseNumber: b.houseNumber,
    streetAddress: b.streetAddress,
    suburb: b.suburb,
    city: b.city,
    postalCode: b.postalCode,
    region: b.region,
    landmark: b.landmark,
    notes: b.notes,
    service: b.service,
    vehicleType: b.vehicleType,
    coatingType: b.coatingType,
    date: b.date,
    time: b.time,
    resourceId: b.resourceId ?? '',
    adjustment: b.quote.adjustment ? (b.quote.adjustment.cents / 100).toFixed(2) : '',
    adjustmentReason: b.quote.adjustment?.reason ?? '',
  };
}
type Draft = ReturnType<typeof draftOf>;

export default function EditBookingDialog({ booking, onSaved, onStale, onSignedOut, onClose }: EditBookingDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const original = draftOf(booking);
  const [draft, setDraft] = useState<Draft>(original);
  const [notify, setNotify] = useState(booking.email !== '');
  const [resources, setResources] = useState<ResourceDto[]>([]);
  const [preview, setPreview] = useState<EditAnswer | null>(null);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (field: keyof Draft) => (value: string) => {
    setPreview(null);
    setDraft((d) => ({ ...d, [field]: value }));
  };
  const onsite = booking.serviceType === 'onsite';
  const ceramic = isCeramic(draft.service);

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    staffBookingApi.resources().then(setResources, () => setResources([]));
  }, []);

  /** Only what differs from the booking as opened. */
  const changedFields = (): Record<string, unknown> | undefined => {
    const body: Record<string, unknown> = {};
    for (const field of ['name', 'phone', 'email', 'houseNumber', 'streetAddress', 'suburb', 'city', 'postalCode', 'region', 'landmark', 'notes', 'service', 'date', 'time'] as const) {
      if (draft[field] !== original[field]) body[field] = draft[field];
    }
    if (draft.vehicleType !== original.vehicleType) {
      body.vehicleType = draft.vehicleType;
      body.selectedVehicleType = draft.vehicleType;
    }
    const coating = ceramic ? draft.coatingType || 'coat1' : '';
    if (coating !== original.coatingType) body.coatingType = coating;
    if (draft.resourceId !== original.resourceId) body.resourceId = draft.resourceId || null;
    if (draft.adjustment !== original.adjustment || draft.adjustmentReason !== original.adjustmentReason) {
      const cents = centsOf(draft.adjustment);
      if (cents === undefined) {
        setErrors([{ field: 'priceAdjustmentCents', message: ADJUSTMENT_NOT_AMOUNT }]);
        return undefined;
      }
      body.priceAdjustmentCents = cents;
      if (cents !== 0) body.priceAdjustmentReason = draft.adjustmentReason;
    }
    return body;
  };

  const send = async (dryRun: boolean) => {
    const fields = changedFields();
    if (!fields) return;
    setBusy(true);
    setErrors([]);
    setRefusal(null);
    try {
      const answer = await staffBookingApi.edit(booking._id, { version: booking.version, notifyCustomer: notify, ...(dryRun ? { dryRun: true } : {}), ...fields });
      if (dryRun) setPreview(answer);
      else onSaved(answer.booking, answer.history);
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 401) return onSignedOut();
      if (caught instanceof ApiError && caught.status === 409 && caught.body.booking) {
        const now = caught.body.booking as BookingDto;
        void staffBookingApi.details(now._id).then((d) => onStale(d.booking, d.history), () => undefined);
      }
      const fieldErrors = caught instanceof ApiError && caught.status === 400 && Array.isArray(caught.body.errors) ? (caught.body.errors as FieldError[]) : [];
      setErrors(fieldErrors);
      setPreview(null);
      setRefusal(caught instanceof ApiError ? caught.message : 'The change could not be saved. Check the connection and try again.');
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void send(false);
  };
  const lanes = resources.filter((r) => r.active && r.kind === booking.serviceType);
  return (
    <dialog ref={dialog} className="booking-modal staff-booking" aria-labelledby="edit-booking-title" onClose={onClose} onCancel={onClose}>
      <form onSubmit={submit} noValidate>
        <div className="modal-head">
          <h2 id="edit-booking-title">Edit booking {booking.reference}</h2>
          <button type="button" className="icon-button" aria-label="Close without saving" onClick={onClose}>
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
            <legend>Customer</legend>
            <TextField idPrefix="eb" name="name" label="Name" required autoComplete="off" value={draft.name} maxLength={100} error={errorFor(errors, 'name')} onChange={set('name')} />
            <TextField idPrefix="eb" name="phone" label="Phone" type="tel" required autoComplete="off" value={draft.phone} maxLength={20} error={errorFor(errors, 'phone')} onChange={set('phone')} />
            <TextField idPrefix="eb" name="email" label="E-mail" type="email" autoComplete="off" value={draft.email} maxLength={254} error={errorFor(errors, 'email')} onChange={set('email')} />
            <TextAreaField idPrefix="eb" name="notes" label="Notes" rows={3} value={draft.notes} maxLength={1000} error={errorFor(errors, 'notes')} onChange={set('notes')} />
          </fieldset>
          {onsite && (
            <fieldset>
              <legend>Address</legend>
              <TextField idPrefix="eb" name="houseNumber" label="House/unit number" required value={draft.houseNumber} maxLength={20} error={errorFor(errors, 'houseNumber')} onChange={set('houseNumber')} />
              <TextField idPrefix="eb" name="streetAddress" label="Street" required value={draft.streetAddress} maxLength={120} error={errorFor(errors, 'streetAddress')} onChange={set('streetAddress')} />
              <TextField idPrefix="eb" name="suburb" label="Suburb" required value={draft.suburb} maxLength={80} error={errorFor(errors, 'suburb')} onChange={set('suburb')} />
              <TextField idPrefix="eb" name="city" label="City" required value={draft.city} maxLength={80} error={errorFor(errors, 'city')} onChange={set('city')} />
              <TextField idPrefix="eb" name="postalCode" label="Postal code" required value={draft.postalCode} maxLength={10} error={errorFor(errors, 'postalCode')} onChange={set('postalCode')} />
              <SelectField idPrefix="eb" name="region" label="Region" required placeholder="Choose a region" options={REGIONS} value={draft.region} error={errorFor(errors, 'region')} onChange={set('region')} />
              <TextField idPrefix="eb" name="landmark" label="Landmark" value={draft.landmark} maxLength={200} error={errorFor(errors, 'landmark')} onChange={set('landmark')} />
            </fieldset>
          )}
          <fieldset>
            <legend>Service</legend>
            <SelectField idPrefix="eb" name="service" label="Package" required placeholder="Choose a package" options={PACKAGE_NAMES} value={draft.service} error={errorFor(errors, 'service')} onChange={set('service')} />
            <SelectField
              idPrefix="eb"
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
                idPrefix="eb"
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
          </fieldset>
          <fieldset>
            <legend>When</legend>
            <TextField idPrefix="eb" name="date" label="Date" type="date" required value={draft.date} error={errorFor(errors, 'date')} onChange={set('date')} />
            <SelectField idPrefix="eb" name="time" label="Start time" required placeholder="Choose a time" options={TIME_SLOTS} value={draft.time} error={errorFor(errors, 'time')} onChange={set('time')} />
            <SelectField
              idPrefix="eb"
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
          <fieldset>
            <legend>Price</legend>
            <TextField
              idPrefix="eb"
              name="priceAdjustmentCents"
              label="Adjust the price by ($)"
              hint="e.g. 25 for more, -10 for less; empty or 0 for none."
              value={draft.adjustment}
              maxLength={10}
              error={errorFor(errors, 'priceAdjustmentCents')}
              onChange={set('adjustment')}
            />
            {centsOf(draft.adjustment) ? (
              <TextField idPrefix="eb" name="priceAdjustmentReason" label="Reason for the adjustment" required value={draft.adjustmentReason} maxLength={200} error={errorFor(errors, 'priceAdjustmentReason')} onChange={set('adjustmentReason')} />
            ) : null}
          </fieldset>
          <label className="check" htmlFor="eb-notify">
            <input id="eb-notify" type="checkbox" checked={notify} disabled={draft.email.trim() === ''} onChange={(event) => setNotify(event.target.checked)} />
            E-mail the customer what changed
          </label>
          <div aria-live="polite">
            {preview && (
              <section aria-labelledby="eb-preview-title">
                <h3 id="eb-preview-title">What will change</h3>
                <dl className="change-lines">
                  {preview.changes.map((change) => (
                    <div key={change.field}>
                      <dt>{change.field}</dt>
                      <dd>{`${change.from || '(none)'} → ${change.to || '(none)'}`}</dd>
                    </div>
                  ))}
                </dl>
                <h3>New price</h3>
                <QuoteLines quote={preview.quote} />
                <p>{preview.customerNotified ? 'The customer will be e-mailed the changes with an updated calendar invitation.' : 'The customer will not be e-mailed.'}</p>
              </section>
            )}
          </div>
        </div>
        <div className="modal-foot">
          <button type="button" className="button button-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="button button-ghost" disabled={busy} onClick={() => void send(true)}>
            Preview
          </button>
          <button type="submit" className="button button-accent" disabled={busy}>
            Save changes
          </button>
        </div>
      </form>
    </dialog>
  );
}
