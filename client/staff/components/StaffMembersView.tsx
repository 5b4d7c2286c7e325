/**
 * The "Staff" view (issue 22), the owner's alone: the staff accounts with their role and status,
 * a form to invite a member by e-mail (a single-use link valid for 48 hours), and for each member
 * a role to choose, Disable or Enable (disabling ends their sessions at once), and Invite again.
 * Loaded when the tab is first opened.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { StaffMemberDto } from '#api/staff-member-schemas.ts';
import { STAFF_MEMBER_LIMITS } from '#domain/staff-members.ts';
import { ApiError, call } from '../lib/staff-api.ts';
import { dateTime } from './format.ts';
import './StaffMembersView.css';

type Role = StaffMemberDto['role'];

const STATUS_LABELS: Record<StaffMemberDto['status'], string> = {
  invited: 'Invited',
  active: 'Active',
  disabled: 'Disabled',
};

const json = (method: string, body: unknown): RequestInit => ({ method, body: JSON.stringify(body) });

const api = {
  list: () => call<{ members: StaffMemberDto[] }>('/v1/staff-members'),
  invite: (body: { name: string; email: string; role: Role }) => call<StaffMemberDto>('/v1/staff-members', json('POST', body)),
  change: (id: string, body: { role?: Role; disabled?: boolean }) => call<StaffMemberDto>(`/v1/staff-members/${id}`, json('PATCH', body)),
  reinvite: (id: string) => call<StaffMemberDto>(`/v1/staff-members/${id}/invitation`, { method: 'POST' }),
};

function fieldMessage(caught: unknown, field: string): string | undefined {
  if (!(caught instanceof ApiError)) return undefined;
  const errors = (caught.body.errors ?? []) as { field: string; message: string }[];
  return errors.find((e) => e.field === field)?.message;
}

function InviteField(props: { name: string; label: string; type?: 'email'; value: string; onChange(value: string): void; maxLength: number; error: string | undefined }) {
  const id = `staff-invite-${props.name}`;
  return (
    <div className={props.error ? 'field has-error' : 'field'}>
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        type={props.type ?? 'text'}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        maxLength={props.maxLength}
        required
        autoComplete="off"
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
      />
      {props.error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {props.error}
        </p>
      )}
    </div>
  );
}

function InviteForm({ onInvited, fail }: { onInvited(member: StaffMemberDto): void; fail(caught: unknown): string | null }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('staff');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<{ name?: string; email?: string; form?: string }>({});

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      const member = await api.invite({ name: name.trim(), email: email.trim(), role });
      setName('');
      setEmail('');
      setRole('staff');
      onInvited(member);
    } catch (caught) {
      const nameError = fieldMessage(caught, 'name');
      const emailError = fieldMessage(caught, 'email');
      setErrors({ name: nameError, email: emailError, form: nameError || emailError ? undefined : (fail(caught) ?? undefined) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card form staff-invite" onSubmit={submit} aria-labelledby="staff-invite-title" noValidate>
      <h3 id="staff-invite-title">Invite a member of staff</h3>
      <p className="staff-hint">They get an e-mail with a link to set their password. The link works once, for 48 hours.</p>
      {errors.form && (
        <p className="notice notice-error" role="alert">
          {errors.form}
        </p>
      )}
      <div className="staff-invite-fields">
        <InviteField name="name" label="Name" value={name} onChange={setName} maxLength={STAFF_MEMBER_LIMITS.name} error={errors.name} />
        <InviteField name="email" label="E-mail" type="email" value={email} onChange={setEmail} maxLength={STAFF_MEMBER_LIMITS.email} error={errors.email} />
        <div className="field">
          <label htmlFor="staff-invite-role">Role</label>
          <select id="staff-invite-role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
            <option value="staff">Staff</option>
            <option value="owner">Owner</option>
          </select>
        </div>
      </div>
      <button type="submit" className="button button-accent" disabled={busy}>
        {busy ? 'Sending…' : 'Send invitation'}
      </button>
    </form>
  );
}

function MemberRow({ member, busy, act }: { member: StaffMemberDto; busy: boolean; act(id: string, action: () => Promise<StaffMemberDto>, done: string): void }) {
  const disabled = member.status === 'disabled';
  return (
    <li className="card staff-member">
      <div className="staff-member-head">
        <strong>{member.name}</strong>
        <span className={`badge staff-status staff-status-${member.status}`}>{STATUS_LABELS[member.status]}</span>
      </div>
      <p className="staff-member-email">{member.email}</p>
      {member.status === 'invited' && member.invitationExpiresAt && (
        <p className="staff-hint">Invitation open until {dateTime(member.invitationExpiresAt)}</p>
      )}
      {member.status === 'invited' && !member.invitationExpiresAt && <p className="staff-hint">The invitation has expired.</p>}
      <div className="staff-member-actions">
        <label className="staff-role">
          <span>Role</span>
          <select
            value={member.role}
            disabled={busy}
            aria-label={`Role of ${member.name}`}
            onChange={(e) => {
              const role = e.target.value as Role;
              act(member.id, () => api.change(member.id, { role }), `${member.name} is now ${role === 'owner' ? 'an owner' : 'staff'}.`);
            }}
          >
            <option value="staff">Staff</option>
            <option value="owner">Owner</option>
          </select>
        </label>
        <button
          type="button"
          className="button button-ghost button-small"
          disabled={busy}
          onClick={() =>
            act(member.id, () => api.change(member.id, { disabled: !disabled }), disabled ? `${member.name} can sign in again.` : `${member.name} is disabled and signed out.`)
          }
        >
          {disabled ? 'Enable' : 'Disable'}
          <span className="visually-hidden"> {member.name}</span>
        </button>
        {!disabled && (
          <button type="button" className="button button-ghost button-small" disabled={busy} onClick={() => act(member.id, () => api.reinvite(member.id), `A new invitation is on its way to ${member.email}.`)}>
            Invite again<span className="visually-hidden"> {member.name}</span>
          </button>
        )}
      </div>
    </li>
  );
}

export default function StaffMembersView({ onSignedOut }: { onSignedOut(): void }) {
  const [members, setMembers] = useState<StaffMemberDto[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  /** The message to show for a failed call, or null when the session has ended (the sign-in form shows instead). */
  const fail = useCallback(
    (caught: unknown): string | null => {
      if (caught instanceof ApiError && caught.status === 401) {
        onSignedOut();
        return null;
      }
      return caught instanceof ApiError ? caught.message : 'The staff accounts could not be reached. Check the connection and try again.';
    },
    [onSignedOut],
  );

  useEffect(() => {
    api.list().then(
      (answer) => setMembers(answer.members),
      (caught) => setError(fail(caught)),
    );
  }, [fail]);

  const replace = (member: StaffMemberDto) => setMembers((list) => (list ?? []).map((m) => (m.id === member.id ? member : m)));

  const act = (id: string, action: () => Promise<StaffMemberDto>, done: string) => {
    setBusy(id);
    setNotice(null);
    setError(null);
    action().then(
      (member) => {
        replace(member);
        setNotice(done);
      },
      (caught) => setError(fail(caught)),
    ).finally(() => setBusy(null));
  };

  return (
    <section className="staff-members" aria-labelledby="staff-members-title">
      <h2 id="staff-members-title">Staff</h2>
      <p className="staff-hint">Each member signs in with their own e-mail and password; the history shows who did what. The owner password keeps working.</p>
      <div role="status">{notice && <p className="notice notice-success">{notice}</p>}</div>
      {error && (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      )}
      <InviteForm
        fail={fail}
        onInvited={(member) => {
          setMembers((list) => [...(list ?? []), member]);
          setNotice(`An invitation is on its way to ${member.email}.`);
        }}
      />
      {members === null && !error && (
        <div className="spinner" role="status">
          <span className="visually-hidden">Loading the staff accounts…</span>
        </div>
      )}
      {members !== null && members.length === 0 && <p className="empty">No members yet: invite the first above.</p>}
      {members !== null && members.length > 0 && (
        <ul className="staff-member-list" aria-label="Staff accounts">
          {members.map((member) => (
            <MemberRow key={member.id} member={member} busy={busy === member.id} act={act} />
          ))}
        </ul>
      )}
    </section>
  );
}
