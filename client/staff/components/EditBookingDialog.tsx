/**
 * "Edit booking" (issue 21): contact details, on-site or drop-off and the address, notes, the
 * vehicles with their package, size, coating and add-ons (issue 41), date, time (the engine's free starts for the job, the booking's own
 * place counted free), van or bay and the price adjustment. "Preview" asks the server what would
 * change (a dry run: the new quote line by line with its minutes, and whether the job still fits
 * its place; a refusal shows the engine's reason); "Save" sends only the fields
 * changed, with the version the dialog was opened on (a stale one is refused and the booking
 * reloaded). "E-mail the customer" is on when the booking has an address. Loaded lazily from the
 * booking's details.
 */
import { useEffect, useState, type FormEvent } from 'react';
import type { FieldError } from '#domain/messages.ts';
import { ApiError, type BookingDto, type StatusChangeDto } from '../lib/staff-api.ts';
import { staffBookingApi, type EditAnswer } from '../lib/staff-booking-api.ts';
import {
  ADJUSTMENT_NOT_AMOUNT,
  NO_ADDRESS,
  AddressFieldset,
  aucklandToday,
  CustomerFieldset,
  PriceFieldset,
  QuoteLines,
  ServiceFieldset,
  WhenFieldset,
  centsOf,
  draftOf,
  vehiclesOf,
  useResources,
  useStaffSlots,
  type BookingDraft,
} from './BookingFields.tsx';
import { Dialog } from './Dialog.tsx';

export interface EditBookingDialogProps {
  booking: BookingDto;
  onSaved(booking: BookingDto, history: StatusChangeDto[]): void;
  /** The booking changed meanwhile: as it is now, with its history. */
  onStale(booking: BookingDto, history: StatusChangeDto[]): void;
  onSignedOut(): void;
  onClose(): void;
}

const TEXT_FIELDS = ['name', 'phone', 'email', 'houseNumber', 'streetAddress', 'suburb', 'city', 'postalCode', 'region', 'landmark', 'notes', 'serviceType', 'date', 'time'] as const;

export default function EditBookingDialog({ booking, onSaved, onStale, onSignedOut, onClose }: EditBookingDialogProps) {
  const original = draftOf(booking);
  const [draft, setDraft] = useState<BookingDraft>(original);
  const [notify, setNotify] = useState(booking.email !== '');
  const resources = useResources();
  const slots = useStaffSlots(draft, booking._id);
  const [preview, setPreview] = useState<EditAnswer | null>(null);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const change = (patch: Partial<BookingDraft>) => {
    setPreview(null);
    setDraft((d) => ({ ...d, ...patch }));
  };
  const [today] = useState(aucklandToday);
  // The answer to "Preview" is below the fields: brought into view, or a phone would not show it.
  useEffect(() => {
    if (preview) document.getElementById('eb-preview-title')?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }, [preview]);

  /** Only what differs from the booking as opened (a drop-off sends no address: the server clears it). */
  const changedFields = (): Record<string, unknown> | undefined => {
    const body: Record<string, unknown> = {};
    for (const field of TEXT_FIELDS) {
      if (draft.serviceType === 'dropoff' && field in NO_ADDRESS) continue;
      if (draft[field] !== original[field]) body[field] = draft[field];
    }
    // The vehicles go whole when any of them changed: the server prices and times the job again.
    const vehicles = vehiclesOf(draft);
    if (JSON.stringify(vehicles) !== JSON.stringify(vehiclesOf(original))) body.vehicles = vehicles;
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
  const fields = { idPrefix: 'eb', draft, errors, change };
  return (
    <Dialog
      id="edit-booking"
      className="staff-booking"
      title={`Edit booking ${booking.reference}`}
      closeLabel="Close without saving"
      onClose={onClose}
      onSubmit={submit}
      refusal={refusal}
      submitLabel="Save changes"
      busy={busy}
      otherActions={
        <button type="button" className="button button-ghost" disabled={busy} onClick={() => void send(true)}>
          Preview
        </button>
      }
    >
      <CustomerFieldset {...fields} />
      <ServiceFieldset {...fields} />
      <AddressFieldset {...fields} />
      <WhenFieldset {...fields} today={today} slots={slots} resources={resources} />
      <PriceFieldset {...fields} hint="e.g. 25 for more, -10 for less; empty or 0 for none." />
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
    </Dialog>
  );
}
