/**
 * /dashboard/invitation/{token} (issue 22): a new member of staff sets their password through the
 * owner's invitation. A plain form post (password and confirmPassword, URL-encoded) to the page's
 * own address, so it works without JavaScript; the server answers with this page again: the
 * form with its errors, the confirmation, or a used or expired link's explanation.
 */
import { INVITATION_PATH_PREFIX, MIN_PASSWORD_LENGTH, STAFF_MEMBER_LIMITS, STAFF_MEMBER_MESSAGES } from '#domain/staff-members.ts';
import { errorFor } from '../../components/Field.tsx';
import type { PageProps } from '../../page-props.ts';
import type { InvitationState } from '../../page-state.ts';
import '../../components/Field.css';
import './DashboardPage.css';

function PasswordField({ name, label, error, hint }: { name: string; label: string; error: string | undefined; hint?: string }) {
  const id = `invitation-${name}`;
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={error ? 'field has-error' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <input
        id={id}
        name={name}
        type="password"
        autoComplete="new-password"
        required
        minLength={MIN_PASSWORD_LENGTH}
        maxLength={STAFF_MEMBER_LIMITS.password}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
      />
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

export default function InvitationPage({ state, business }: PageProps<InvitationState>) {
  return (
    <>
      <div className="staff-header">
        <a className="staff-brand" href="/dashboard">
          {business.name} <span>Staff</span>
        </a>
      </div>
      <section className="section">
        <div className="container narrow">
          {state.status === 'open' && (
            <form className="card form sign-in" method="post" action={`${INVITATION_PATH_PREFIX}${state.token}`} aria-labelledby="invitation-title">
              <h1 id="invitation-title">Set your password</h1>
              <p>
                Welcome, {state.name}. Choose the password you will sign in with, together with your e-mail address <strong>{state.email}</strong>.
              </p>
              {/* Lets a password manager file the new password under the right address. */}
              <input type="hidden" name="username" value={state.email} autoComplete="username" disabled />
              <PasswordField
                name="password"
                label="New password"
                error={errorFor(state.errors, 'password')}
                hint={`At least ${MIN_PASSWORD_LENGTH} characters, and not a common password.`}
              />
              <PasswordField name="confirmPassword" label="New password again" error={errorFor(state.errors, 'confirmPassword')} />
              <button type="submit" className="button button-accent button-large">
                Set password
              </button>
            </form>
          )}
          {state.status === 'done' && (
            <div className="card sign-in">
              <h1>Your password is set</h1>
              <p role="status">{STAFF_MEMBER_MESSAGES.passwordSet}</p>
              <p>
                <a className="button button-accent button-large" href={`/dashboard?email=${encodeURIComponent(state.email)}`}>
                  Sign in
                </a>
              </p>
            </div>
          )}
          {state.status === 'gone' && (
            <div className="card sign-in">
              <h1>This link no longer works</h1>
              <p role="alert">{STAFF_MEMBER_MESSAGES.invitationGone}</p>
              <p>
                <a className="text-link" href="/dashboard">
                  Go to the staff sign-in
                </a>
              </p>
            </div>
          )}
        </div>
      </section>
    </>
  );
}
