-- Customers (issue 22): the people behind the bookings, for the dashboard's Customers view.
--
-- A customer is the bookings that share an e-mail address, compared trimmed and in any case; a
-- booking without an e-mail (a staff booking by phone: email '') belongs to the customer of its
-- phone number, compared by its digits. Every booking names its customer in a generated column,
-- so no writer can get it wrong.
ALTER TABLE bookings ADD COLUMN customer_key text GENERATED ALWAYS AS (
  coalesce('e:' || nullif(lower(btrim(email)), ''), 'p:' || regexp_replace(phone, '[^0-9]', '', 'g'))
) STORED;
-- A customer's bookings by appointment: their page, and their last and next visit (one probe each).
CREATE INDEX bookings_customer_idx ON bookings (customer_key, starts_at, id);

-- One row per customer, kept by the database itself (the triggers below) in the transaction that
-- changes a booking, so the Customers view reads a page of rows instead of grouping every booking.
-- The last and next visit depend on the clock, so they are looked up when read (bookings_customer_idx).
CREATE TABLE customers (
  -- Opaque and stable while the customer has bookings: the API's customer id.
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  key text NOT NULL UNIQUE CHECK (key ~ '^(e:.+|p:[0-9]*)$'),
  -- Contact details of their most recently made booking.
  name text NOT NULL,
  email text NOT NULL,
  phone text NOT NULL,
  bookings_count integer NOT NULL CHECK (bookings_count > 0),
  completed_count integer NOT NULL CHECK (completed_count BETWEEN 0 AND bookings_count),
  spent_cents bigint NOT NULL CHECK (spent_cents >= 0),
  -- When their most recent booking was made: the list's order, most recent first.
  last_booked_at timestamptz NOT NULL,
  -- What the search box matches: name, e-mail, phone as typed and as digits.
  search_text text GENERATED ALWAYS AS (
    lower(name || ' ' || email || ' ' || phone) || ' ' || regexp_replace(phone, '[^0-9]', '', 'g')
  ) STORED
);
CREATE INDEX customers_recent_idx ON customers (last_booked_at DESC, id DESC);
CREATE INDEX customers_search_idx ON customers USING gin (search_text gin_trgm_ops);

-- A customer's contact messages, matched by e-mail like their bookings.
CREATE INDEX contact_messages_customer_idx ON contact_messages (lower(btrim(email)), created_at DESC);

-- Recomputes the rows of the customers named from their bookings (and removes those left with
-- none). Writers of one customer take turns (a transaction-scoped advisory lock per bucket of
-- keys, taken in order), and each statement of this READ COMMITTED function sees what the one
-- before it committed, so two bookings made at once by a new customer count as two.
-- THE ONE PLACE that says what a customer has spent: the totals of their completed bookings
-- (total_cents, the price quoted; switch to the amount finally paid here when bookings record it,
-- and add that column to the WHEN of bookings_customer_update below).
CREATE FUNCTION customers_refresh(keys text[]) RETURNS void
  LANGUAGE plpgsql VOLATILE
  AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(4022, bucket)
    FROM (SELECT DISTINCT (hashtext(k) & 255) AS bucket FROM unnest(keys) AS k WHERE k IS NOT NULL) AS buckets
    ORDER BY bucket;
  INSERT INTO customers AS c (key, name, email, phone, bookings_count, completed_count, spent_cents, last_booked_at)
  SELECT DISTINCT ON (b.customer_key)
    b.customer_key, b.name, b.email, b.phone,
    count(*) OVER w, count(*) FILTER (WHERE b.status = 'completed') OVER w,
    coalesce(sum(b.total_cents) FILTER (WHERE b.status = 'completed') OVER w, 0),
    max(b.created_at) OVER w
  FROM bookings b
  JOIN (SELECT DISTINCT k FROM unnest(keys) AS k) AS named ON b.customer_key = named.k
  WINDOW w AS (PARTITION BY b.customer_key)
  ORDER BY b.customer_key, b.created_at DESC, b.id DESC
  ON CONFLICT (key) DO UPDATE SET
    name = excluded.name, email = excluded.email, phone = excluded.phone,
    bookings_count = excluded.bookings_count, completed_count = excluded.completed_count,
    spent_cents = excluded.spent_cents, last_booked_at = excluded.last_booked_at
  WHERE (c.name, c.email, c.phone, c.bookings_count, c.completed_count, c.spent_cents, c.last_booked_at)
    IS DISTINCT FROM (excluded.name, excluded.email, excluded.phone, excluded.bookings_count, excluded.completed_count, excluded.spent_cents, excluded.last_booked_at);
  DELETE FROM customers c
   USING (SELECT DISTINCT k FROM unnest(keys) AS k) AS named
   WHERE c.key = named.k AND NOT EXISTS (SELECT 1 FROM bookings b WHERE b.customer_key = c.key);
END
$$;

-- New bookings: once per statement (a bulk insert refreshes each customer once).
CREATE FUNCTION bookings_customer_inserted() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  PERFORM customers_refresh(ARRAY(SELECT DISTINCT customer_key FROM inserted_bookings));
  RETURN NULL;
END
$$;
CREATE TRIGGER bookings_customer_insert AFTER INSERT ON bookings
  REFERENCING NEW TABLE AS inserted_bookings
  FOR EACH STATEMENT EXECUTE FUNCTION bookings_customer_inserted();

-- A changed or deleted booking: its customer before and after.
CREATE FUNCTION bookings_customer_changed() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM customers_refresh(ARRAY[OLD.customer_key]);
  ELSE
    PERFORM customers_refresh(ARRAY[OLD.customer_key, NEW.customer_key]);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER bookings_customer_update AFTER UPDATE ON bookings
  FOR EACH ROW
  WHEN (OLD.customer_key IS DISTINCT FROM NEW.customer_key OR OLD.status IS DISTINCT FROM NEW.status
    OR OLD.total_cents IS DISTINCT FROM NEW.total_cents OR OLD.name IS DISTINCT FROM NEW.name
    OR OLD.email IS DISTINCT FROM NEW.email OR OLD.phone IS DISTINCT FROM NEW.phone)
  EXECUTE FUNCTION bookings_customer_changed();
CREATE TRIGGER bookings_customer_delete AFTER DELETE ON bookings
  FOR EACH ROW EXECUTE FUNCTION bookings_customer_changed();

-- The bookings already taken.
SELECT customers_refresh(ARRAY(SELECT DISTINCT customer_key FROM bookings));
