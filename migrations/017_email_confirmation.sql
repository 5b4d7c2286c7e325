-- BOOKING_CONFIRMATION=email (issue 23): a new customer's online booking holds its place only
-- until awaiting_email_until, unless the customer confirms it from the link in their e-mail.
-- An unconfirmed one lapses: cancelled, its place freed, lapsed_at set so staff can list it.
ALTER TABLE bookings ADD COLUMN awaiting_email_until timestamptz;
ALTER TABLE bookings ADD COLUMN lapsed_at timestamptz;

-- Only a pending booking awaits its customer; only a cancelled one has lapsed. Any change of
-- status (staff confirming, cancelling or reopening, whatever the path) ends the wait, and a
-- reopened booking is no longer lapsed: the trigger keeps both true for every writer.
CREATE FUNCTION bookings_confirmation_follows_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status <> 'pending' THEN NEW.awaiting_email_until := NULL; END IF;
  IF NEW.status <> 'cancelled' THEN NEW.lapsed_at := NULL; END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER bookings_confirmation_follows_status
  BEFORE UPDATE OF status ON bookings
  FOR EACH ROW EXECUTE FUNCTION bookings_confirmation_follows_status();

ALTER TABLE bookings ADD CONSTRAINT bookings_awaiting_only_pending CHECK (awaiting_email_until IS NULL OR status = 'pending');
ALTER TABLE bookings ADD CONSTRAINT bookings_lapsed_only_cancelled CHECK (lapsed_at IS NULL OR status = 'cancelled');

-- The sweep's one question, "which have lapsed?", and the staff list of those still waiting.
CREATE INDEX bookings_awaiting_email_idx ON bookings (awaiting_email_until) WHERE awaiting_email_until IS NOT NULL;
CREATE INDEX bookings_lapsed_idx ON bookings (lapsed_at DESC) WHERE lapsed_at IS NOT NULL;
