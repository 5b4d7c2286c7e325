/**
 * 'Booking Details' (spec section 2): every field by the spec's rules, the vehicles with their
 * packages and add-ons and the job line by line (issue 41), its regular plan or the control that
 * makes one (issue 43), the status changes and their history. A native modal <dialog>: the page behind is inert, focus stays inside, Escape,
 * Close and the X button close it.
 */
import { Suspense, useEffect, useRef, useState } from 'react';
import { lazyPart } from '../lib/lazy-part.ts';
import { adjustmentLabel, discountLabel, formatNzd, TRAVEL_FEE_LABEL } from '#domain/pricing.ts';
import { OUTSIDE_SERVICE_AREA } from '#domain/van-day.ts';
import { packageForPeople } from '#domain/catalogue.ts';
import { vehicleName } from '#domain/job.ts';
import { vehicleCount } from '#domain/vehicle-count.ts';
import { addOnNames } from '#domain/vehicle-text.ts';
import type { BookingDto, StatusChangeDto } from '../lib/staff-api.ts';
import { useOpening } from '../lib/use-opening.ts';
import { Icon } from '../../components/Icon.tsx';
import { BookingEmails } from './BookingEmails.tsx';
import BookingNotes from './BookingNotes.tsx';
import { BookingPlan } from './BookingPlan.tsx';
import { Fact } from './Fact.tsx';
import { dateTime, longDate } from './format.ts';
import { StatusActions } from './StatusActions.tsx';
import { ConfirmationBadge, StatusBadge } from './StatusBadge.tsx';
import './BookingModal.css';

// Loaded when "Edit booking" is first pressed (issue 21).
const EditBookingDialog = lazyPart('staff/components/EditBookingDialog.tsx', () => import('./EditBookingDialog.tsx'));

/** The wall-clock end of the work: the start plus the duration the job was booked with. */
function endOf(booking: BookingDto): string {
  const minutes = Number(booking.time.slice(0, 2)) * 60 + Number(booking.time.slice(3, 5)) + Math.round((Date.parse(booking.endsAt) - Date.parse(booking.startsAt)) / 60_000);
  return `${String(Math.floor(minutes / 60) % 24).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

export interface BookingModalProps {
  booking: BookingDto;
  history: StatusChangeDto[] | null;
  busy: boolean;
  notice: string | null;
  onStatus(booking: BookingDto, status: string): void;
  onClose(): void;
  /** Given: an "Edit booking" button, and the booking as saved (or as it is now, after a stale edit). */
  onEdited?(booking: BookingDto, history: StatusChangeDto[]): void;
  onSignedOut?(): void;
}

export function BookingModal({ booking, history, busy, notice, onStatus, onClose, onEdited, onSignedOut }: BookingModalProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [editing, setEditing] = useState(false);
  // The editor is loaded when first opened (see useOpening).
  const editor = useOpening();
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  const onsite = booking.serviceType === 'onsite';
  return (
    <dialog ref={dialog} className="booking-modal" aria-labelledby="modal-title" onClose={onClose} onCancel={onClose}>
      <div className="modal-head">
        <h2 id="modal-title">Booking Details</h2>
        <button type="button" className="icon-button" aria-label="Close details" onClick={onClose}>
          <Icon name="close" />
        </button>
      </div>
      <div className="modal-body">
        <p className="modal-service">
          <strong>{booking.vehicles.length > 1 ? `${booking.service} · ${vehicleCount(booking.vehicles)}` : booking.service}</strong> <StatusBadge status={booking.status} late={booking.cancelledLate} /> <ConfirmationBadge booking={booking} />
        </p>
        <p>{`Scheduled for ${longDate(booking.date)} at ${booking.time}–${endOf(booking)}${booking.resourceId || booking.status === 'cancelled' ? '' : ' (needs a van or bay: see the Day view)'}`}</p>
        <p>{`Reference ${booking.reference}`}</p>
        {notice && (
          <p className="notice notice-error" role="alert">
            {notice}
          </p>
        )}
        <StatusActions booking={booking} busy={busy} onChange={onStatus} />
        {onEdited && (
          <p>
            <button type="button" className="button button-ghost button-small" aria-busy={editor.busy('edit')} onClick={() => editor.open('edit', () => setEditing(true))}>
              Edit booking
            </button>
          </p>
        )}
        <BookingPlan booking={booking} onSignedOut={onSignedOut} />
        {booking.source === 'staff' && <p>{`Taken by ${booking.createdBy ?? 'staff'}`}</p>}
        <h3>Customer Information</h3>
        <dl className="modal-facts">
          <Fact label="Name" value={booking.name} />
          <Fact label="Email" value={booking.email} />
          <Fact label="Phone" value={booking.phone} />
        </dl>
        <h3>Vehicle Information</h3>
        <ol className="modal-vehicles">
          {booking.vehicles.map((vehicle, i) => (
            <li key={i}>
              <strong>{vehicleName(vehicle, i)}</strong>
              <dl className="modal-facts">
                <Fact label="Vehicle Type" value={vehicle.vehicleType.toUpperCase()} />
                {vehicle.plate && (vehicle.make || vehicle.model) && <Fact label="Make and Model" value={`${vehicle.make} ${vehicle.model}`.trim()} />}
                {vehicle.colour && <Fact label="Colour" value={vehicle.colour} />}
                <Fact label="Package" value={packageForPeople({ service: vehicle.service, coating_type: vehicle.coatingType })} />
                {vehicle.addOns.length > 0 && <Fact label="Add-ons" value={addOnNames(vehicle.addOns)} />}
              </dl>
            </li>
          ))}
        </ol>
        <h3>Service Details</h3>
        <dl className="modal-facts">
          <Fact label="Service Type" value={onsite ? 'On-site Service' : 'In-shop Service'} />
        </dl>
        {onsite && (
          <>
            <h3>Location Details</h3>
            <dl className="modal-facts">
              <Fact label="Address" value={`${booking.houseNumber} ${booking.streetAddress}`} />
              <Fact label="Suburb" value={booking.suburb} />
              <Fact label="City" value={booking.city} />
              <Fact label="Postal Code" value={booking.postalCode} />
              <Fact label="Region" value={booking.region} />
              <Fact label="Landmark" value={booking.landmark} />
              {/* The zone's name comes with the details (GET /v1/bookings/{id}), not with the list the modal opens from. */}
              {booking.outsideServiceArea ? <Fact label="Service Area" value={OUTSIDE_SERVICE_AREA} /> : booking.zoneName && <Fact label="Service Area" value={booking.zoneName} />}
            </dl>
          </>
        )}
        <h3>Price</h3>
        <dl className="modal-facts modal-lines">
          {booking.quote.lines.map((line, i) => (
            <Fact key={i} label={`${line.description}${line.quantity > 1 ? ` × ${line.quantity}` : ''} (${line.minutes} min)`} value={formatNzd(line.totalCents)} />
          ))}
          <Fact label="Time" value={`${booking.quote.durationMinutes} min`} />
        </dl>
        <dl className="modal-facts">
          <Fact label="List Price" value={formatNzd(booking.quote.listPriceCents)} />
          {booking.quote.discount && <Fact label={discountLabel(booking.quote.discount)} value={`−${formatNzd(booking.quote.discountCents)}`} />}
          {booking.quote.travelFeeCents > 0 && <Fact label={TRAVEL_FEE_LABEL} value={formatNzd(booking.quote.travelFeeCents)} />}
          {booking.quote.adjustment && <Fact label={adjustmentLabel(booking.quote.adjustment)} value={formatNzd(booking.quote.adjustment.cents)} />}
          <Fact label="Total" value={formatNzd(booking.quote.totalCents)} />
        </dl>
        {booking.notes && (
          <>
            <h3>Additional Notes</h3>
            <p className="modal-notes">{booking.notes}</p>
          </>
        )}
        <h3>Internal Notes</h3>
        <BookingNotes bookingId={booking._id} />
        <h3>Status History</h3>
        {history === null ? (
          <p>Loading history…</p>
        ) : history.length === 0 ? (
          <p>No changes yet.</p>
        ) : (
          <ol className="history">
            {history.map((change) => (
              <li key={`${change.at}-${change.to}`}>
                {change.changes
                  ? `${dateTime(change.at)}: Edited by ${change.by}: ${change.changes.map((c) => `${c.field} ${c.from || '(none)'} → ${c.to || '(none)'}`).join('; ')}`
                  : change.move
                  ? `${dateTime(change.at)}: Moved by ${change.by} from ${longDate(change.move.from.date)} ${change.move.from.time} to ${longDate(change.move.to.date)} ${change.move.to.time}`
                  : `${dateTime(change.at)}: ${change.by} changed ${change.from} → ${change.to}${change.note ? ` (${change.note})` : ''}`}
              </li>
            ))}
          </ol>
        )}
        <h3>E-mails</h3>
        <BookingEmails bookingId={booking._id} />
      </div>
      <div className="modal-foot">
        <button type="button" className="button button-ghost" onClick={onClose}>
          Close
        </button>
      </div>
      <Suspense fallback={null}>
        {editing && onEdited && (
          <EditBookingDialog
            booking={booking}
            onSaved={(saved, savedHistory) => {
              setEditing(false);
              onEdited(saved, savedHistory);
            }}
            onStale={onEdited}
            onSignedOut={() => onSignedOut?.()}
            onClose={() => setEditing(false)}
          />
        )}
      </Suspense>
    </dialog>
  );
}
