/**
 * Moving a job (issue 20): another date, start time and/or van or bay, or "let the schedule
 * choose". A form in a native modal <dialog> (keyboard first, no dragging); the server's engine
 * decides, and its refusal is shown as it says it (full, closed, outside the hours, that van busy).
 */
import { useState, type FormEvent } from 'react';
import type { FieldError } from '#domain/messages.ts';
import { SelectField, TextField, errorFor } from '../../components/Field.tsx';
import { ApiError, staffApi, type BookingDto, type ResourceDto } from '../lib/staff-api.ts';
import { Dialog } from './Dialog.tsx';
import { longDate } from './format.ts';

export interface MoveDialogProps {
  booking: BookingDto;
  /** The vans and bays that may take it (active, of its kind). */
  resources: ResourceDto[];
  times: readonly string[];
  /** The earliest date staff may move to (today in Auckland). */
  today: string;
  onMoved(booking: BookingDto): void;
  onStale(booking: BookingDto): void;
  onSignedOut(): void;
  onClose(): void;
}

export function MoveDialog({ booking, resources, times, today, onMoved, onStale, onSignedOut, onClose }: MoveDialogProps) {
  const [draft, setDraft] = useState({ date: booking.date < today ? today : booking.date, time: booking.time, resourceId: booking.resourceId ?? '' });
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setErrors([]);
    setRefusal(null);
    try {
      const answer = await staffApi.move(booking, { date: draft.date, time: draft.time, resourceId: draft.resourceId || null });
      onMoved(answer.booking);
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 401) return onSignedOut();
      if (caught instanceof ApiError && caught.status === 409 && caught.body.booking) onStale(caught.body.booking as BookingDto);
      const fieldErrors = caught instanceof ApiError && caught.status === 400 && Array.isArray(caught.body.errors) ? (caught.body.errors as FieldError[]) : [];
      setErrors(fieldErrors);
      if (fieldErrors.length === 0 || !fieldErrors.some((e) => ['date', 'time', 'resourceId'].includes(e.field))) {
        setRefusal(caught instanceof ApiError ? caught.message : 'The move could not be saved. Check the connection and try again.');
      }
    } finally {
      setBusy(false);
    }
  };

  const kindWord = booking.serviceType === 'onsite' ? 'van' : 'bay';
  const nameOf = (id: string) => resources.find((r) => r.id === id)?.name ?? id;
  return (
    <Dialog
      id="move"
      title={`Move ${booking.name}’s job`}
      closeLabel="Close without moving"
      onClose={onClose}
      onSubmit={submit}
      refusal={refusal}
      submitLabel="Move job"
      busy={busy}
    >
      <p>
        {booking.service} · {booking.vehicleType.toUpperCase()} · now {longDate(booking.date)} at {booking.time}
        {booking.resourceId ? `, ${nameOf(booking.resourceId)}` : `, no ${kindWord} yet`}
      </p>
      <TextField idPrefix="move" name="date" label="Date" type="date" nativeRequired min={today} value={draft.date} error={errorFor(errors, 'date')} onChange={(date) => setDraft((d) => ({ ...d, date }))} />
      <SelectField idPrefix="move" name="time" label="Start time" placeholder="Choose a time" options={times} value={draft.time} error={errorFor(errors, 'time')} onChange={(time) => setDraft((d) => ({ ...d, time }))} />
      <SelectField
        idPrefix="move"
        name="resourceId"
        label={booking.serviceType === 'onsite' ? 'Van' : 'Bay'}
        placeholder="Let the schedule choose"
        options={resources.map((r) => r.id)}
        labelOf={nameOf}
        value={draft.resourceId}
        error={errorFor(errors, 'resourceId')}
        onChange={(resourceId) => setDraft((d) => ({ ...d, resourceId }))}
      />
    </Dialog>
  );
}
