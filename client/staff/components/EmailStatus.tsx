/** An e-mail's outbox status as a badge, with the last error of a failed or unsent one. */
import type { OutboxEmailDto } from '../lib/staff-api.ts';
import './StatusBadge.css';
import './EmailStatus.css';

export function EmailStatus({ email }: { email: Pick<OutboxEmailDto, 'status' | 'lastError' | 'attempts'> }) {
  return (
    <span className="email-status">
      <span className={`status-badge email-badge email-${email.status}`}>{email.status}</span>
      {email.lastError && email.status !== 'sent' && <span className="email-error">{email.lastError}</span>}
    </span>
  );
}
