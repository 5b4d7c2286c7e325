-- Bookings made by staff, and staff edits (issue 21).

-- A customer who phones or walks in may have no e-mail address: then the address is '' (and no
-- e-mail is ever queued for the booking). The phone stays required (7 to 20 characters).
ALTER TABLE bookings DROP CONSTRAINT bookings_email_check;
ALTER TABLE bookings ADD CONSTRAINT bookings_email_length CHECK (email = '' OR char_length(email) BETWEEN 3 AND 254);

ALTER TABLE bookings
  -- Who took the booking: 'online' (the wizard, the no-JavaScript form, the API) or 'staff'
  -- (the dashboard), and for a staff booking the name the staff member signed in with.
  ADD COLUMN source text NOT NULL DEFAULT 'online' CHECK (source IN ('online', 'staff')),
  ADD COLUMN created_by text CHECK (created_by IS NULL OR char_length(created_by) BETWEEN 1 AND 60),
  ADD CONSTRAINT bookings_staff_booking_named CHECK ((source = 'staff') = (created_by IS NOT NULL)),
  -- A price adjusted by staff: an amount in cents (negative: less) with the reason, kept apart
  -- from the list price and the discount. No adjustment: 0 and no reason.
  ADD COLUMN price_adjustment_cents integer NOT NULL DEFAULT 0,
  ADD COLUMN price_adjustment_reason text,
  ADD CONSTRAINT bookings_price_adjustment_reasoned CHECK (
    (price_adjustment_cents = 0 AND price_adjustment_reason IS NULL)
    OR (price_adjustment_cents <> 0 AND price_adjustment_reason IS NOT NULL
        AND char_length(btrim(price_adjustment_reason)) BETWEEN 1 AND 200)
  ),
  ADD CONSTRAINT bookings_total_not_negative CHECK (total_cents >= 0);

-- The total is the list price less the discount plus the adjustment (0 for every booking so far).
ALTER TABLE bookings DROP CONSTRAINT bookings_total_is_price_less_discount;
ALTER TABLE bookings ADD CONSTRAINT bookings_total_is_price_less_discount_plus_adjustment
  CHECK (total_cents = list_price_cents - discount_cents + price_adjustment_cents);

-- A staff edit in the history: what changed, each as {"field", "from", "to"} (the status stays
-- the same; a move also fills from/to date, time and resource as a staff move does).
ALTER TABLE booking_status_changes
  ADD COLUMN changes jsonb CHECK (changes IS NULL OR (jsonb_typeof(changes) = 'array' AND jsonb_array_length(changes) > 0));
