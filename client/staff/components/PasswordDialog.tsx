/**
 * Changing one's own password (issue 22): current password, new password, the new one again, sent
 * to POST /v1/account/password. The server applies the policy (at least 12 characters, not a
 * common password, the same as set-password's) and its messages are shown beside the fields they
 * are about; a change signs out the member's other sessions and keeps this one. The owner signed
 * in with the configured password has no account here: the dialog says where that password is
 * changed instead. Loaded on demand, so the dashboard's own bundle does not grow.
 */
import { useState, type FormEvent } from 'react';
import type { FieldError } from '#domain/messages.ts';
import { MIN_PASSWORD_LENGTH, STAFF_MEMBER_LIMITS } from '#domain/staff-members.ts';
import { errorFor, focusFirstError } from '../../components/field-errors.ts';
import { TextField } from '../../components/Field.tsx';
import { ApiError, send } from '../lib/staff-api.ts';
import { Dialog } from './Dialog.tsx';

export interface PasswordDialogProps {
  /** Signed in with a staff account (false: the owner's configured password). */
  account: boolean;
  onSignedOut(): void;
  onClose(): void;
}

const ID = 'password';

type Field = 'currentPassword' | 'newPassword' | 'confirmPassword';

const FIELDS: { name: Field; label: string; autoComplete: string; hint?: string }[] = [
  { name: 'currentPassword', label: 'Current password', autoComplete: 'current-password' },
  { name: 'newPassword', label: 'New password', autoComplete: 'new-password', hint: `At least ${MIN_PASSWORD_LENGTH} characters, and not a common password.` },
  { name: 'confirmPassword', label: 'New password again', autoComplete: 'new-password' },
];

/** "You stay signed in here; 2 other sessions were signed out." */
function endedText(ended: number): string {
  if (ended === 0) return 'You stay signed in here; you were signed in nowhere else.';
  return `You stay signed in here; ${ended === 1 ? '1 other session was' : `${ended} other sessions were`} signed out.`;
}

function DoneButton({ onClose }: { onClose(): void }) {
  return (
    <button type="button" className="button button-accent" onClick={onClose}>
      Done
    </button>
  );
}

export default function PasswordDialog({ account, onSignedOut, onClose }: PasswordDialogProps) {
  const [values, setValues] = useState<Record<Field, string>>({ currentPassword: '', newPassword: '', confirmPassword: '' });
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [ended, setEnded] = useState<number | null>(null);

  if (!account) {
    return (
      <Dialog id={ID} title="Change password" closeLabel="Close" onClose={onClose} foot={<DoneButton onClose={onClose} />}>
        <p>
          You signed in with the owner’s password alone. It belongs to no staff account, so it is not changed here: change it where the server runs,
          with <code>npm run set-password</code> (in the Docker image: <code>node dist/server/set-password.js</code>), which also signs out every session.
        </p>
        <p>To have a password of your own, add yourself in the Staff tab with your e-mail address and accept the invitation.</p>
      </Dialog>
    );
  }

  if (ended !== null) {
    return (
      <Dialog id={ID} title="Password changed" closeLabel="Close" onClose={onClose} foot={<DoneButton onClose={onClose} />}>
        <p className="notice notice-success" role="status">
          Your password is changed. {endedText(ended)} Sign in with the new password from now on.
        </p>
      </Dialog>
    );
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setRefusal(null);
    try {
      const answer = await send<{ endedSessions: number }>('POST', '/v1/account/password', values);
      setErrors([]);
      setEnded(answer.endedSessions);
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 401) return onSignedOut();
      const fieldErrors = caught instanceof ApiError && Array.isArray(caught.body.errors) ? (caught.body.errors as FieldError[]).filter((e) => FIELDS.some((f) => f.name === e.field)) : [];
      setErrors(fieldErrors);
      if (fieldErrors.length > 0) {
        // Focus after React has drawn the messages, so that the field is described by its error.
        requestAnimationFrame(() => focusFirstError(ID, fieldErrors));
      } else {
        setRefusal(caught instanceof ApiError ? caught.message : 'The password could not be changed. Check the connection and try again.');
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog id={ID} title="Change password" closeLabel="Close without changing" onClose={onClose} onSubmit={submit} refusal={refusal} submitLabel="Change password" busy={busy}>
      <p>Your other sessions (other phones and computers) will be signed out; this one stays signed in.</p>
      {FIELDS.map(({ name, label, autoComplete, hint }) => (
        <TextField
          key={name}
          idPrefix={ID}
          name={name}
          label={label}
          hint={hint}
          type="password"
          autoComplete={autoComplete}
          maxLength={STAFF_MEMBER_LIMITS.password}
          value={values[name]}
          onChange={(value) => setValues((current) => ({ ...current, [name]: value }))}
          error={errorFor(errors, name)}
        />
      ))}
    </Dialog>
  );
}
