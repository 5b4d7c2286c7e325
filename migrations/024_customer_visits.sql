-- Customers (issue 22): each customer's last and next visit kept in their summary row, so that a
-- page of the Customers view reads them instead of probing bookings twice per row (at 100,000
-- bookings those probes, and planning them, were most of the list's database time).
--
-- The last and next visit depend on the clock, so they are stored as of a moment (visits_as_of)
-- with the appointment times that bound them: they hold at any moment after the stored last
-- visit's start and up to the next one's (no visit starts in between). A reader checks that
-- (src/db/customers.repository.ts) and recomputes the rows that do not hold at its moment,
-- storing them as of that moment.
ALTER TABLE customers
  ADD COLUMN visits_as_of timestamptz,
  ADD COLUMN last_visit json,
  ADD COLUMN last_visit_at timestamptz,
  ADD COLUMN next_visit json,
  ADD COLUMN next_visit_at timestamptz;

-- Recomputes the last visit (the latest appointment before as_of that is not cancelled) and the
-- next one (the earliest from as_of on) of the customers named, as of as_of, and returns them:
-- for a reader whose moment the stored ones do not hold (src/db/customers.repository.ts).
-- Writers of one customer take turns by the same advisory locks as customers_refresh
-- (migrations/018), and the UPDATE, a statement after the locks, sees what the writer before
-- committed.
CREATE FUNCTION customers_visits_refresh(keys text[], as_of timestamptz)
  RETURNS TABLE (key text, last_visit json, next_visit json)
  LANGUAGE plpgsql VOLATILE
  AS $$
#variable_conflict use_column
BEGIN
  PERFORM pg_advisory_xact_lock(4022, bucket)
    FROM (SELECT DISTINCT (hashtext(k) & 255) AS bucket FROM unnest(keys) AS k WHERE k IS NOT NULL) AS buckets
    ORDER BY bucket;
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

-- customers_refresh (migrations/018, 022) now also stores the visits, as of the writing
-- transaction's moment, in the same row version as the rest of the summary: a second UPDATE per
-- refresh would leave a dead row and new index entries behind every booking written.
CREATE OR REPLACE FUNCTION customers_refresh(keys text[]) RETURNS void
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
  DELETE FROM customers c
   USING (SELECT DISTINCT k FROM unnest(keys) AS k) AS named
   WHERE c.key = named.k AND NOT EXISTS (SELECT 1 FROM bookings b WHERE b.customer_key = c.key AND b.erased_at IS NULL);
END
$$;

-- A moved appointment or a changed reference changes a visit too.
DROP TRIGGER bookings_customer_update ON bookings;
CREATE TRIGGER bookings_customer_update AFTER UPDATE ON bookings
  FOR EACH ROW
  WHEN (OLD.customer_key IS DISTINCT FROM NEW.customer_key OR OLD.status IS DISTINCT FROM NEW.status
    OR OLD.total_cents IS DISTINCT FROM NEW.total_cents OR OLD.name IS DISTINCT FROM NEW.name
    OR OLD.email IS DISTINCT FROM NEW.email OR OLD.phone IS DISTINCT FROM NEW.phone
    OR OLD.erased_at IS DISTINCT FROM NEW.erased_at
    OR OLD.starts_at IS DISTINCT FROM NEW.starts_at OR OLD."date" IS DISTINCT FROM NEW."date"
    OR OLD."time" IS DISTINCT FROM NEW."time" OR OLD.reference IS DISTINCT FROM NEW.reference)
  EXECUTE FUNCTION bookings_customer_changed();

-- The customers already listed (their search index's pending entries merged, so that no search
-- has to read through them).
SELECT customers_visits_refresh(ARRAY(SELECT key FROM customers), now());
SELECT gin_clean_pending_list('customers_search_idx'::regclass);

-- Every staff request checks its session (src/db/sessions.repository.ts): one call of a function
-- whose plan PL/pgSQL keeps for the connection, instead of a join parsed and planned each time
-- (about half a millisecond a request on the embedded database). The live session (neither past
-- its absolute expiry nor idle since idle_since) with what the check needs of its member's account.
CREATE FUNCTION staff_session_live(session_hash text, as_of timestamptz, idle_since timestamptz)
  RETURNS TABLE (
    id_hash text, created_at timestamptz, last_seen_at timestamptz, expires_at timestamptz,
    staff_name text, password_fingerprint text, member_id uuid,
    member_name text, member_role text, member_password_hash text, member_disabled_at timestamptz
  )
  LANGUAGE plpgsql STABLE
  AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  SELECT s.id_hash, s.created_at, s.last_seen_at, s.expires_at, s.staff_name, s.password_fingerprint, s.member_id,
         m.name, m.role, m.password_hash, m.disabled_at
    FROM staff_sessions s
    LEFT JOIN staff_members m ON m.id = s.member_id
   WHERE s.id_hash = session_hash AND s.expires_at > as_of AND s.last_seen_at > idle_since;
END
$$;
