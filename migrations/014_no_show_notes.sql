-- No-shows, late cancellations and internal notes (issue 21).

-- The statuses, now with 'no-show' (allowed once the appointment has started; the transition
-- table is src/domain/booking-status.ts). Migration 001 named the statuses in an unnamed CHECK.
ALTER TABLE bookings DROP CONSTRAINT bookings_status_check;
ALTER TABLE bookings ADD CONSTRAINT bookings_status_known
  CHECK (status IN ('pending', 'confirmed', 'completed', 'no-show', 'cancelled'));
ALTER TABLE booking_status_changes DROP CONSTRAINT booking_status_changes_to_status_check;
ALTER TABLE booking_status_changes ADD CONSTRAINT booking_status_changes_to_status_known
  CHECK (to_status IN ('pending', 'confirmed', 'completed', 'no-show', 'cancelled'));
ALTER TABLE booking_status_changes ADD CONSTRAINT booking_status_changes_from_status_known
  CHECK (from_status IN ('pending', 'confirmed', 'completed', 'no-show', 'cancelled'));

-- A no-show keeps its place like a completed job: its time has come, and marking it must not
-- open a slot in the past or let another job be placed over it. The exclusion constraint and the
-- indexes of place-holding jobs (migration 011) name the statuses holding a place.
ALTER TABLE bookings DROP CONSTRAINT bookings_no_overlap;
ALTER TABLE bookings ADD CONSTRAINT bookings_no_overlap
  EXCLUDE USING gist (resource_id WITH =, held WITH &&)
  WHERE (resource_id IS NOT NULL AND status IN ('pending', 'confirmed', 'completed', 'no-show'));
DROP INDEX bookings_resource_held_idx;
CREATE INDEX bookings_resource_held_idx ON bookings USING gist (held) WHERE status IN ('pending', 'confirmed', 'completed', 'no-show');
DROP INDEX bookings_unassigned_idx;
CREATE INDEX bookings_unassigned_idx ON bookings (starts_at) WHERE resource_id IS NULL AND status IN ('pending', 'confirmed', 'completed', 'no-show');

-- A cancellation by staff within the notice period (MANAGE_CUTOFF_HOURS before the start, or
-- after it) is marked late. Only a cancelled booking can be; going back to pending clears it.
ALTER TABLE bookings
  ADD COLUMN cancelled_late boolean NOT NULL DEFAULT false,
  ADD CONSTRAINT bookings_late_only_when_cancelled CHECK (NOT cancelled_late OR status = 'cancelled');

-- Internal notes on a booking ("gate code 4411"): written by staff, never shown to the customer
-- nor put in any e-mail. 1 to 2000 characters, not blank, no control character but tab and line
-- breaks (src/domain/text-rules.ts); the author is the signed-in name, as the history records it.
-- Append-only, like the history.
CREATE TABLE booking_notes (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  booking_id uuid NOT NULL REFERENCES bookings (id),
  body text NOT NULL CHECK (
    char_length(body) BETWEEN 1 AND 2000 AND btrim(body, E' \t\r\n') <> '' AND body !~ '[\x01-\x08\x0b\x0c\x0e-\x1f]'
  ),
  author text NOT NULL CHECK (char_length(author) BETWEEN 1 AND 60),
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX booking_notes_booking_idx ON booking_notes (booking_id, created_at, id);

CREATE FUNCTION booking_notes_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'booking_notes is append-only';
END;
$$;
CREATE TRIGGER booking_notes_append_only
  BEFORE UPDATE OR DELETE ON booking_notes
  FOR EACH ROW EXECUTE FUNCTION booking_notes_append_only();
