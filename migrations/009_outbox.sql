-- The e-mail outbox (issue 11): every message is composed and written in the transaction that
-- causes it (a booking, a status change, a contact message), and a sender in the app claims the
-- due rows and sends them over SMTP. A row is claimed by moving next_attempt_at forward (a lease)
-- and counting the attempt in one UPDATE over rows picked FOR UPDATE SKIP LOCKED, so several
-- instances never hold the same row at once.
CREATE TABLE outbox_emails (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- What the message is: booking-created, booking-confirmed, booking-cancelled, booking-moved,
  -- booking-reminder, staff-new-booking, staff-contact-message.
  kind text NOT NULL,
  booking_id uuid REFERENCES bookings (id) ON DELETE CASCADE,
  contact_message_id uuid REFERENCES contact_messages (id) ON DELETE CASCADE,
  to_name text NOT NULL,
  to_address text NOT NULL,
  reply_to_name text,
  reply_to_address text,
  subject text NOT NULL,
  text_body text NOT NULL,
  html_body text NOT NULL,
  -- The calendar invitation (RFC 5545) and its METHOD, or both null.
  ics text,
  ics_method text,
  -- queued: waiting or being sent; sent; failed: gave up after the last attempt; skipped: a
  -- reminder whose booking was cancelled or moved; unsent: due while no SMTP server was configured.
  status text NOT NULL DEFAULT 'queued',
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  last_error text,
  sent_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  CONSTRAINT outbox_emails_status_known CHECK (status IN ('queued', 'sent', 'failed', 'skipped', 'unsent')),
  CONSTRAINT outbox_emails_ics_method_known CHECK ((ics IS NULL AND ics_method IS NULL) OR ics_method IN ('REQUEST', 'CANCEL')),
  CONSTRAINT outbox_emails_attempts_positive CHECK (attempts >= 0)
);

-- The sender's one question, "which rows are due?", reads only the queued ones.
CREATE INDEX outbox_emails_due_idx ON outbox_emails (next_attempt_at) WHERE status = 'queued';
-- The dashboard's list (newest first) and a booking's e-mails.
CREATE INDEX outbox_emails_created_at_idx ON outbox_emails (created_at DESC, id DESC);
CREATE INDEX outbox_emails_booking_idx ON outbox_emails (booking_id, created_at DESC) WHERE booking_id IS NOT NULL;
CREATE INDEX outbox_emails_contact_message_idx ON outbox_emails (contact_message_id) WHERE contact_message_id IS NOT NULL;
