-- The customers' summary in a booking's insert (issue 24), planned by key. customers_refresh
-- (migrations/026) joined the keys it is given to the bookings; its plan is kept for the
-- connection (migrations/027), made for a list of keys of unknown length, and while the bookings
-- table was small (a new server, or the benchmark's first minutes) that plan read the whole table
-- and hashed it, and went on doing so as the table grew: about 1 ms a booking at 1,600 bookings
-- (seen with auto_explain under the booking benchmark), where the key's index reads a few rows.
-- Each key is now read on its own (LATERAL), through bookings_customer_idx, whatever the
-- statistics said when the plan was made: the same rows, the same values. Many keys at once (a
-- statement inserting many bookings, an erasure) take an index probe each: 20,000 bookings
-- inserted by one statement into a table without statistics refresh in 3.5 s on PostgreSQL,
-- against 3.2 s with the set-wise form of 026.

CREATE OR REPLACE FUNCTION customers_refresh(keys text[], may_leave_none boolean DEFAULT true) RETURNS void
  LANGUAGE plpgsql VOLATILE
  AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(4022, bucket)
    FROM (SELECT DISTINCT (hashtext(k) & 255) AS bucket FROM unnest(keys) AS k WHERE k IS NOT NULL) AS buckets
    ORDER BY bucket;
  INSERT INTO customers AS c (key, name, email, phone, bookings_count, completed_count, spent_cents, last_booked_at,
                              visits_as_of, last_visit, last_visit_at, next_visit, next_visit_at)
  SELECT named.k, s.name, s.email, s.phone, s.bookings_count, s.completed_count, s.spent_cents, s.last_booked_at,
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
           max(b.created_at) FILTER (WHERE b.erased_at IS NULL) AS last_booked_at
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
    spent_cents = excluded.spent_cents, last_booked_at = excluded.last_booked_at,
    visits_as_of = excluded.visits_as_of, last_visit = excluded.last_visit, last_visit_at = excluded.last_visit_at,
    next_visit = excluded.next_visit, next_visit_at = excluded.next_visit_at
  -- Unchanged visits stored as of another moment still hold wherever the new ones would (they
  -- hold from just after the last visit's start to the next one's), so the moment alone writes nothing.
  WHERE (c.name, c.email, c.phone, c.bookings_count, c.completed_count, c.spent_cents, c.last_booked_at,
         c.visits_as_of IS NULL, c.last_visit::text, c.last_visit_at, c.next_visit::text, c.next_visit_at)
    IS DISTINCT FROM (excluded.name, excluded.email, excluded.phone, excluded.bookings_count, excluded.completed_count, excluded.spent_cents, excluded.last_booked_at,
         false, excluded.last_visit::text, excluded.last_visit_at, excluded.next_visit::text, excluded.next_visit_at);
  IF may_leave_none THEN
    DELETE FROM customers c
     USING (SELECT DISTINCT k FROM unnest(keys) AS k) AS named
     WHERE c.key = named.k AND NOT EXISTS (SELECT 1 FROM bookings b WHERE b.customer_key = c.key AND b.erased_at IS NULL);
  END IF;
END
$$;

-- CREATE OR REPLACE resets a function's settings: its plan kept for the connection again (migrations/027).
ALTER FUNCTION customers_refresh(text[], boolean) SET plan_cache_mode = force_generic_plan;
