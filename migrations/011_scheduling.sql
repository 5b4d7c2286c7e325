-- Scheduling by duration and resource (issue 20): every job holds a van (onsite) or a bay
-- (dropoff) from its start to its end plus its travel buffer, and PostgreSQL itself forbids two
-- place-holding jobs on one resource from overlapping (an exclusion constraint), whoever writes.

-- GiST over uuid equality (the resource) beside range overlap (the held interval).
CREATE EXTENSION IF NOT EXISTS btree_gist;

-- The vans (or teams) that go to customers and the bays of the service centre. Seeded by the
-- application on its first start from ONSITE_TEAMS and DROPOFF_BAYS; managed by staff after that.
CREATE TABLE resources (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 40 AND name = btrim(name)),
  kind text NOT NULL CHECK (kind IN ('onsite', 'dropoff')),
  active boolean NOT NULL DEFAULT true,
  position integer NOT NULL CHECK (position >= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
-- Staff tell resources apart by name: two named alike (in any case) would be one too many.
CREATE UNIQUE INDEX resources_name_key ON resources (lower(name));

-- Working hours per kind of job and ISO weekday (1 = Monday). No row: that kind is closed that
-- day. Times are wall-clock in Auckland, on the hour; a job starts and ends inside them.
CREATE TABLE working_hours (
  kind text NOT NULL CHECK (kind IN ('onsite', 'dropoff')),
  weekday smallint NOT NULL CHECK (weekday BETWEEN 1 AND 7),
  opens text NOT NULL CHECK (opens ~ '^([01][0-9]|2[0-3]):00$'),
  closes text NOT NULL CHECK (closes ~ '^(([01][0-9]|2[0-3]):00|24:00)$'),
  PRIMARY KEY (kind, weekday),
  CONSTRAINT working_hours_open_before_close CHECK (opens < closes)
);

-- The spec's hours: on-site every day 07:00-21:00 (the original's start times 07:00-20:00 stay
-- bookable for short jobs); drop-off Monday to Friday 08:00-18:00, Saturday 09:00-17:00.
INSERT INTO working_hours (kind, weekday, opens, closes)
SELECT 'onsite', d, '07:00', '21:00' FROM generate_series(1, 7) AS d
UNION ALL
SELECT 'dropoff', d, '08:00', '18:00' FROM generate_series(1, 5) AS d
UNION ALL
SELECT 'dropoff', 6, '09:00', '17:00';

-- Adding minutes to an instant does not depend on the session's time zone (only days and
-- months do), so this is immutable, as a generated column needs; PostgreSQL's own operator is
-- marked stable because it also takes intervals of days.
CREATE FUNCTION valet_add_minutes(instant timestamptz, minutes integer) RETURNS timestamptz
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT instant + make_interval(mins => minutes) $$;

ALTER TABLE bookings
  ADD COLUMN resource_id uuid REFERENCES resources (id),
  ADD COLUMN starts_at timestamptz,
  ADD COLUMN ends_at timestamptz,
  -- The travel buffer the job was given when it was placed: a later change of the setting never
  -- moves a booking already taken.
  ADD COLUMN buffer_minutes integer NOT NULL DEFAULT 0 CHECK (buffer_minutes BETWEEN 0 AND 240);

-- Existing bookings: their appointment as an instant (Auckland's wall time of that date), and
-- their duration from the catalogue as it stands at this migration (src/domain/catalogue.ts);
-- on-site jobs get the default travel buffer.
WITH durations (service, coating_type, sm, mid, suv) AS (
  VALUES
    ('Quick Clean', '', 60, 75, 90),
    ('Express Clean', '', 90, 105, 120),
    ('Deluxe interior only', '', 120, 150, 180),
    ('Deluxe Clean', '', 180, 210, 240),
    ('Ultimate Clean', '', 240, 300, 360),
    ('Ceramic Coating', 'coat1', 360, 360, 360),
    ('Ceramic Coating', 'coat2', 480, 480, 480),
    ('Ceramic Coating', '', 360, 360, 360),
    ('Window Tinting', '', 120, 150, 180)
)
UPDATE bookings b SET
  starts_at = ((b."date" + b."time"::time) AT TIME ZONE 'Pacific/Auckland'),
  ends_at = ((b."date" + b."time"::time) AT TIME ZONE 'Pacific/Auckland')
    + make_interval(mins => coalesce(
        (SELECT CASE b.vehicle_type WHEN 'sm' THEN d.sm WHEN 'mid' THEN d.mid ELSE d.suv END
           FROM durations d WHERE d.service = b.service AND d.coating_type = b.coating_type),
        120)),
  buffer_minutes = CASE b.service_type WHEN 'onsite' THEN 30 ELSE 0 END;

ALTER TABLE bookings
  ALTER COLUMN starts_at SET NOT NULL,
  ALTER COLUMN ends_at SET NOT NULL,
  ADD CONSTRAINT bookings_ends_after_start CHECK (ends_at > starts_at),
  -- The instant and the wall time people read are one appointment.
  ADD CONSTRAINT bookings_starts_at_is_appointment CHECK (starts_at = (("date" + "time"::time) AT TIME ZONE 'Pacific/Auckland')),
  -- What the resource is held for: from the start to the end plus the buffer, end excluded, so
  -- that back-to-back jobs touch without overlapping.
  ADD COLUMN held tstzrange GENERATED ALWAYS AS (tstzrange(starts_at, valet_add_minutes(ends_at, buffer_minutes), '[)')) STORED;

-- The rule itself: no two place-holding jobs on one resource overlap. A cancelled booking holds
-- nothing; a booking without a resource (one the old hourly rule had overbooked) waits for staff.
ALTER TABLE bookings ADD CONSTRAINT bookings_no_overlap
  EXCLUDE USING gist (resource_id WITH =, held WITH &&)
  WHERE (resource_id IS NOT NULL AND status IN ('pending', 'confirmed', 'completed'));

-- A resource's jobs on a day, and the day view's lanes.
CREATE INDEX bookings_resource_held_idx ON bookings USING gist (held) WHERE status IN ('pending', 'confirmed', 'completed');
-- "Needs a van or bay": bookings holding no resource.
CREATE INDEX bookings_unassigned_idx ON bookings (starts_at) WHERE resource_id IS NULL AND status IN ('pending', 'confirmed', 'completed');

-- Bookings placed before this migration are assigned resources by the application's first start
-- (with the resources it seeds, in creation order); until then, and when one cannot fit, they
-- hold none. This flag marks the ones still to try, so that the assignment happens once.
ALTER TABLE bookings ADD COLUMN awaiting_first_placement boolean NOT NULL DEFAULT false;
UPDATE bookings SET awaiting_first_placement = true;
-- Every start asks for them: an empty index once they are placed, not a scan of every booking.
CREATE INDEX bookings_awaiting_first_placement_idx ON bookings (created_at, id) WHERE awaiting_first_placement;

-- Closures become intervals: a whole date, or a from-to range of hours on it (one hour is a
-- range of one), for every resource of one kind, for both kinds, or for one resource.
ALTER TABLE closures
  ADD COLUMN kind text CHECK (kind IN ('onsite', 'dropoff')),
  ADD COLUMN resource_id uuid REFERENCES resources (id) ON DELETE CASCADE,
  ADD COLUMN from_time text CHECK (from_time ~ '^([01][0-9]|2[0-3]):00$'),
  ADD COLUMN to_time text CHECK (to_time ~ '^(([01][0-9]|2[0-3]):00|24:00)$'),
  ADD COLUMN starts_at timestamptz,
  ADD COLUMN ends_at timestamptz;

UPDATE closures SET
  from_time = "time",
  to_time = CASE WHEN "time" IS NULL THEN NULL ELSE to_char(("time"::time + interval '1 hour'), 'HH24:MI') END;
UPDATE closures SET to_time = '24:00' WHERE to_time = '00:00';
UPDATE closures SET
  starts_at = (("date" + coalesce(from_time, '00:00')::time) AT TIME ZONE 'Pacific/Auckland'),
  ends_at = CASE WHEN to_time IS NULL OR to_time = '24:00'
    THEN (("date" + 1)::timestamp AT TIME ZONE 'Pacific/Auckland')
    ELSE (("date" + to_time::time) AT TIME ZONE 'Pacific/Auckland') END;

DROP INDEX closures_date_time_key;
ALTER TABLE closures
  DROP COLUMN "time",
  ALTER COLUMN starts_at SET NOT NULL,
  ALTER COLUMN ends_at SET NOT NULL,
  ADD CONSTRAINT closures_range_whole CHECK ((from_time IS NULL) = (to_time IS NULL)),
  ADD CONSTRAINT closures_range_forward CHECK (from_time IS NULL OR from_time < to_time),
  ADD CONSTRAINT closures_ends_after_start CHECK (ends_at > starts_at),
  -- One resource's closure names the resource, not a kind (its kind is the resource's).
  ADD CONSTRAINT closures_one_scope CHECK (resource_id IS NULL OR kind IS NULL),
  ADD COLUMN during tstzrange GENERATED ALWAYS AS (tstzrange(starts_at, ends_at, '[)')) STORED;

-- The same closure twice is one too many (a NULL scope compares equal here, as it should).
CREATE UNIQUE INDEX closures_same_key ON closures (
  "date", coalesce(from_time, ''), coalesce(to_time, ''), coalesce(kind, ''), coalesce(resource_id::text, '')
);
CREATE INDEX closures_during_idx ON closures USING gist (during);
CREATE INDEX closures_date_idx ON closures ("date");

-- A move in the history also names the resource it left and the one it went to.
ALTER TABLE booking_status_changes
  ADD COLUMN from_resource_id uuid REFERENCES resources (id),
  ADD COLUMN to_resource_id uuid REFERENCES resources (id);
