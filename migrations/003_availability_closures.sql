-- Availability and closures (issue 10): staff close a whole date or one hourly slot, with a
-- reason; closed slots take no new bookings. Existing bookings in them are left for staff to
-- decide on (nothing is cancelled by a closure).
CREATE TABLE closures (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  "date" date NOT NULL,
  -- NULL closes the whole date.
  "time" text CHECK ("time" ~ '^([01][0-9]|2[0-3]):00$'),
  reason text NOT NULL CHECK (char_length(reason) BETWEEN 1 AND 200),
  created_by text NOT NULL CHECK (char_length(created_by) BETWEEN 1 AND 60),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- One closure per date and slot, and one whole-date closure per date (NULL times compare equal
-- here, which a plain UNIQUE ("date", "time") would not do). It also serves the look-ups by date.
CREATE UNIQUE INDEX closures_date_time_key ON closures ("date", (coalesce("time", '')));
