-- A booking's insert (issue 24): customers_refresh (migrations/024) ended with a DELETE of the
-- customers named who have no booking left, about a third of its time in a booking's insert,
-- where it can find nothing (each customer named has the booking just inserted). It now takes
-- whether the change may have left a customer without a booking (a delete, an erasure, a booking
-- moved to another customer: the default), and the insert's trigger says it cannot.
DROP FUNCTION customers_refresh(text[]);

CREATE FUNCTION customers_refresh(keys text[], may_leave_none boolean DEFAULT true) RETURNS void
  LANGUAGE plpgsql VOLATILE
  AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(4022, bucket)
    FROM (SELECT DISTINCT (hashtext(k) & 255) AS bucket FROM unnest(keys) AS k WHERE k IS NOT NULL) AS buckets
    ORDER BY bucket;
  INSERT INTO customers AS c (key, name, email, phone, bookings_count, completed_count, spent_cents, last_booked_at,
                              visits_as_of, last_visit, last_visit_at, next_visit, next_visit_at)
  SELECT s.customer_key, s.name, s.email, s.phone, s.bookings_count, s.completed_count, s.spent_cents, s.last_booked_at,
         now(), lv.visit, lv.starts_at, nv.visit, nv.starts_at
  FROM (
    SELECT DISTINCT ON (b.customer_key)
      b.customer_key, b.name, b.email, b.phone,
      count(*) OVER w AS bookings_count, count(*) FILTER (WHERE b.status = 'completed') OVER w AS completed_count,
      coalesce(sum(CASE WHEN p.booking_id IS NULL THEN b.total_cents WHEN p.paid_at IS NOT NULL THEN p.amount_cents ELSE 0 END)
        FILTER (WHERE b.status = 'completed') OVER w, 0) AS spent_cents,
      max(b.created_at) OVER w AS last_booked_at
    FROM bookings b
    JOIN (SELECT DISTINCT k FROM unnest(keys) AS k) AS named ON b.customer_key = named.k
    LEFT JOIN booking_payments p ON p.booking_id = b.id
    WHERE b.erased_at IS NULL
    WINDOW w AS (PARTITION BY b.customer_key)
    ORDER BY b.customer_key, b.created_at DESC, b.id DESC
  ) AS s
  LEFT JOIN LATERAL (
    SELECT json_build_object('booking_id', b.id, 'reference', b.reference, 'date', to_char(b."date", 'YYYY-MM-DD'), 'time', b."time", 'status', b.status) AS visit, b.starts_at
      FROM bookings b
     WHERE b.customer_key = s.customer_key AND b.status <> 'cancelled' AND b.starts_at < now()
     ORDER BY b.starts_at DESC, b.id DESC
     LIMIT 1) AS lv ON true
  LEFT JOIN LATERAL (
    SELECT json_build_object('booking_id', b.id, 'reference', b.reference, 'date', to_char(b."date", 'YYYY-MM-DD'), 'time', b."time", 'status', b.status) AS visit, b.starts_at
      FROM bookings b
     WHERE b.customer_key = s.customer_key AND b.status <> 'cancelled' AND b.starts_at >= now()
     ORDER BY b.starts_at ASC, b.id ASC
     LIMIT 1) AS nv ON true
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

CREATE OR REPLACE FUNCTION bookings_customer_inserted() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  PERFORM customers_refresh(ARRAY(SELECT DISTINCT customer_key FROM inserted_bookings), false);
  RETURN NULL;
END
$$;
