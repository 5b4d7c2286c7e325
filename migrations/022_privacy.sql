-- Privacy requests and retention (issue 22): erasure of a customer's personal details wherever
-- they are held, the erasure log, and "total spent" from what was actually paid.
--
-- An erased booking or message keeps its amounts, dates, package and status (business records
-- kept for tax) and says when it was erased; its personal fields hold placeholders that satisfy
-- the columns' own CHECKs (see src/domain/privacy.ts): name 'Erased', no e-mail, phone '(erased)',
-- no address, landmark or notes.
ALTER TABLE bookings ADD COLUMN erased_at timestamptz;
ALTER TABLE contact_messages ADD COLUMN erased_at timestamptz;
ALTER TABLE outbox_emails ADD COLUMN erased_at timestamptz;
-- The retention job's question, "which bookings ended before the cutoff and still hold details?".
CREATE INDEX bookings_retention_idx ON bookings (ends_at) WHERE erased_at IS NULL;
CREATE INDEX contact_messages_retention_idx ON contact_messages (created_at) WHERE erased_at IS NULL;
-- Sent e-mails whose bodies are still held: emptied after RETENTION_EMAIL_BODY_DAYS.
CREATE INDEX outbox_emails_body_retention_idx ON outbox_emails (sent_at) WHERE status = 'sent' AND html_body <> '';
-- "Find my booking" e-mails name no booking: found by their recipient.
CREATE INDEX outbox_emails_recipient_idx ON outbox_emails (lower(btrim(to_address)));

-- When and by whom personal details were erased and how many rows of each table changed, never
-- whose: the log itself holds no personal data. Append-only.
CREATE TABLE erasures (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- 'request': the owner erased a customer; 'retention': the scheduled job (RETENTION_MONTHS).
  reason text NOT NULL CHECK (reason IN ('request', 'retention')),
  erased_by text NOT NULL CHECK (char_length(erased_by) BETWEEN 1 AND 60),
  erased_at timestamptz NOT NULL,
  -- { "bookings": 3, "outbox_emails": 7, ... }: rows changed per table.
  counts jsonb NOT NULL CHECK (jsonb_typeof(counts) = 'object')
);
CREATE INDEX erasures_erased_at_idx ON erasures (erased_at DESC);
CREATE FUNCTION erasures_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'erasures is append-only';
END;
$$;
CREATE TRIGGER erasures_append_only BEFORE UPDATE OR DELETE ON erasures
  FOR EACH ROW EXECUTE FUNCTION erasures_append_only();

-- The history and the internal notes stay append-only, except for an erasure: the transaction
-- that erases sets valet.erasing (transaction-local), and may then overwrite the texts (never
-- delete a row, never change who or when).
CREATE OR REPLACE FUNCTION refuse_history_rewrite() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND current_setting('valet.erasing', true) = 'on'
     AND (NEW.id, NEW.booking_id, NEW.from_status, NEW.to_status, NEW.changed_by, NEW.changed_at)
         IS NOT DISTINCT FROM (OLD.id, OLD.booking_id, OLD.from_status, OLD.to_status, OLD.changed_by, OLD.changed_at) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'booking_status_changes is append-only';
END;
$$;
CREATE OR REPLACE FUNCTION booking_notes_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND current_setting('valet.erasing', true) = 'on'
     AND (NEW.id, NEW.booking_id, NEW.author, NEW.created_at) IS NOT DISTINCT FROM (OLD.id, OLD.booking_id, OLD.author, OLD.created_at) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'booking_notes is append-only';
END;
$$;

-- customers_refresh (migrations/018), now:
-- * what a customer has spent is what was paid: the amount of each paid completion
--   (booking_payments), or the booking's total for a job completed before payments were recorded;
-- * erased bookings belong to no customer (their details are gone), so erasing a customer's
--   bookings removes their row.
CREATE OR REPLACE FUNCTION customers_refresh(keys text[]) RETURNS void
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
    coalesce(sum(CASE WHEN p.booking_id IS NULL THEN b.total_cents WHEN p.paid_at IS NOT NULL THEN p.amount_cents ELSE 0 END)
      FILTER (WHERE b.status = 'completed') OVER w, 0),
    max(b.created_at) OVER w
  FROM bookings b
  JOIN (SELECT DISTINCT k FROM unnest(keys) AS k) AS named ON b.customer_key = named.k
  LEFT JOIN booking_payments p ON p.booking_id = b.id
  WHERE b.erased_at IS NULL
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
   WHERE c.key = named.k AND NOT EXISTS (SELECT 1 FROM bookings b WHERE b.customer_key = c.key AND b.erased_at IS NULL);
END
$$;

-- A payment recorded, changed or removed changes what its customer has spent.
CREATE FUNCTION booking_payments_customer_changed() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  PERFORM customers_refresh(ARRAY(
    SELECT b.customer_key FROM bookings b
     WHERE b.id IN (CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE OLD.booking_id END, CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE NEW.booking_id END)));
  RETURN NULL;
END
$$;
CREATE TRIGGER booking_payments_customer AFTER INSERT OR UPDATE OR DELETE ON booking_payments
  FOR EACH ROW EXECUTE FUNCTION booking_payments_customer_changed();

-- Erasing a booking changes its customer even when its name and e-mail already read as erased.
DROP TRIGGER bookings_customer_update ON bookings;
CREATE TRIGGER bookings_customer_update AFTER UPDATE ON bookings
  FOR EACH ROW
  WHEN (OLD.customer_key IS DISTINCT FROM NEW.customer_key OR OLD.status IS DISTINCT FROM NEW.status
    OR OLD.total_cents IS DISTINCT FROM NEW.total_cents OR OLD.name IS DISTINCT FROM NEW.name
    OR OLD.email IS DISTINCT FROM NEW.email OR OLD.phone IS DISTINCT FROM NEW.phone
    OR OLD.erased_at IS DISTINCT FROM NEW.erased_at)
  EXECUTE FUNCTION bookings_customer_changed();

-- The totals as paid, for the customers already listed.
SELECT customers_refresh(ARRAY(SELECT DISTINCT customer_key FROM bookings));
