-- Maintenance plans (issue 43): a booking's job again every 2, 3, 4, 6, 8 or 12 weeks, on the same
-- weekday at the same start. Each visit is an ordinary booking, placed by the scheduling engine
-- (so the exclusion constraint guards it like any other); this records which date of the plan
-- each booking is, and the dates that wait for a time or were skipped, so that a visit is never
-- booked twice (the primary key) and the daily extension knows where it stopped.

CREATE TABLE plans (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- The booking the plan was made from: its job, address and customer are what each visit copies.
  booking_id uuid NOT NULL UNIQUE REFERENCES bookings (id),
  interval_weeks smallint NOT NULL CONSTRAINT plans_interval_known CHECK (interval_weeks IN (2, 3, 4, 6, 8, 12)),
  -- Visits are due on anchor_date + k × interval_weeks weeks, at start_time.
  anchor_date date NOT NULL,
  start_time text NOT NULL CONSTRAINT plans_start_time_shape CHECK (start_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  status text NOT NULL DEFAULT 'active' CONSTRAINT plans_status_known CHECK (status IN ('active', 'paused', 'stopped')),
  -- Every due date up to this one has its visit row (booked, needing a time, or skipped).
  booked_through date NOT NULL,
  created_by text NOT NULL CONSTRAINT plans_created_by_named CHECK (char_length(created_by) BETWEEN 1 AND 200),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  stopped_at timestamptz,
  version integer NOT NULL DEFAULT 1 CONSTRAINT plans_version_positive CHECK (version >= 1),
  CONSTRAINT plans_booked_from_anchor CHECK (booked_through >= anchor_date),
  CONSTRAINT plans_stopped_when CHECK ((status = 'stopped') = (stopped_at IS NOT NULL))
);

-- The daily extension's question: the active plans whose horizon has moved past what they booked.
CREATE INDEX plans_to_extend ON plans (booked_through) WHERE status = 'active';

CREATE TABLE plan_visits (
  plan_id uuid NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
  due_date date NOT NULL,
  state text NOT NULL CONSTRAINT plan_visits_state_known CHECK (state IN ('booked', 'needs-time', 'skipped')),
  -- The visit's booking (a skipped visit keeps the one it cancelled, if it had one).
  booking_id uuid UNIQUE REFERENCES bookings (id),
  -- A visit that needs a time: the starts offered to the customer, [{ "date", "time" }…].
  offered jsonb,
  -- When the customer pressed "Keep it" on the reminder before the visit.
  kept_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (plan_id, due_date),
  CONSTRAINT plan_visits_booked_has_booking CHECK (state <> 'booked' OR booking_id IS NOT NULL),
  CONSTRAINT plan_visits_waiting_has_none CHECK (state <> 'needs-time' OR booking_id IS NULL),
  CONSTRAINT plan_visits_offered_list CHECK (offered IS NULL OR (state = 'needs-time' AND jsonb_typeof(offered) = 'array'))
);

-- Staff's list of visits waiting for a time.
CREATE INDEX plan_visits_needing_time ON plan_visits (due_date) WHERE state = 'needs-time';

-- A visit is booked by the plan: neither online (no hourly brake, no cap of upcoming bookings)
-- nor by a member of staff.
ALTER TABLE bookings DROP CONSTRAINT bookings_source_check;
ALTER TABLE bookings ADD CONSTRAINT bookings_source_known CHECK (source IN ('online', 'staff', 'plan'));

-- PLAN_DISCOUNT_PERCENT: every visit after the first may be discounted.
ALTER TABLE bookings DROP CONSTRAINT bookings_discount_kind_known;
ALTER TABLE bookings ADD CONSTRAINT bookings_discount_kind_known CHECK (discount_kind IN ('first-service', 'plan'));
