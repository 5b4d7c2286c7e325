-- Weather days (issue 21): staff ask every customer of one kind of job (on-site by default) on a
-- date to choose a new time. The bookings keep their place until moved or released; nothing is
-- cancelled automatically.

-- One ask per date and kind of job: asking again for the same date and kind reuses it, and only
-- asks the bookings it has not asked yet (a booking carries the weather day that asked it).
CREATE TABLE weather_days (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  "date" date NOT NULL,
  service_type text NOT NULL CHECK (service_type IN ('onsite', 'dropoff')),
  -- The signed-in name of the staff member who first asked, as the history records it.
  asked_by text NOT NULL CHECK (char_length(asked_by) BETWEEN 1 AND 60),
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT weather_days_date_kind_key UNIQUE ("date", service_type)
);

ALTER TABLE bookings
  -- The weather day that asked this booking's customer to choose a new time; kept after they
  -- have (staff see who chose), null when the booking was never asked.
  ADD COLUMN weather_day_id uuid REFERENCES weather_days (id),
  -- Until when the customer may move it online whatever the notice period and the cap of moves
  -- ("awaiting a new time"); null once the booking has moved (or when it was never asked).
  ADD COLUMN weather_move_until timestamptz,
  ADD CONSTRAINT bookings_weather_move_asked CHECK (weather_move_until IS NULL OR weather_day_id IS NOT NULL);

CREATE INDEX bookings_weather_day_idx ON bookings (weather_day_id) WHERE weather_day_id IS NOT NULL;

-- Whoever moves the booking to another date or time (the customer, a staff move, a staff edit)
-- ends its "awaiting a new time": in the database, so that no writer can forget it.
CREATE FUNCTION bookings_weather_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.weather_move_until IS NOT NULL AND OLD.weather_move_until IS NOT NULL
     AND (NEW."date" IS DISTINCT FROM OLD."date" OR NEW."time" IS DISTINCT FROM OLD."time") THEN
    NEW.weather_move_until := NULL;
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER bookings_weather_moved
  BEFORE UPDATE OF "date", "time" ON bookings
  FOR EACH ROW EXECUTE FUNCTION bookings_weather_moved();
