-- Writers of one customer's summary take turns without making other customers wait (issue 24).
-- customers_refresh and customers_visits_refresh (migrations/018, 024, 029) locked one of 256
-- buckets of customer keys until the transaction ended, so two bookings by different customers
-- waited for each other one time in 256 per pair: at 5 connections about one booking in 64
-- (4 others in flight), waiting for the rest of another booking's transaction, which is about
-- where the p99 is read. Measured under the booking benchmark (pg_stat_statements, two runs
-- each way): the lock 0.44-0.46 ms a call on average and up to 80-121 ms before, 0.23-0.25 ms
-- and up to 16 ms with customers_lock; the booking's INSERT (whose trigger refreshes the
-- summary) up to 85-127 ms before, up to 38-65 ms after, 2.6-3.0 ms on average either way.
--
-- customers_lock takes, for a statement naming a few customers (a booking, a change, a
-- customer's page), a lock of each customer's own, exclusive, under its bucket's lock shared:
-- writers of one customer take turns and nobody else waits. A statement naming many (a bulk
-- insert, an erasure, the Customers view's stale visits) takes the buckets' locks exclusive, as
-- before, so that it holds at most 256 locks however many customers it names (PostgreSQL's lock
-- table is shared and finite); it waits for, and holds off, every writer of a customer in those
-- buckets. Locks are taken in one order (buckets, then customers by their locks' keys), so two
-- statements of either kind cannot deadlock over them. The bucket locks keep their keys
-- (4022, 0-255); the customers' are hashtextextended('customer:' || key, 0), beside the booking
-- path's 'email:', 'phone:' and 'place:' keys (src/db/bookings.repository.ts).

-- A statement names "a few" customers up to 32: 32 own locks and up to 32 shared.
CREATE FUNCTION customers_lock(keys text[]) RETURNS void
  LANGUAGE plpgsql VOLATILE
  AS $$
BEGIN
  -- The array's length, not its distinct keys: a simple expression, no query. An array repeating
  -- a few keys past 32 takes the buckets exclusive, which is coarser, never wrong.
  IF cardinality(keys) <= 32 THEN
    PERFORM pg_advisory_xact_lock_shared(4022, bucket)
      FROM (SELECT DISTINCT (hashtext(k) & 255) AS bucket FROM unnest(keys) AS k WHERE k IS NOT NULL) AS buckets
      ORDER BY bucket;
    PERFORM pg_advisory_xact_lock(lock_key)
      FROM (SELECT DISTINCT hashtextextended('customer:' || k, 0) AS lock_key FROM unnest(keys) AS k WHERE k IS NOT NULL) AS own
      ORDER BY lock_key;
  ELSE
    PERFORM pg_advisory_xact_lock(4022, bucket)
      FROM (SELECT DISTINCT (hashtext(k) & 255) AS bucket FROM unnest(keys) AS k WHERE k IS NOT NULL) AS buckets
      ORDER BY bucket;
  END IF;
END
$$;

-- The two writers of the summary, as migrations/029 and 024 left them, with their locks taken by
-- customers_lock.
CREATE OR REPLACE FUNCTION customers_refresh(keys text[], may_leave_none boolean DEFAULT true) RETURNS void
  LANGUAGE plpgsql VOLATILE
  AS $$
BEGIN
  PERFORM customers_lock(keys);
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


CREATE OR REPLACE FUNCTION customers_visits_refresh(keys text[], as_of timestamptz)
  RETURNS TABLE (key text, last_visit json, next_visit json)
  LANGUAGE plpgsql VOLATILE
  AS $$
#variable_conflict use_column
BEGIN
  PERFORM customers_lock(keys);
  RETURN QUERY
  UPDATE customers c SET
    visits_as_of = as_of,
    last_visit = lv.visit, last_visit_at = lv.starts_at,
    next_visit = nv.visit, next_visit_at = nv.starts_at
  FROM (SELECT DISTINCT k FROM unnest(keys) AS k WHERE k IS NOT NULL) AS named
  LEFT JOIN LATERAL (
    SELECT json_build_object('booking_id', b.id, 'reference', b.reference, 'date', to_char(b."date", 'YYYY-MM-DD'), 'time', b."time", 'status', b.status) AS visit, b.starts_at
      FROM bookings b
     WHERE b.customer_key = named.k AND b.status <> 'cancelled' AND b.starts_at < as_of
     ORDER BY b.starts_at DESC, b.id DESC
     LIMIT 1) AS lv ON true
  LEFT JOIN LATERAL (
    SELECT json_build_object('booking_id', b.id, 'reference', b.reference, 'date', to_char(b."date", 'YYYY-MM-DD'), 'time', b."time", 'status', b.status) AS visit, b.starts_at
      FROM bookings b
     WHERE b.customer_key = named.k AND b.status <> 'cancelled' AND b.starts_at >= as_of
     ORDER BY b.starts_at ASC, b.id ASC
     LIMIT 1) AS nv ON true
  WHERE c.key = named.k
  RETURNING c.key, c.last_visit, c.next_visit;
END
$$;


-- CREATE OR REPLACE resets a function's settings: their plans kept for the connection again (migrations/027).
ALTER FUNCTION customers_refresh(text[], boolean) SET plan_cache_mode = force_generic_plan;
ALTER FUNCTION customers_visits_refresh(text[], timestamptz) SET plan_cache_mode = force_generic_plan;
