-- Signed webhooks (issue 44): endpoints the owner registers, each with the events it receives and
-- its own Standard Webhooks secret (whsec_…, shown once, rotatable; kept as is, since signing needs
-- it), and the deliveries queued for them in the transaction of the change (an outbox), sent by
-- the app's webhook sender with retries, and kept as a log (status, attempts, the last answer).
CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  url text NOT NULL CONSTRAINT webhook_endpoints_url_shape CHECK (char_length(url) <= 2000 AND url ~ '^https?://[^\s/?#@]+(/[^\s#]*)?$'),
  description text NOT NULL DEFAULT '' CONSTRAINT webhook_endpoints_description_length CHECK (char_length(description) <= 200),
  events text[] NOT NULL CONSTRAINT webhook_endpoints_events_known CHECK (
    cardinality(events) >= 1
    AND events <@ ARRAY['booking.created', 'booking.confirmed', 'booking.moved', 'booking.cancelled', 'booking.completed', 'payment.recorded', 'customer.erased']::text[]
  ),
  secret text NOT NULL CONSTRAINT webhook_endpoints_secret_shape CHECK (secret ~ '^whsec_[A-Za-z0-9+/]{32,}={0,2}$'),
  enabled boolean NOT NULL DEFAULT true,
  -- Why it was disabled (by the owner, or after failing WEBHOOK_DISABLE_AFTER_DAYS); null while enabled.
  disabled_reason text CONSTRAINT webhook_endpoints_disabled_reason_length CHECK (char_length(disabled_reason) <= 500),
  -- The first failed attempt since the last delivered one; null while it answers.
  failing_since timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT webhook_endpoints_reason_when_disabled CHECK (enabled OR disabled_reason IS NOT NULL)
);

CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event text NOT NULL CONSTRAINT webhook_deliveries_event_known CHECK (
    event IN ('booking.created', 'booking.confirmed', 'booking.moved', 'booking.cancelled', 'booking.completed', 'payment.recorded', 'customer.erased')
  ),
  -- The webhook-id header: the same on every attempt and on a resend, so the receiver can skip a repeat.
  message_id text NOT NULL UNIQUE CONSTRAINT webhook_deliveries_message_id_shape CHECK (message_id ~ '^msg_[A-Za-z0-9_-]{16,64}$'),
  -- The booking it tells of (for the erasure of its payload), when it tells of one.
  booking_id uuid REFERENCES bookings (id) ON DELETE SET NULL,
  -- The body as sent: {type, timestamp, data}, composed from the row as the change's transaction wrote it.
  payload jsonb NOT NULL CONSTRAINT webhook_deliveries_payload_object CHECK (jsonb_typeof(payload) = 'object'),
  status text NOT NULL DEFAULT 'queued' CONSTRAINT webhook_deliveries_status_known CHECK (status IN ('queued', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0 CONSTRAINT webhook_deliveries_attempts_not_negative CHECK (attempts >= 0),
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  -- The last answer: its HTTP status (null when none came: refused, timed out, unreachable), its error, its time.
  last_status integer CONSTRAINT webhook_deliveries_last_status_http CHECK (last_status BETWEEN 100 AND 599),
  last_error text CONSTRAINT webhook_deliveries_last_error_length CHECK (char_length(last_error) <= 500),
  last_attempt_at timestamptz,
  delivered_at timestamptz,
  -- The clock's time, not the transaction's: deliveries queued by one change keep their order.
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  CONSTRAINT webhook_deliveries_delivered_when CHECK ((status = 'delivered') = (delivered_at IS NOT NULL))
);

CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, created_at) WHERE status = 'queued';
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, created_at DESC);
CREATE INDEX webhook_deliveries_by_booking ON webhook_deliveries (booking_id) WHERE booking_id IS NOT NULL;
