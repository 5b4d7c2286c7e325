/**
 * A customer's privacy requests on their page (issue 22; Privacy Act principles 6, 7 and 9):
 * export everything held (JSON or CSV), correct their details across their bookings, and erase
 * them after a confirmation step that says what will go. Export and erasure are the owner's:
 * the server answers 403 to anyone else, and its message is shown.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import type { CustomerCorrectedDto, CustomerDetailsDto, ErasureResultDto } from '#api/customer-schemas.ts';
import type { BookingDto } from '#api/schemas.ts';
import { ADDRESS_FIELDS, REGIONS } from '#domain/booking-rules.ts';
import type { FieldError } from '#domain/messages.ts';
import { CORRECTION_FIELDS, confirmsErasure, ERASE_CONFIRMATION_WORD, type CustomerCorrection } from '#domain/privacy.ts';
import { errorFor, focusFirstError, SelectField, TextField } from '../../components/Field.tsx';
import { ApiError, call } from '../lib/staff-api.ts';

type Correctable = (typeof CORRECTION_FIELDS)[number];

const LABELS: Record<Correctable, string> = {
  name: 'Name',
  email: 'E-mail',
  phone: 'Phone',
  houseNumber: 'House/unit number',
  streetAddress: 'Street address',
  suburb: 'Suburb',
  city: 'City',
  postalCode: 'Postal code',
  region: 'Region',
  landmark: 'Landmark',
};

const ERASED_LABELS: Record<keyof ErasureResultDto['erased'], string> = {
  bookings: 'bookings (amounts, dates and invoices kept)',
  booking_status_changes: 'history lines',
  booking_notes: 'internal notes',
  contact_messages: 'contact messages',
  outbox_emails: 'e-mails',
  idempotency_keys: 'stored answers',
  waitlist_entries: 'waitlist entries',
};

/** Their latest on-site booking: the address a correction starts from, and "Book again" fills in. */
export function lastOnSite(bookings: readonly BookingDto[]): BookingDto | undefined {
  return bookings.find((b) => b.serviceType === 'onsite');
}

function currentDetails({ customer, bookings }: CustomerDetailsDto): Record<Correctable, string> {
  const address = lastOnSite(bookings);
  const values = { name: customer.name, email: customer.email, phone: customer.phone } as Record<Correctable, string>;
  for (const field of [...ADDRESS_FIELDS, 'landmark'] as const) values[field] = address?.[field] ?? '';
  return values;
}

/** A form's last lines: the server's refusal, if any, then its submit button and Cancel. */
function FormEnd({ message, onCancel, children }: { message: string | null; onCancel(): void; children: ReactNode }) {
  return (
    <>
      {message && (
        <p className="notice notice-error" role="alert">
          {message}
        </p>
      )}
      <div className="customer-privacy-actions">
        {children}
        <button type="button" className="button button-ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </>
  );
}

function CorrectForm({ details, onCorrected, onCancel }: { details: CustomerDetailsDto; onCorrected(id: string): void; onCancel(): void }) {
  const start = currentDetails(details);
  const hasAddress = lastOnSite(details.bookings) !== undefined;
  const fields = CORRECTION_FIELDS.filter((f) => hasAddress || (!(ADDRESS_FIELDS as readonly string[]).includes(f) && f !== 'landmark'));
  const [values, setValues] = useState(start);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const changed: CustomerCorrection = {};
    for (const field of fields) if (values[field] !== start[field]) changed[field] = values[field];
    setBusy(true);
    setMessage(null);
    try {
      const result = await call<CustomerCorrectedDto>(`/v1/customers/${details.customer.id}`, { method: 'PATCH', body: JSON.stringify(changed) });
      onCorrected(result.customer.id);
    } catch (caught) {
      const list = caught instanceof ApiError && Array.isArray(caught.body.errors) ? (caught.body.errors as FieldError[]) : [];
      setErrors(list);
      setMessage(caught instanceof ApiError ? caught.message : 'The details could not be saved.');
      focusFirstError('correct', list);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card customer-privacy-form" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="correct-title">
      <h3 id="correct-title">Correct details</h3>
      <p className="customer-muted">Changes every one of their bookings{hasAddress ? ' (the address on on-site ones)' : ''}; each booking’s history says what changed.</p>
      {fields.map((field) =>
        field === 'region' ? (
          <SelectField key={field} idPrefix="correct" name={field} label={LABELS[field]} placeholder="Choose a region" options={REGIONS} value={values[field]} error={errorFor(errors, field)} onChange={(v) => setValues({ ...values, [field]: v })} />
        ) : (
          <TextField
            key={field}
            idPrefix="correct"
            name={field}
            label={LABELS[field]}
            type={field === 'email' ? 'email' : field === 'phone' ? 'tel' : 'text'}
            value={values[field]}
            error={errorFor(errors, field)}
            onChange={(v) => setValues({ ...values, [field]: v })}
          />
        ),
      )}
      <FormEnd message={message} onCancel={onCancel}>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save corrections'}
        </button>
      </FormEnd>
    </form>
  );
}

function EraseForm({ details, onErased, onCancel }: { details: CustomerDetailsDto; onErased(result: ErasureResultDto): void; onCancel(): void }) {
  const { customer, bookings, messages } = details;
  const [typed, setTyped] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const confirmed = confirmsErasure(typed, customer.name);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!confirmed) return;
    setBusy(true);
    setMessage(null);
    try {
      onErased(await call<ErasureResultDto>(`/v1/customers/${customer.id}/erasure`, { method: 'POST', body: JSON.stringify({ confirmation: typed }) }));
    } catch (caught) {
      setMessage(caught instanceof ApiError ? caught.message : 'The customer could not be erased.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card customer-privacy-form customer-erase" onSubmit={(e) => void submit(e)} aria-labelledby="erase-title">
      <h3 id="erase-title">Erase this customer</h3>
      <p>This replaces their name, e-mail, phone, address, landmark and notes, and cannot be undone:</p>
      <ul>
        <li>{`${bookings.length} booking${bookings.length === 1 ? '' : 's'}, with their history and internal notes (amounts, dates, packages and invoice numbers are kept for tax)`}</li>
        <li>{`${messages.length} contact message${messages.length === 1 ? '' : 's'}`}</li>
        <li>Every e-mail sent to {customer.email || 'them'} (recipient, subject and contents); their manage links stop working</li>
      </ul>
      <div className="field">
        <label htmlFor="erase-confirm">{`Type ${ERASE_CONFIRMATION_WORD} or “${customer.name}” to confirm`}</label>
        <input id="erase-confirm" value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" maxLength={100} />
      </div>
      <FormEnd message={message} onCancel={onCancel}>
        <button type="submit" className="button button-danger" disabled={!confirmed || busy}>
          {busy ? 'Erasing…' : 'Erase permanently'}
        </button>
      </FormEnd>
    </form>
  );
}

/** Export links, and the correction and erasure steps, one open at a time. */
export function CustomerPrivacy({ details, onCorrected, onErased }: { details: CustomerDetailsDto; onCorrected(id: string): void; onErased(): void }) {
  const [open, setOpen] = useState<'correct' | 'erase' | null>(null);
  const [erased, setErased] = useState<ErasureResultDto | null>(null);
  const base = `/v1/customers/${details.customer.id}/export`;

  if (erased) {
    return (
      <div className="card customer-privacy" role="status">
        <h3>Customer erased</h3>
        <ul>
          {Object.entries(erased.erased).map(([table, n]) => (
            <li key={table}>{`${n} ${ERASED_LABELS[table as keyof ErasureResultDto['erased']]}`}</li>
          ))}
        </ul>
        <button type="button" className="button button-primary button-small" onClick={onErased}>
          Back to all customers
        </button>
      </div>
    );
  }
  return (
    <section className="customer-privacy" aria-labelledby="privacy-title">
      <h3 id="privacy-title">Privacy requests</h3>
      <div className="customer-privacy-actions">
        <a className="button button-ghost button-small" href={base} download>
          Export (JSON)
        </a>
        <a className="button button-ghost button-small" href={`${base}?format=csv`} download>
          Export (CSV)
        </a>
        <button type="button" className="button button-ghost button-small" aria-expanded={open === 'correct'} onClick={() => setOpen(open === 'correct' ? null : 'correct')}>
          Correct details
        </button>
        <button type="button" className="button button-ghost button-small customer-erase-open" aria-expanded={open === 'erase'} onClick={() => setOpen(open === 'erase' ? null : 'erase')}>
          Erase…
        </button>
      </div>
      {open === 'correct' && (
        <CorrectForm
          details={details}
          onCorrected={(id) => {
            setOpen(null);
            onCorrected(id);
          }}
          onCancel={() => setOpen(null)}
        />
      )}
      {open === 'erase' && <EraseForm details={details} onErased={setErased} onCancel={() => setOpen(null)} />}
    </section>
  );
}
