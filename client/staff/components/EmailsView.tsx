/**
 * The "E-mails" view: the outbox newest first (to, subject, kind, booking, status with the last
 * error, attempts), a preview of each e-mail exactly as composed (its HTML part in a sandboxed
 * frame that may run nothing), and Resend for a failed or unsent one. Loaded when the tab is first
 * opened, like the Schedule view.
 */
import { useCallback, useEffect, useState } from 'react';
import { takeEarly } from '../lib/early-data.ts';
import { ApiError, staffApi, type OutboxEmailDetailDto, type OutboxEmailDto } from '../lib/staff-api.ts';
import { EmailStatus } from './EmailStatus.tsx';
import { dateTime } from './format.ts';
import './EmailsView.css';

const KIND_LABELS: Record<string, string> = {
  'booking-created': 'Booking received',
  'booking-confirmed': 'Booking confirmed',
  'booking-cancelled': 'Cancelled by staff',
  'booking-cancelled-by-customer': 'Cancelled by customer',
  'booking-moved': 'Booking moved',
  'booking-reminder': 'Reminder',
  'booking-weather': 'Weather: choose a new time',
  'staff-new-booking': 'New booking (staff)',
  'staff-contact-message': 'Contact message (staff)',
  'booking-links': 'Booking links (Find my booking)',
  'staff-invitation': 'Staff invitation',
  'staff-webhook-disabled': 'Webhook endpoint turned off (staff)',
};

function Preview({ id, onClose }: { id: string; onClose(): void }) {
  const [detail, setDetail] = useState<OutboxEmailDetailDto | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    staffApi.email(id).then(setDetail, () => setFailed(true));
  }, [id]);
  if (failed) return <p className="notice notice-error">The e-mail could not be loaded.</p>;
  if (!detail) return <p role="status">Loading the e-mail…</p>;
  return (
    <div className="email-preview" aria-label={`Preview: ${detail.email.subject}`} role="region">
      <dl className="email-headers">
        <dt>To</dt>
        <dd>{detail.email.to}</dd>
        {detail.replyTo && (
          <>
            <dt>Reply-To</dt>
            <dd>{detail.replyTo}</dd>
          </>
        )}
        <dt>Subject</dt>
        <dd>{detail.email.subject}</dd>
        {detail.invitation && (
          <>
            <dt>Invitation</dt>
            <dd>{`Calendar ${detail.invitation.method === 'CANCEL' ? 'cancellation' : 'invitation'} (.ics)`}</dd>
          </>
        )}
      </dl>
      <iframe className="email-frame" title={`HTML part of ${detail.email.subject}`} src={`/v1/emails/${id}/html`} sandbox="" />
      <details>
        <summary>Plain-text part</summary>
        <pre className="email-text">{detail.text}</pre>
      </details>
      <button type="button" className="button button-ghost button-small" onClick={onClose}>
        Close preview
      </button>
    </div>
  );
}

export default function EmailsView({ onSignedOut }: { onSignedOut(): void }) {
  const [emails, setEmails] = useState<OutboxEmailDto[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const fail = useCallback(
    (caught: unknown, message: string) => (caught instanceof ApiError && caught.status === 401 ? onSignedOut() : setError(message)),
    [onSignedOut],
  );

  /** The first page (`first`: the request sent when the tab was tapped), or the page after `cursor`. */
  const load = useCallback(
    (cursor: string | null, first = false) =>
      (first ? takeEarly('emails') : staffApi.emails({ cursor })).then(
        (answer) => {
          setEmails((list) => (cursor ? [...(list ?? []), ...answer.data] : answer.data));
          setNextCursor(answer.nextCursor);
        },
        (caught) => fail(caught, 'The e-mails could not be loaded.'),
      ),
    [fail],
  );

  useEffect(() => {
    void load(null, true);
  }, [load]);

  const resend = async (email: OutboxEmailDto) => {
    setBusy(email.id);
    setNotice(null);
    try {
      const updated = await staffApi.resendEmail(email.id);
      setEmails((list) => (list ?? []).map((e) => (e.id === updated.id ? updated : e)));
      setNotice(`“${email.subject}” is queued to be sent again.`);
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 409) {
        setNotice(caught.message);
        void load(null);
      } else fail(caught, 'The e-mail could not be queued again.');
    } finally {
      setBusy(null);
    }
  };

  if (error) {
    return (
      <p className="notice notice-error" role="alert">
        {error}
      </p>
    );
  }
  if (emails === null) {
    return (
      <div className="spinner" role="status">
        <span className="visually-hidden">Loading e-mails…</span>
      </div>
    );
  }
  return (
    <section aria-labelledby="emails-title">
      <div className="emails-head">
        <h2 id="emails-title">E-mails</h2>
        <button type="button" className="button button-ghost button-small" onClick={() => void load(null)}>
          Refresh
        </button>
      </div>
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      {emails.length === 0 ? (
        <div className="card empty">
          <p className="empty-title">No e-mails yet</p>
        </div>
      ) : (
        <ul className="emails">
          {emails.map((email) => (
            <li key={email.id} className="card email">
              <div className="email-row">
                <div className="email-main">
                  <h3>{email.subject}</h3>
                  <p className="email-meta">
                    {`To ${email.to} · ${KIND_LABELS[email.kind] ?? email.kind}`}
                    {email.bookingReference && ` · Booking ${email.bookingReference}`}
                    {` · ${dateTime(email.createdAt)} · ${email.attempts} ${email.attempts === 1 ? 'attempt' : 'attempts'}`}
                  </p>
                  <EmailStatus email={email} />
                </div>
                <div className="email-actions">
                  <button type="button" className="button button-ghost button-small" aria-expanded={open === email.id} onClick={() => setOpen(open === email.id ? null : email.id)}>
                    Preview<span className="visually-hidden">: {email.subject}</span>
                  </button>
                  {(email.status === 'failed' || email.status === 'unsent') && (
                    <button type="button" className="button button-accent button-small" disabled={busy === email.id} onClick={() => void resend(email)}>
                      Resend<span className="visually-hidden">: {email.subject}</span>
                    </button>
                  )}
                </div>
              </div>
              {open === email.id && <Preview id={email.id} onClose={() => setOpen(null)} />}
            </li>
          ))}
        </ul>
      )}
      {nextCursor && (
        <button type="button" className="button button-ghost" onClick={() => void load(nextCursor)}>
          Load more
        </button>
      )}
    </section>
  );
}
