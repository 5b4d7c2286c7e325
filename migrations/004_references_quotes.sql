-- Booking references and server quotes (issue 10): a short reference for people, and the price
-- of each booking in cents with the first-service discount it was given.

ALTER TABLE bookings
  ADD COLUMN reference text,
  ADD COLUMN list_price_cents integer,
  ADD COLUMN discount_cents integer,
  ADD COLUMN total_cents integer,
  ADD COLUMN discount_kind text,
  ADD COLUMN discount_percent integer;

-- Bookings taken before this migration were never discounted (the original did not apply the
-- discount its home page promised): their total is the whole dollar price they recorded.
UPDATE bookings SET list_price_cents = price_nzd * 100, discount_cents = 0, total_cents = price_nzd * 100;

-- The index first, so that the backfill below checks each candidate with one index probe.
CREATE UNIQUE INDEX bookings_reference_key ON bookings (reference);

-- References for existing bookings, drawn like the application's (src/services/booking-reference.ts):
-- the low five bits of a random byte, 31 rejected, from gen_random_uuid(), PostgreSQL's strong
-- random source. Byte 6 of a version-4 UUID carries the version in its high nibble (so its bit 4
-- is fixed) and is skipped; byte 8's variant bits are above the low five. A candidate already
-- taken is drawn again.
DO $$
DECLARE
  alphabet constant text := '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
  booking_id uuid;
  candidate text;
  random_bytes bytea;
  symbol integer;
BEGIN
  FOR booking_id IN SELECT id FROM bookings WHERE reference IS NULL LOOP
    LOOP
      candidate := '';
      WHILE length(candidate) < 8 LOOP
        random_bytes := decode(replace(gen_random_uuid()::text, '-', ''), 'hex');
        FOR i IN 0..15 LOOP
          CONTINUE WHEN i = 6;
          symbol := get_byte(random_bytes, i) & 31;
          IF symbol < 31 AND length(candidate) < 8 THEN
            candidate := candidate || substr(alphabet, symbol + 1, 1);
          END IF;
        END LOOP;
      END LOOP;
      EXIT WHEN NOT EXISTS (SELECT 1 FROM bookings WHERE reference = candidate);
    END LOOP;
    UPDATE bookings SET reference = candidate WHERE id = booking_id;
  END LOOP;
END;
$$;

ALTER TABLE bookings
  ALTER COLUMN reference SET NOT NULL,
  ALTER COLUMN list_price_cents SET NOT NULL,
  ALTER COLUMN discount_cents SET NOT NULL,
  ALTER COLUMN total_cents SET NOT NULL,
  ADD CONSTRAINT bookings_reference_format CHECK (reference ~ '^[2-9A-HJKMNP-Z]{8}$'),
  ADD CONSTRAINT bookings_list_price_positive CHECK (list_price_cents > 0),
  ADD CONSTRAINT bookings_discount_within_price CHECK (discount_cents BETWEEN 0 AND list_price_cents),
  ADD CONSTRAINT bookings_total_is_price_less_discount CHECK (total_cents = list_price_cents - discount_cents),
  ADD CONSTRAINT bookings_discount_kind_known CHECK (discount_kind IN ('first-service')),
  ADD CONSTRAINT bookings_discount_described CHECK (
    (discount_kind IS NULL AND discount_percent IS NULL AND discount_cents = 0)
    OR (discount_kind IS NOT NULL AND discount_percent BETWEEN 1 AND 100)
  );

-- The whole-dollar price is now list_price_cents; one source of truth.
ALTER TABLE bookings DROP COLUMN price_nzd;

-- The dashboard's search also finds a booking by its reference. A generated column cannot be
-- altered, so it is recreated (its trigram index goes with it and is rebuilt).
ALTER TABLE bookings DROP COLUMN search_text;
ALTER TABLE bookings
  ADD COLUMN search_text text GENERATED ALWAYS AS (lower(reference || ' ' || name || ' ' || email || ' ' || service)) STORED;
CREATE INDEX bookings_search_idx ON bookings USING gin (search_text gin_trgm_ops);

-- The first-service discount asks "has this e-mail a booking that is not cancelled?": one probe
-- of this index, whatever the number of bookings. E-mails are stored trimmed; lower() makes the
-- comparison case-insensitive.
CREATE INDEX bookings_uncancelled_email_idx ON bookings (lower(email)) WHERE status <> 'cancelled';
