-- The owner's Insights (issue 44) without a probe per customer or per completed job.
--
-- 1. Each customer's first job: the start of their first booking in a status that holds its place
--    (pending, confirmed, completed, no-show; a waitlist offer not yet taken is not one), erased
--    bookings aside. Kept by customers_refresh (migrations/032, repeated below with the column
--    added) in the transaction that changes a booking, as the rest of the summary is. "New
--    customers by week" then reads the customers whose first job starts in the range by this
--    index, instead of looking up the first job of every customer seen in the range.
ALTER TABLE customers ADD COLUMN first_job_at timestamptz;
UPDATE customers c SET first_job_at = (
  SELECT min(b.starts_at) FROM bookings b
  WHERE b.customer_key = c.key AND b.erased_at IS NULL AND b.status IN ('pending', 'confirmed', 'completed', 'no-show'));
CREATE INDEX customers_first_job_idx ON customers (first_job_at) WHERE first_job_at IS NOT NULL;

CREATE OR REPLACE FUNCTION customers_refresh(keys text[], may_leave_none boolean DEFAULT true) RETURNS void
  LANGUAGE plpgsql VOLATILE
  AS $$
BEGIN
  PERFORM customers_lock(keys);
  INSERT INTO customers AS c (key, name, email, phone, bookings_count, completed_count, spent_cents, last_booked_at, first_job_at,
                              visits_as_of, last_visit, last_visit_at, next_visit, next_visit_at)
  SELECT named.k, s.name, s.email, s.phone, s.bookings_count, s.completed_count, s.spent_cents, s.last_booked_at, s.first_job_at,
         now(), lv.visit, lv.starts_at, nv.visit, nv.starts_at
  FROM (SELECT DISTINCT k FROM unnest(keys) AS k WHERE k IS NOT NULL) AS named
  -- The customer's bookings, with the name, e-mail and phone of the latest. Aggregated, not
  -- ORDER BY ... LIMIT 1, and with erased_at in the aggregates' FILTER, not in the WHERE: without
  -- statistics (a table filled by one statement) the planner walked bookings_created_at_idx for
  -- the key's first row, or ANDed the key's index with bookings_retention_idx (whose predicate
  -- is erased_at IS NULL), each reading most of the table for every key.
  CROSS JOIN LATERAL (
    SELECT (array_agg(b.name ORDER BY b.created_at DESC, b.id DESC) FILTER (WHERE b.erased_at IS NULL))[1] AS name,
           (array_agg(b.email ORDER BY b.created_at DESC, b.id DESC) FILTER (WHERE b.erased_at IS NULL))[1] AS email,
           (array_agg(b.phone ORDER BY b.created_at DESC, b.id DESC) FILTER (WHERE b.erased_at IS NULL))[1] AS phone,
           count(*) FILTER (WHERE b.erased_at IS NULL) AS bookings_count,
           count(*) FILTER (WHERE b.erased_at IS NULL AND b.status = 'completed') AS completed_count,
           coalesce(sum(CASE WHEN p.booking_id IS NULL THEN b.total_cents WHEN p.paid_at IS NOT NULL THEN p.amount_cents ELSE 0 END)
             FILTER (WHERE b.erased_at IS NULL AND b.status = 'completed'), 0) AS spent_cents,
           max(b.created_at) FILTER (WHERE b.erased_at IS NULL) AS last_booked_at,
           min(b.starts_at) FILTER (WHERE b.erased_at IS NULL AND b.status IN ('pending', 'confirmed', 'completed', 'no-show')) AS first_job_at
      FROM bookings b
      LEFT JOIN booking_payments p ON p.booking_id = b.id
     WHERE b.customer_key = named.k) AS s
  LEFT JOIN LATERAL (
    SELECT json_build_object('booking_id', b.id, 'reference', b.reference, 'date', to_char(b."date", 'YYYY-MM-DD'), 'time', b."time", 'status', b.status) AS visit, b.starts_at
      FROM bookings b
     WHERE b.customer_key = named.k AND b.status <> 'cancelled' AND b.starts_at < now()
     ORDER BY b.starts_at DESC, b.id DESC
     LIMIT 1) AS lv ON true
  LEFT JOIN LATERAL (
    SELECT json_build_object('booking_id', b.id, 'reference', b.reference, 'date', to_char(b."date", 'YYYY-MM-DD'), 'time', b."time", 'status', b.status) AS visit, b.starts_at
      FROM bookings b
     WHERE b.customer_key = named.k AND b.status <> 'cancelled' AND b.starts_at >= now()
     ORDER BY b.starts_at ASC, b.id ASC
     LIMIT 1) AS nv ON true
  -- A key with no booking left has nothing to write here (the DELETE below is for it).
  WHERE s.bookings_count > 0
  ON CONFLICT (key) DO UPDATE SET
    name = excluded.name, email = excluded.email, phone = excluded.phone,
    bookings_count = excluded.bookings_count, completed_count = excluded.completed_count,
    spent_cents = excluded.spent_cents, last_booked_at = excluded.last_booked_at, first_job_at = excluded.first_job_at,
    visits_as_of = excluded.visits_as_of, last_visit = excluded.last_visit, last_visit_at = excluded.last_visit_at,
    next_visit = excluded.next_visit, next_visit_at = excluded.next_visit_at
  -- Unchanged visits stored as of another moment still hold wherever the new ones would (they
  -- hold from just after the last visit's start to the next one's), so the moment alone writes nothing.
  WHERE (c.name, c.email, c.phone, c.bookings_count, c.completed_count, c.spent_cents, c.last_booked_at, c.first_job_at,
         c.visits_as_of IS NULL, c.last_visit::text, c.last_visit_at, c.next_visit::text, c.next_visit_at)
    IS DISTINCT FROM (excluded.name, excluded.email, excluded.phone, excluded.bookings_count, excluded.completed_count, excluded.spent_cents, excluded.last_booked_at, excluded.first_job_at,
         false, excluded.last_visit::text, excluded.last_visit_at, excluded.next_visit::text, excluded.next_visit_at);
  IF may_leave_none THEN
    DELETE FROM customers c
     USING (SELECT DISTINCT k FROM unnest(keys) AS k) AS named
     WHERE c.key = named.k AND NOT EXISTS (SELECT 1 FROM bookings b WHERE b.customer_key = c.key AND b.erased_at IS NULL);
  END IF;
END
$$;

-- Planned once per connection, as migrations/027 set it (CREATE OR REPLACE drops the setting).
ALTER FUNCTION customers_refresh(text[], boolean) SET plan_cache_mode = force_generic_plan;

-- 2. A completed job's lines, and whether it is still completed, on its payment row: the revenue
--    and "packages and add-ons" of a range then read the range's payments alone (by
--    booking_payments_completed_at_idx), instead of fetching each one's booking by its key (a
--    quarter's thousands of random reads into the bookings table). The database keeps both: a
--    payment takes them from its booking when written, and a booking's change of status to or from
--    completed, or of its lines, is copied to its payment. Lines never name a person (their
--    vehicles are named apart: src/domain/job.ts), so an erasure has nothing to change here.
--    What a customer has spent depends on a payment's booking, amount and whether it was paid, so
--    the payment's trigger that refreshes their summary (migrations/022) now fires on a change of
--    those alone: not for these copies, nor for the 25,000 rows of a large database filled below
--    (one refresh each, each taking its customer's lock, would run out of lock slots).
DROP TRIGGER booking_payments_customer ON booking_payments;
CREATE TRIGGER booking_payments_customer AFTER INSERT OR DELETE OR UPDATE OF booking_id, amount_cents, paid_at ON booking_payments
  FOR EACH ROW EXECUTE FUNCTION booking_payments_customer_changed();
ALTER TABLE booking_payments ADD COLUMN lines jsonb, ADD COLUMN booking_completed boolean;
UPDATE booking_payments p SET lines = b.lines, booking_completed = (b.status = 'completed') FROM bookings b WHERE b.id = p.booking_id;
ALTER TABLE booking_payments ALTER COLUMN lines SET NOT NULL, ALTER COLUMN booking_completed SET NOT NULL,
  ADD CONSTRAINT booking_payments_lines_array CHECK (jsonb_typeof(lines) = 'array');

CREATE FUNCTION booking_payments_from_booking() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  SELECT b.lines, b.status = 'completed' INTO NEW.lines, NEW.booking_completed FROM bookings b WHERE b.id = NEW.booking_id;
  RETURN NEW;
END
$$;
CREATE TRIGGER booking_payments_from_booking BEFORE INSERT OR UPDATE OF booking_id, lines, booking_completed ON booking_payments
  FOR EACH ROW EXECUTE FUNCTION booking_payments_from_booking();

CREATE FUNCTION bookings_to_payment() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  UPDATE booking_payments SET lines = NEW.lines, booking_completed = (NEW.status = 'completed') WHERE booking_id = NEW.id;
  RETURN NULL;
END
$$;
CREATE TRIGGER bookings_to_payment AFTER UPDATE OF status, lines ON bookings
  FOR EACH ROW
  WHEN ((OLD.status = 'completed') IS DISTINCT FROM (NEW.status = 'completed') OR OLD.lines IS DISTINCT FROM NEW.lines)
  EXECUTE FUNCTION bookings_to_payment();

-- The payments of a range as the revenue reads them, from the index alone (a vacuumed table): the
-- takings' index on completed_at (migrations/016), with the columns added up riding along.
DROP INDEX booking_payments_completed_at_idx;
CREATE INDEX booking_payments_completed_at_idx ON booking_payments (completed_at)
  INCLUDE (booking_completed, payment_method, amount_cents, gst_cents);
