/** The e-mails of one booking, in its details modal: what the customer and staff were sent, and whether it went. */
import { useEffect, useState } from 'react';
import { staffApi, type OutboxEmailDto } from '../lib/staff-api.ts';
import { EmailStatus } from './EmailStatus.tsx';
import { dateTime } from './format.ts';

export function BookingEmails({ bookingId }: { bookingId: string }) {
  const [emails, setEmails] = useState<OutboxEmailDto[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    staffApi.emails({ bookingId }).then((answer) => setEmails(answer.data), () => setFailed(true));
  }, [bookingId]);
  if (failed) return <p>The e-mails could not be loaded.</p>;
  if (emails === null) return <p>Loading e-mails…</p>;
  if (emails.length === 0) return <p>No e-mails.</p>;
  return (
    <ul className="booking-emails">
      {emails.map((email) => (
        <li key={email.id}>
          {`${dateTime(email.createdAt)}: ${email.subject} (to ${email.to}) `}
          <EmailStatus email={email} />
        </li>
      ))}
    </ul>
  );
}
