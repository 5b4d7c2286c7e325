-- The waitlist (issue 43): a customer for whom no start fits on a date asks to be told when one
-- opens up. When a place opens, the engine books it for the first entry that fits, in order of
-- joining, as a booking in status 'offered': it holds its van or bay under the exclusion
-- constraint like any booking, until the customer confirms it (it becomes pending) or the offer
-- ends (declined or lapsed: cancelled, and offered to the next entry).

-- 'offered' is a status of its own, among those holding a place.
ALTER TABLE bookings DROP CONSTRAINT bookings_status_known;
ALTER TABLE bookings ADD CONSTRAINT bookings_status_known
  CHECK (status IN ('offered', 'pending', 'confirmed', 'completed', 'no-show', 'cancelled'));
ALTER TABLE booking_status_changes DROP CONSTRAINT booking_status_changes_to_status_known;
ALTER TABLE booking_status_changes ADD CONSTRAINT booking_status_changes_to_status_known
  CHECK (to_status IN ('offered', 'pending', 'confirmed', 'completed', 'no-show', 'cancelled'));
ALTER TABLE booking_status_changes DROP CONSTRAINT booking_status_changes_from_status_known;
ALTER TABLE booking_status_changes ADD CONSTRAINT booking_status_changes_from_status_known
  CHECK (from_status IN ('offered', 'pending', 'confirmed', 'completed', 'no-show', 'cancelled'));

ALTER TABLE bookings DROP CONSTRAINT bookings_no_overlap;
ALTER TABLE bookings ADD CONSTRAINT bookings_no_overlap
  EXCLUDE USING gist (resource_id WITH =, held WITH &&)
  WHERE (resource_id IS NOT NULL AND status IN ('offered', 'pending', 'confirmed', 'completed', 'no-show'));
DROP INDEX bookings_resource_held_idx;
CREATE INDEX bookings_resource_held_idx ON bookings USING gist (held)
  WHERE status IN ('offered', 'pending', 'confirmed', 'completed', 'no-show');
DROP INDEX bookings_unassigned_idx;
CREATE INDEX bookings_unassigned_idx ON bookings (starts_at)
  WHERE resource_id IS NULL AND status IN ('offered', 'pending', 'confirmed', 'completed', 'no-show');

-- An offer is held until offer_expires_at (WAITLIST_HOLD_MINUTES after it was made); exactly the
-- offered bookings have one. Any change of status ends the hold, whatever the path (the customer
-- confirming or declining, the lapse, staff withdrawing it): the trigger of migration 017 keeps
-- that true for every writer.
ALTER TABLE bookings ADD COLUMN offer_expires_at timestamptz;
CREATE OR REPLACE FUNCTION bookings_confirmation_follows_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status <> 'pending' THEN NEW.awaiting_email_until := NULL; END IF;
  IF NEW.status <> 'cancelled' THEN NEW.lapsed_at := NULL; END IF;
  IF NEW.status <> 'offered' THEN NEW.offer_expires_at := NULL; END IF;
  RETURN NEW;
END;
$$;
ALTER TABLE bookings ADD CONSTRAINT bookings_offer_held_until CHECK ((status = 'offered') = (offer_expires_at IS NOT NULL));
-- The sweep's question, "which offers have lapsed?".
CREATE INDEX bookings_offer_expires_idx ON bookings (offer_expires_at) WHERE offer_expires_at IS NOT NULL;

CREATE TABLE waitlist_entries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  "date" date NOT NULL,
  -- Which starts the customer can take: before noon, from noon, or any.
  part text NOT NULL CONSTRAINT waitlist_part_known CHECK (part IN ('morning', 'afternoon', 'any')),
  -- The booking as the customer would send it, without its date and time (the body of
  -- POST /v1/create-booking): what an offer is booked with, through the same rules.
  request jsonb NOT NULL CONSTRAINT waitlist_request_object CHECK (jsonb_typeof(request) = 'object'),
  email text NOT NULL CONSTRAINT waitlist_email_shape CHECK (char_length(email) BETWEEN 3 AND 254 AND position('@' IN email) > 1),
  email_canonical text GENERATED ALWAYS AS (canonical_email(email)) STORED,
  -- waiting: for a place; offered: a place is held for it (booking_id); booked: the customer
  -- confirmed the offer; declined, lapsed, withdrawn (by staff): the offer ended without it; left: the customer booked
  -- that date another way, or left; ended: its date has passed.
  status text NOT NULL DEFAULT 'waiting'
    CONSTRAINT waitlist_status_known CHECK (status IN ('waiting', 'offered', 'booked', 'declined', 'lapsed', 'withdrawn', 'left', 'ended')),
  booking_id uuid UNIQUE REFERENCES bookings (id),
  -- The end of its date in Auckland: an entry waits no longer.
  ends_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  -- Who made the offer by hand (staff), when one did.
  offered_by text CONSTRAINT waitlist_offered_by_named CHECK (offered_by IS NULL OR char_length(offered_by) BETWEEN 1 AND 200),
  CONSTRAINT waitlist_offer_has_booking CHECK (status NOT IN ('offered', 'booked') OR booking_id IS NOT NULL),
  CONSTRAINT waitlist_waiting_has_none CHECK (status <> 'waiting' OR booking_id IS NULL)
);

-- The engine's question: a date's waiting entries, in order of joining.
CREATE INDEX waitlist_waiting_idx ON waitlist_entries ("date", created_at, id) WHERE status = 'waiting';
-- WAITLIST_MAX_PER_EMAIL, and leaving the list when booking that date another way.
CREATE INDEX waitlist_open_email_idx ON waitlist_entries (email_canonical, "date") WHERE status IN ('waiting', 'offered');
