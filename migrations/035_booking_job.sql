-- What the customer books (issue 41): one to four vehicles, each a package and add-ons, priced
-- and timed line by line. Both live on the booking's own row, as jsonb, so that every reader of a
-- booking has its whole job and the database checks, on that row, that the price is the sum of
-- the lines and the time held is the sum of their minutes: whoever writes.
--
-- vehicles: [{ vehicleType, selectedVehicleType, service, coatingType, addOns: [id…], make, model, colour, plate }]
-- lines:    [{ vehicle, kind: 'package' | 'add-on', code, description, quantity, unitCents, totalCents, minutes }]
-- The single-vehicle columns (service, coating_type, vehicle_type, selected_vehicle_type) keep the
-- first vehicle's package, as the original API and dashboard read them.

CREATE FUNCTION job_lines_cents(lines jsonb) RETURNS bigint
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT coalesce(sum((l ->> 'totalCents')::bigint), 0) FROM jsonb_array_elements(lines) AS l $$;

CREATE FUNCTION job_lines_minutes(lines jsonb) RETURNS integer
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT coalesce(sum((l ->> 'minutes')::integer), 0)::integer FROM jsonb_array_elements(lines) AS l $$;

-- Every line well formed: a known kind, a vehicle of the job, whole cents and minutes, and its
-- total the unit price times the quantity.
CREATE FUNCTION job_lines_valid(lines jsonb, vehicles integer) RETURNS boolean
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$
    SELECT jsonb_typeof(lines) = 'array' AND jsonb_array_length(lines) >= 1 AND coalesce(bool_and(
      l ->> 'kind' IN ('package', 'add-on')
      AND jsonb_typeof(l -> 'vehicle') = 'number' AND (l ->> 'vehicle')::integer BETWEEN 0 AND vehicles - 1
      AND char_length(coalesce(l ->> 'description', '')) BETWEEN 1 AND 200
      AND (l ->> 'quantity')::integer BETWEEN 1 AND 10
      AND (l ->> 'unitCents')::integer >= 0
      AND (l ->> 'totalCents')::bigint = (l ->> 'unitCents')::bigint * (l ->> 'quantity')::integer
      AND (l ->> 'minutes')::integer > 0
    ), false)
    FROM jsonb_array_elements(lines) AS l
  $$;

-- One to four vehicles, each with a size, and a plate (if any) as NZ plates are: 1 to 6 upper-case
-- letters and digits.
CREATE FUNCTION job_vehicles_valid(vehicles jsonb) RETURNS boolean
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$
    SELECT jsonb_typeof(vehicles) = 'array' AND jsonb_array_length(vehicles) BETWEEN 1 AND 4 AND coalesce(bool_and(
      v ->> 'vehicleType' IN ('sm', 'mid', 'suv')
      AND char_length(coalesce(v ->> 'service', '')) BETWEEN 1 AND 60
      AND jsonb_typeof(v -> 'addOns') = 'array'
      AND coalesce(v ->> 'plate', '') ~ '^([A-Z0-9]{1,6})?$'
      AND char_length(coalesce(v ->> 'make', '')) <= 40
      AND char_length(coalesce(v ->> 'model', '')) <= 40
      AND char_length(coalesce(v ->> 'colour', '')) <= 30
    ), false)
    FROM jsonb_array_elements(vehicles) AS v
  $$;

ALTER TABLE bookings ADD COLUMN vehicles jsonb, ADD COLUMN lines jsonb;

-- A booking written with the original single-vehicle columns only (a row from before, or one
-- written by hand) gets its one vehicle and its one line from them: the list price and the time
-- it holds.
CREATE FUNCTION bookings_single_vehicle_job() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  BEGIN
    IF NEW.vehicles IS NULL THEN
      NEW.vehicles := jsonb_build_array(jsonb_build_object(
        'vehicleType', NEW.vehicle_type, 'selectedVehicleType', NEW.selected_vehicle_type, 'service', NEW.service,
        'coatingType', NEW.coating_type, 'addOns', '[]'::jsonb, 'make', '', 'model', '', 'colour', '', 'plate', ''));
    END IF;
    IF NEW.lines IS NULL THEN
      NEW.lines := jsonb_build_array(jsonb_build_object(
        'vehicle', 0, 'kind', 'package', 'code', NEW.service,
        'description', NEW.service || CASE NEW.coating_type WHEN 'coat1' THEN ' (1 Year Coating)' WHEN 'coat2' THEN ' (3 Year Coating)' ELSE '' END,
        'quantity', 1, 'unitCents', NEW.list_price_cents, 'totalCents', NEW.list_price_cents,
        'minutes', round(extract(epoch from NEW.ends_at - NEW.starts_at) / 60)::integer));
    END IF;
    RETURN NEW;
  END $$;

CREATE TRIGGER bookings_single_vehicle_job BEFORE INSERT ON bookings
  FOR EACH ROW EXECUTE FUNCTION bookings_single_vehicle_job();

-- Existing bookings: one vehicle and one line each, the same price and minutes; nothing moves.
UPDATE bookings SET
  vehicles = jsonb_build_array(jsonb_build_object(
    'vehicleType', vehicle_type, 'selectedVehicleType', selected_vehicle_type, 'service', service,
    'coatingType', coating_type, 'addOns', '[]'::jsonb, 'make', '', 'model', '', 'colour', '', 'plate', '')),
  lines = jsonb_build_array(jsonb_build_object(
    'vehicle', 0, 'kind', 'package', 'code', service,
    'description', service || CASE coating_type WHEN 'coat1' THEN ' (1 Year Coating)' WHEN 'coat2' THEN ' (3 Year Coating)' ELSE '' END,
    'quantity', 1, 'unitCents', list_price_cents, 'totalCents', list_price_cents,
    'minutes', round(extract(epoch from ends_at - starts_at) / 60)::integer));

ALTER TABLE bookings
  ALTER COLUMN vehicles SET NOT NULL,
  ALTER COLUMN lines SET NOT NULL,
  ADD CONSTRAINT bookings_vehicles_valid CHECK (job_vehicles_valid(vehicles)),
  ADD CONSTRAINT bookings_lines_valid CHECK (job_lines_valid(lines, jsonb_array_length(vehicles))),
  -- The price is the sum of the lines, and the job holds its van or bay for the sum of their minutes.
  ADD CONSTRAINT bookings_price_is_lines CHECK (list_price_cents = job_lines_cents(lines)),
  ADD CONSTRAINT bookings_time_is_lines CHECK (ends_at = valet_add_minutes(starts_at, job_lines_minutes(lines)));
