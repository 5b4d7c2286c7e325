-- Staff tools (issue 4): fast search over 100,000 bookings, compare-and-set status changes with
-- an append-only history, and the name staff give when they sign in.

-- Trigram indexes let "contains" searches (ILIKE '%term%') use an index instead of a scan.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- What the dashboard's search box matches: name, e-mail and service, case-insensitively.
ALTER TABLE bookings
  ADD COLUMN search_text text GENERATED ALWAYS AS (lower(name || ' ' || email || ' ' || service)) STORED;
CREATE INDEX bookings_search_idx ON bookings USING gin (search_text gin_trgm_ops);

-- Bumped by every status change; a change names the version it saw (compare-and-set).
ALTER TABLE bookings ADD COLUMN version integer NOT NULL DEFAULT 1;

-- A Status or Service filter lists newest first straight from an index, without sorting.
CREATE INDEX bookings_status_created_idx ON bookings (status, created_at DESC, id DESC);
CREATE INDEX bookings_service_created_idx ON bookings (service, created_at DESC, id DESC);
CREATE INDEX bookings_service_status_created_idx ON bookings (service, status, created_at DESC, id DESC);

-- The day view and the "by appointment" sort read bookings in schedule order.
CREATE INDEX bookings_schedule_idx ON bookings ("date", "time", id);

CREATE TABLE booking_status_changes (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  booking_id uuid NOT NULL REFERENCES bookings (id),
  from_status text NOT NULL,
  to_status text NOT NULL CHECK (to_status IN ('pending', 'confirmed', 'completed', 'cancelled')),
  changed_by text NOT NULL CHECK (char_length(changed_by) BETWEEN 1 AND 60),
  changed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX booking_status_changes_booking_idx ON booking_status_changes (booking_id, changed_at);

-- Append-only: history rows can be added, never changed or removed.
CREATE FUNCTION refuse_history_rewrite() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'booking_status_changes is append-only';
END;
$$;
CREATE TRIGGER booking_status_changes_append_only
  BEFORE UPDATE OR DELETE ON booking_status_changes
  FOR EACH ROW EXECUTE FUNCTION refuse_history_rewrite();

ALTER TABLE staff_sessions ADD COLUMN staff_name text NOT NULL DEFAULT 'Staff' CHECK (char_length(staff_name) BETWEEN 1 AND 60);

-- The inbox lists unread messages first when asked.
CREATE INDEX contact_messages_unread_idx ON contact_messages (created_at DESC) WHERE read_at IS NULL;
