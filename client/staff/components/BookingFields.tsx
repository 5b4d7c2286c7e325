/**
 * A booking's fields as staff fill them in (issue 21), one set for "New booking" and "Edit
 * booking": the same controls, labels and limits, in fieldsets that work at 390 px. The start
 * times come from the scheduling engine as staff may book them (useStaffSlots), the van or bay
 * list from the resources of the job's kind; the server decides, with the same rules.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { slotLabel, type SlotState } from '#domain/availability.ts';
import { ADDRESS_FIELDS, isCeramic, REGIONS, SERVICE_TYPE_LABELS, SERVICE_TYPES, type ServiceType } from '#domain/booking-rules.ts';
import { COATING_LABELS, COATING_TYPES, DEFAULT_COATING, PACKAGE_NAMES, VEHICLE_LABELS, VEHICLE_TYPES, type CoatingType, type VehicleType } from '#domain/catalogue.ts';
import type { FieldError } from '#domain/messages.ts';
import { adjustmentLabel, discountLabel, formatNzd, TRAVEL_FEE_LABEL, type Quote } from '#domain/pricing.ts';
import { ADJUSTMENT_REASON_MAX } from '#domain/staff-booking-rules.ts';
import { SelectField, TextAreaField, TextField, errorFor } from '../../components/Field.tsx';
import type { BookingDto, ResourceDto } from '../lib/staff-api.ts';
import { staffBookingApi } from '../lib/staff-booking-api.ts';
import type { JobChoice } from '../../lib/availability-api.ts';
import './StaffBooking.css';

/** Today's date in Auckland (YYYY-MM-DD): the earliest date staff may book. */
export const aucklandToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

/** A booking as the forms hold it: every field as text, the adjustment in dollars. */
export const EMPTY_DRAFT = {
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
export type BookingDraft = typeof EMPTY_DRAFT;

/** The fields of a drop-off booking's missing address, as the server wants them sent. */
export const NO_ADDRESS = Object.fromEntries([...ADDRESS_FIELDS, 'landmark'].map((field) => [field, ''])) as Pick<BookingDraft, (typeof ADDRESS_FIELDS)[number] | 'landmark'>;

export function draftOf(b: BookingDto): BookingDraft {
  return {
    service: b.service,
    vehicleType: b.vehicleType,
    coatingType: b.coatingType,
    serviceType: b.serviceType,
    date: b.date,
    time: b.time,
    resourceId: b.resourceId ?? '',
    houseNumber: b.houseNumber,
    streetAddress: b.streetAddress,
    suburb: b.suburb,
    city: b.city,
    postalCode: b.postalCode,
    region: b.region,
    landmark: b.landmark,
    name: b.name,
    phone: b.phone,
    email: b.email,
    notes: b.notes,
    adjustment: b.quote.adjustment ? (b.quote.adjustment.cents / 100).toFixed(2) : '',
    adjustmentReason: b.quote.adjustment?.reason ?? '',
  };
}

/** The job the engine is asked about: a ceramic coating defaults to one year, as in the wizard. */
export function jobOf(draft: BookingDraft): JobChoice {
  return { service: draft.service, vehicleType: draft.vehicleType, coatingType: isCeramic(draft.service) ? draft.coatingType || DEFAULT_COATING : '', serviceType: draft.serviceType };
}

/** The start times of a date for the job as staff may book them; null until the package and size are chosen. */
export function useStaffSlots(draft: BookingDraft, bookingId?: string): SlotState[] | null {
  const [slots, setSlots] = useState<SlotState[] | null>(null);
  const job = jobOf(draft);
  const key = `${draft.date}|${job.service}|${job.vehicleType}|${job.coatingType}|${job.serviceType}`;
  useEffect(() => {
    if (!draft.date || !job.service || !job.vehicleType) return setSlots(null);
    let current = true;
    staffBookingApi.availability(draft.date, job, bookingId).then(
      (answer) => current && setSlots(answer.slots),
      () => current && setSlots(null),
    );
    return () => {
      current = false;
    };
    // The key names everything the answer depends on (the job is a new object each render).
  }, [key, bookingId]);
  return slots;
}

/** The vans and bays in use, once (for every fieldset of a form). */
export function useResources(): ResourceDto[] {
  const [resources, setResources] = useState<ResourceDto[]>([]);
  useEffect(() => {
    staffBookingApi.resources().then(setResources, () => setResources([]));
  }, []);
  return resources;
}

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
      {quote.travelFeeCents > 0 && (
        <>
          <dt>{TRAVEL_FEE_LABEL}</dt>
          <dd>{formatNzd(quote.travelFeeCents)}</dd>
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

interface FieldsetProps {
  /** Keeps the ids of two forms on one page apart. */
  idPrefix: string;
  draft: BookingDraft;
  errors: readonly FieldError[];
  change(patch: Partial<BookingDraft>): void;
}

const setter = (change: FieldsetProps['change'], field: keyof BookingDraft) => (value: string) => change({ [field]: value });

/** Package, size, coating and where: a change of where clears the van or bay chosen (it is of the other kind). */
export function ServiceFieldset({ idPrefix, draft, errors, change }: FieldsetProps) {
  const set = (field: keyof BookingDraft) => setter(change, field);
  return (
    <fieldset>
      <legend>Service</legend>
      <SelectField idPrefix={idPrefix} name="service" label="Package" required placeholder="Choose a package" options={PACKAGE_NAMES} value={draft.service} error={errorFor(errors, 'service')} onChange={set('service')} />
      <SelectField
        idPrefix={idPrefix}
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
      {isCeramic(draft.service) && (
        <SelectField
          idPrefix={idPrefix}
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
        idPrefix={idPrefix}
        name="serviceType"
        label="Where"
        required
        placeholder="Choose"
        options={SERVICE_TYPES}
        labelOf={(s) => SERVICE_TYPE_LABELS[s as ServiceType]}
        value={draft.serviceType}
        error={errorFor(errors, 'serviceType')}
        onChange={(serviceType) => change({ serviceType, resourceId: '' })}
      />
    </fieldset>
  );
}

/** Date, start time (the engine's answer for the job, the full ones disabled with their reason) and van or bay. */
export function WhenFieldset({ idPrefix, draft, errors, change, today, slots, resources }: FieldsetProps & { today: string; slots: SlotState[] | null; resources: ResourceDto[] }) {
  const set = (field: keyof BookingDraft) => setter(change, field);
  const slotOf = (time: string) => slots?.find((s) => s.time === time);
  const lanes = resources.filter((r) => r.active && r.kind === draft.serviceType);
  return (
    <fieldset>
      <legend>When</legend>
      <TextField idPrefix={idPrefix} name="date" label="Date" type="date" required nativeRequired min={today} value={draft.date} error={errorFor(errors, 'date')} onChange={set('date')} />
      <SelectField
        idPrefix={idPrefix}
        name="time"
        label="Start time"
        required
        placeholder={slots ? 'Choose a time' : 'Choose the package and size first'}
        options={slots ? slots.map((s) => s.time) : draft.time ? [draft.time] : []}
        labelOf={(time) => {
          const slot = slotOf(time);
          return slot ? slotLabel(slot) : time;
        }}
        isDisabled={(time) => slots !== null && !slotOf(time)?.available}
        value={draft.time}
        error={errorFor(errors, 'time')}
        onChange={set('time')}
      />
      <SelectField
        idPrefix={idPrefix}
        name="resourceId"
        label={draft.serviceType === 'onsite' ? 'Van' : 'Bay'}
        placeholder="Let the schedule choose"
        options={lanes.map((r) => r.id)}
        labelOf={(id) => lanes.find((r) => r.id === id)?.name ?? id}
        value={draft.resourceId}
        error={errorFor(errors, 'resourceId')}
        onChange={set('resourceId')}
      />
    </fieldset>
  );
}

/** The on-site address (nothing for a drop-off). */
export function AddressFieldset({ idPrefix, draft, errors, change }: FieldsetProps) {
  if (draft.serviceType !== 'onsite') return null;
  const set = (field: keyof BookingDraft) => setter(change, field);
  const text = (name: keyof BookingDraft, label: string, maxLength: number, required = true) => (
    <TextField idPrefix={idPrefix} name={name} label={label} required={required} value={draft[name]} maxLength={maxLength} error={errorFor(errors, name)} onChange={set(name)} />
  );
  return (
    <fieldset>
      <legend>Address</legend>
      {text('houseNumber', 'House/unit number', 20)}
      {text('streetAddress', 'Street', 120)}
      {text('suburb', 'Suburb', 80)}
      {text('city', 'City', 80)}
      {text('postalCode', 'Postal code', 10)}
      <SelectField idPrefix={idPrefix} name="region" label="Region" required placeholder="Choose a region" options={REGIONS} value={draft.region} error={errorFor(errors, 'region')} onChange={set('region')} />
      {text('landmark', 'Landmark', 200, false)}
    </fieldset>
  );
}

/** Name, phone (always required), e-mail (optional for staff: without one nothing is e-mailed) and the customer's notes. */
export function CustomerFieldset({ idPrefix, draft, errors, change, emailHint }: FieldsetProps & { emailHint?: string }) {
  const set = (field: keyof BookingDraft) => setter(change, field);
  return (
    <fieldset>
      <legend>Customer</legend>
      <TextField idPrefix={idPrefix} name="name" label="Name" required autoComplete="off" value={draft.name} maxLength={100} error={errorFor(errors, 'name')} onChange={set('name')} />
      <TextField idPrefix={idPrefix} name="phone" label="Phone" type="tel" required autoComplete="off" value={draft.phone} maxLength={20} error={errorFor(errors, 'phone')} onChange={set('phone')} />
      <TextField idPrefix={idPrefix} name="email" label="E-mail" type="email" autoComplete="off" hint={emailHint} value={draft.email} maxLength={254} error={errorFor(errors, 'email')} onChange={set('email')} />
      <TextAreaField idPrefix={idPrefix} name="notes" label="Notes" rows={3} value={draft.notes} maxLength={1000} error={errorFor(errors, 'notes')} onChange={set('notes')} />
    </fieldset>
  );
}

/** The price adjustment in dollars, with its reason once it is not zero; what follows it (the quote) as children. */
export function PriceFieldset({ idPrefix, draft, errors, change, hint, children }: FieldsetProps & { hint: string; children?: ReactNode }) {
  const set = (field: keyof BookingDraft) => setter(change, field);
  return (
    <fieldset>
      <legend>Price</legend>
      <TextField
        idPrefix={idPrefix}
        name="priceAdjustmentCents"
        label="Adjust the price by ($)"
        hint={hint}
        value={draft.adjustment}
        maxLength={10}
        error={errorFor(errors, 'priceAdjustmentCents')}
        onChange={set('adjustment')}
      />
      {centsOf(draft.adjustment) ? (
        <TextField
          idPrefix={idPrefix}
          name="priceAdjustmentReason"
          label="Reason for the adjustment"
          required
          value={draft.adjustmentReason}
          maxLength={ADJUSTMENT_REASON_MAX}
          error={errorFor(errors, 'priceAdjustmentReason')}
          onChange={set('adjustmentReason')}
        />
      ) : null}
      {children}
    </fieldset>
  );
}
