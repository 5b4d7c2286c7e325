/**
 * A booking's fields as staff fill them in (issue 21), one set for "New booking" and "Edit
 * booking": the same controls, labels and limits, in fieldsets that work at 390 px. A job is one
 * to four vehicles, each with its package, size, add-ons (those that fit its package) and details
 * (issue 41). The start times come from the scheduling engine as staff may book them for the
 * whole job (useStaffSlots), the van or bay list from the resources of the job's kind; the server
 * decides, with the same rules.
 */
import { Fragment, useEffect, useState, type ReactNode } from 'react';
import { slotLabel, type SlotState } from '#domain/availability.ts';
import { addOnsFor } from '#domain/add-ons.ts';
import { ADDRESS_FIELDS, isCeramic, REGIONS, SERVICE_TYPE_LABELS, SERVICE_TYPES, vehicleTypeForSize, type ServiceType } from '#domain/booking-rules.ts';
import { emptyVehicle, MAX_VEHICLES, VEHICLE_TEXT_LIMITS, vehicleName, type VehicleChoice } from '#domain/job.ts';
import { COATING_LABELS, COATING_TYPES, DEFAULT_COATING, PACKAGE_NAMES, VEHICLE_LABELS, VEHICLE_TYPES, type CoatingType, type VehicleType } from '#domain/catalogue.ts';
import type { FieldError } from '#domain/messages.ts';
import { adjustmentLabel, discountLabel, formatNzd, TRAVEL_FEE_LABEL, type JobQuote } from '#domain/pricing.ts';
import { ADJUSTMENT_REASON_MAX } from '#domain/staff-booking-rules.ts';
import { SelectField, TextAreaField, TextField, errorFor } from '../../components/Field.tsx';
import type { BookingDto, ResourceDto } from '../lib/staff-api.ts';
import { staffBookingApi } from '../lib/staff-booking-api.ts';
import './StaffBooking.css';

/** Today's date in Auckland (YYYY-MM-DD): the earliest date staff may book. */
export { aucklandToday } from '../lib/auckland-today.ts';

/** A booking as the forms hold it: every field as text, the adjustment in dollars. */
export const EMPTY_DRAFT = {
  vehicles: [emptyVehicle()] as VehicleChoice[],
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
/** The draft's text fields (all but the vehicles). */
type DraftText = Exclude<keyof BookingDraft, 'vehicles'>;

/** The fields of a drop-off booking's missing address, as the server wants them sent. */
export const NO_ADDRESS = Object.fromEntries([...ADDRESS_FIELDS, 'landmark'].map((field) => [field, ''])) as Pick<BookingDraft, (typeof ADDRESS_FIELDS)[number] | 'landmark'>;

export function draftOf(b: BookingDto): BookingDraft {
  return {
    vehicles: b.vehicles,
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

/**
 * The vehicles as the API takes them: a ceramic coating defaults to one year, as in the wizard;
 * the size chosen is the ceramic body style the booking had while its size is unchanged.
 */
export function vehiclesOf(draft: BookingDraft): VehicleChoice[] {
  return draft.vehicles.map((v) => ({
    ...v,
    coatingType: isCeramic(v.service) ? v.coatingType || DEFAULT_COATING : '',
    selectedVehicleType: v.selectedVehicleType && vehicleTypeForSize(v.selectedVehicleType) === v.vehicleType ? v.selectedVehicleType : v.vehicleType,
  }));
}

/** Every vehicle has its package and size: the job can be timed and priced. */
export const jobChosen = (draft: BookingDraft) => draft.vehicles.every((v) => v.service && v.vehicleType);

/** The availability parameters of the whole job: each vehicle's fields repeated in order (GET /v1/availability/staff). */
function jobParams(draft: BookingDraft): string {
  const params = new URLSearchParams();
  for (const v of vehiclesOf(draft)) {
    params.append('service', v.service);
    params.append('vehicleType', v.vehicleType);
    params.append('coatingType', v.coatingType);
    params.append('addOns', v.addOns.join(','));
  }
  params.set('serviceType', draft.serviceType);
  return params.toString();
}

/** The start times of a date for the job as staff may book them; null until every vehicle's package and size are chosen. */
export function useStaffSlots(draft: BookingDraft, bookingId?: string): SlotState[] | null {
  const [slots, setSlots] = useState<SlotState[] | null>(null);
  const job = jobChosen(draft) ? jobParams(draft) : '';
  useEffect(() => {
    if (!draft.date || !job) return setSlots(null);
    let current = true;
    staffBookingApi.availability(draft.date, job, bookingId).then(
      (answer) => current && setSlots(answer.slots),
      () => current && setSlots(null),
    );
    return () => {
      current = false;
    };
  }, [draft.date, job, bookingId]);
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

/** The job line by line (each vehicle's package and add-ons, with their minutes), then the price and the time. */
export function QuoteLines({ quote }: { quote: JobQuote }) {
  return (
    <dl className="quote-lines">
      {quote.lines.map((line, i) => (
        <Fragment key={i}>
          <dt>{`${line.description}${line.quantity > 1 ? ` × ${line.quantity}` : ''} (${line.minutes} min)`}</dt>
          <dd>{formatNzd(line.totalCents)}</dd>
        </Fragment>
      ))}
      <dt>Time</dt>
      <dd>{`${quote.durationMinutes} min`}</dd>
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

const setter = (change: FieldsetProps['change'], field: DraftText) => (value: string) => change({ [field]: value });

/**
 * The vehicles (each its package, size, coating, add-ons and details; "Add a vehicle" up to four)
 * and where: a change of where clears the van or bay chosen (it is of the other kind).
 */
export function ServiceFieldset({ idPrefix, draft, errors, change }: FieldsetProps) {
  const setVehicle = (i: number, patch: Partial<VehicleChoice>) => change({ vehicles: draft.vehicles.map((v, j) => (j === i ? { ...v, ...patch } : v)) });
  return (
    <fieldset>
      <legend>Service</legend>
      {draft.vehicles.map((vehicle, i) => (
        <VehicleFields
          key={i}
          idPrefix={idPrefix}
          index={i}
          vehicle={vehicle}
          several={draft.vehicles.length > 1}
          errors={errors}
          onChange={(patch) => setVehicle(i, patch)}
          onRemove={() => change({ vehicles: draft.vehicles.filter((_, j) => j !== i) })}
        />
      ))}
      {draft.vehicles.length < MAX_VEHICLES && (
        <p>
          <button type="button" className="button button-ghost button-small" onClick={() => change({ vehicles: [...draft.vehicles, emptyVehicle()] })}>
            Add a vehicle
          </button>
        </p>
      )}
      {errorFor(errors, 'vehicles') && (
        <p className="field-error" role="alert">
          {errorFor(errors, 'vehicles')}
        </p>
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

interface VehicleFieldsProps {
  idPrefix: string;
  index: number;
  vehicle: VehicleChoice;
  /** The job has more than one: each can be removed. */
  several: boolean;
  errors: readonly FieldError[];
  onChange(patch: Partial<VehicleChoice>): void;
  onRemove(): void;
}

/** One vehicle: its fields named as the API's errors name them (vehicles[1].service), so each message sits by its control. */
function VehicleFields({ idPrefix, index, vehicle, several, errors, onChange, onRemove }: VehicleFieldsProps) {
  const name = (field: string) => `vehicles[${index}].${field}`;
  const fitting = vehicle.service ? addOnsFor(vehicle.service) : [];
  const size = vehicle.vehicleType as VehicleType;
  const addOnError = vehicle.addOns.map((_, i) => errorFor(errors, `${name('addOns')}[${i}]`)).find(Boolean);
  const text = (field: 'make' | 'model' | 'colour' | 'plate', label: string) => (
    <TextField idPrefix={idPrefix} name={name(field)} label={label} autoComplete="off" value={vehicle[field]} maxLength={VEHICLE_TEXT_LIMITS[field]} error={errorFor(errors, name(field))} onChange={(value) => onChange({ [field]: value })} />
  );
  return (
    <fieldset className="vehicle-fields">
      <legend>{several ? `Vehicle ${index + 1}${vehicle.plate || vehicle.make || vehicle.model ? `: ${vehicleName(vehicle, index)}` : ''}` : 'Vehicle'}</legend>
      <SelectField
        idPrefix={idPrefix}
        name={name('service')}
        label="Package"
        required
        placeholder="Choose a package"
        options={PACKAGE_NAMES}
        value={vehicle.service}
        error={errorFor(errors, name('service'))}
        // Add-ons that do not fit the new package go (the server would refuse them).
        onChange={(service) => onChange({ service, addOns: vehicle.addOns.filter((id) => addOnsFor(service).some((a) => a.id === id)) })}
      />
      <SelectField
        idPrefix={idPrefix}
        name={name('vehicleType')}
        label="Vehicle size"
        required
        placeholder="Choose a size"
        options={VEHICLE_TYPES}
        labelOf={(v) => VEHICLE_LABELS[v as VehicleType]}
        value={vehicle.vehicleType}
        error={errorFor(errors, name('vehicleType'))}
        onChange={(vehicleType) => onChange({ vehicleType })}
      />
      {isCeramic(vehicle.service) && (
        <SelectField
          idPrefix={idPrefix}
          name={name('coatingType')}
          label="Coating"
          placeholder="1 year (default)"
          options={COATING_TYPES}
          labelOf={(c) => COATING_LABELS[c as CoatingType]}
          value={vehicle.coatingType}
          error={errorFor(errors, name('coatingType'))}
          onChange={(coatingType) => onChange({ coatingType })}
        />
      )}
      {fitting.length > 0 && (
        <fieldset className="add-ons">
          <legend>Add-ons</legend>
          {fitting.map((addOn) => {
            const id = `${idPrefix}-v${index}-${addOn.id}`;
            return (
              <label key={addOn.id} className="check" htmlFor={id}>
                <input
                  id={id}
                  type="checkbox"
                  checked={vehicle.addOns.includes(addOn.id)}
                  onChange={(event) => onChange({ addOns: event.target.checked ? [...vehicle.addOns, addOn.id] : vehicle.addOns.filter((a) => a !== addOn.id) })}
                />
                {VEHICLE_TYPES.includes(size) ? `${addOn.name} (${formatNzd(addOn.prices[size])}, ${addOn.minutes[size]} min)` : addOn.name}
              </label>
            );
          })}
          {addOnError && (
            <p className="field-error" role="alert">
              {addOnError}
            </p>
          )}
        </fieldset>
      )}
      <div className="vehicle-details">
        {text('plate', 'Plate')}
        {text('make', 'Make')}
        {text('model', 'Model')}
        {text('colour', 'Colour')}
      </div>
      {several && (
        <p>
          <button type="button" className="button button-ghost button-small" onClick={onRemove}>
            Remove vehicle {index + 1}
          </button>
        </p>
      )}
    </fieldset>
  );
}

/** Date, start time (the engine's answer for the job, the full ones disabled with their reason) and van or bay. */
export function WhenFieldset({ idPrefix, draft, errors, change, today, slots, resources }: FieldsetProps & { today: string; slots: SlotState[] | null; resources: ResourceDto[] }) {
  const set = (field: DraftText) => setter(change, field);
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
  const set = (field: DraftText) => setter(change, field);
  const text = (name: DraftText, label: string, maxLength: number, required = true) => (
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
  const set = (field: DraftText) => setter(change, field);
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
  const set = (field: DraftText) => setter(change, field);
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
