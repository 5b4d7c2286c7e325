-- Where the vans go (issue 40): the service area as zones of New Zealand postcodes, each with a
-- travel fee and its minutes of driving from the service centre; the driving minutes between two
-- zones where staff know better than the default; and each on-site booking's zone and travel fee,
-- fixed when it was placed (a later change of zones never moves or re-prices a booking).

CREATE TABLE service_zones (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 40 AND name = btrim(name)),
  -- Postcodes are four digits (0110 to 9999); a zone's are ranges of them, [) like every range here.
  postcodes int4multirange NOT NULL CHECK (
    NOT isempty(postcodes) AND lower(postcodes) >= 0 AND upper(postcodes) <= 10000
  ),
  -- GST inclusive, like every price; 0: no fee.
  travel_fee_cents integer NOT NULL CHECK (travel_fee_cents BETWEEN 0 AND 100000),
  minutes_from_centre integer NOT NULL CHECK (minutes_from_centre BETWEEN 0 AND 240),
  active boolean NOT NULL DEFAULT true,
  position integer NOT NULL CHECK (position >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  -- One postcode, one zone: two active zones never share a postcode, whoever writes.
  CONSTRAINT service_zones_postcodes_apart EXCLUDE USING gist (postcodes WITH &&) WHERE (active)
);
CREATE UNIQUE INDEX service_zones_name_key ON service_zones (lower(name));

-- Driving minutes between two zones, either way (one row a pair, the lesser id first), where staff
-- set them; a pair without a row takes the default derived from the zones' minutes from the
-- centre (src/domain/service-area.ts).
CREATE TABLE zone_travel (
  zone_a uuid NOT NULL REFERENCES service_zones (id) ON DELETE CASCADE,
  zone_b uuid NOT NULL REFERENCES service_zones (id) ON DELETE CASCADE,
  minutes integer NOT NULL CHECK (minutes BETWEEN 0 AND 240),
  PRIMARY KEY (zone_a, zone_b),
  CONSTRAINT zone_travel_pair_ordered CHECK (zone_a <= zone_b)
);

-- The defaults: the Auckland urban area by NZ Post's postcode ranges (README, "Service area"),
-- and two outer zones that carry a travel fee.
INSERT INTO service_zones (name, postcodes, travel_fee_cents, minutes_from_centre, position) VALUES
  ('Central Auckland', '{[1010,1073)}', 0, 15, 0),
  ('East Auckland', '{[2010,2017)}', 0, 20, 1),
  ('South Auckland', '{[2022,2026),[2102,2106),[2110,2114)}', 0, 25, 2),
  ('West Auckland', '{[600,619)}', 0, 25, 3),
  ('North Shore', '{[620,633)}', 0, 25, 4),
  ('Hibiscus Coast', '{[930,934)}', 2500, 45, 5),
  ('Franklin', '{[2120,2124)}', 3000, 50, 6);

ALTER TABLE bookings
  -- The zone an on-site job was placed in; null for drop-offs and for on-site bookings taken
  -- before this migration whose postcode is in no zone ("Outside the service area" to staff).
  ADD COLUMN zone_id uuid REFERENCES service_zones (id),
  ADD COLUMN travel_fee_cents integer NOT NULL DEFAULT 0 CHECK (travel_fee_cents BETWEEN 0 AND 100000),
  ADD CONSTRAINT bookings_zone_onsite_only CHECK (zone_id IS NULL OR service_type = 'onsite'),
  ADD CONSTRAINT bookings_travel_fee_onsite_only CHECK (travel_fee_cents = 0 OR service_type = 'onsite');

ALTER TABLE bookings DROP CONSTRAINT bookings_total_is_price_less_discount_plus_adjustment;
ALTER TABLE bookings ADD CONSTRAINT bookings_total_is_lines
  CHECK (total_cents = list_price_cents - discount_cents + price_adjustment_cents + travel_fee_cents);

-- Existing on-site bookings get the zone of their postcode (as typed, spaces apart); their fee
-- stays 0, since their total was quoted without one. Those outside every zone stay where they are.
UPDATE bookings b SET zone_id = z.id
  FROM service_zones z
  WHERE b.service_type = 'onsite'
    AND btrim(b.postal_code) ~ '^[0-9]{4}$'
    AND z.active AND z.postcodes @> btrim(b.postal_code)::integer;

-- The flat travel buffer becomes the least gap between two jobs of one van (default 15 minutes);
-- travel itself now comes from the zones. A buffer set before meant something else, so it goes.
DELETE FROM settings WHERE key = 'travel_buffer_minutes';

CREATE INDEX bookings_zone_idx ON bookings (zone_id) WHERE zone_id IS NOT NULL;
