-- The job's CHECKs (035) as PL/pgSQL instead of SQL functions: the same rules, at a third of the
-- cost. A SQL function that cannot be inlined (these aggregate over jsonb_array_elements) is
-- planned again on every statement that calls it, so the four CHECKs cost every INSERT or UPDATE
-- of a booking about 0.5 ms, a tenth of POST /v1/create-booking's whole transaction (pgbench on
-- the development VM, 2026-11-29: 0.22 ms for the INSERT without them, 0.72 ms with them, 0.35 ms
-- with these). PL/pgSQL keeps its plans for the session, and walks the arrays by index, each step
-- a simple expression. Same names and arguments, so the constraints that call them are unchanged.

CREATE OR REPLACE FUNCTION job_lines_cents(lines jsonb) RETURNS bigint
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
  AS $$
  DECLARE
    total bigint := 0;
  BEGIN
    FOR i IN 0 .. jsonb_array_length(lines) - 1 LOOP
      total := total + (lines -> i ->> 'totalCents')::bigint;
    END LOOP;
    RETURN total;
  END $$;

CREATE OR REPLACE FUNCTION job_lines_minutes(lines jsonb) RETURNS integer
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
  AS $$
  DECLARE
    total integer := 0;
  BEGIN
    FOR i IN 0 .. jsonb_array_length(lines) - 1 LOOP
      total := total + (lines -> i ->> 'minutes')::integer;
    END LOOP;
    RETURN total;
  END $$;

CREATE OR REPLACE FUNCTION job_lines_valid(lines jsonb, vehicles integer) RETURNS boolean
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
  AS $$
  DECLARE
    l jsonb;
  BEGIN
    IF jsonb_typeof(lines) <> 'array' OR jsonb_array_length(lines) < 1 THEN
      RETURN false;
    END IF;
    FOR i IN 0 .. jsonb_array_length(lines) - 1 LOOP
      l := lines -> i;
      IF NOT coalesce(
        l ->> 'kind' IN ('package', 'add-on')
        AND jsonb_typeof(l -> 'vehicle') = 'number' AND (l ->> 'vehicle')::integer BETWEEN 0 AND vehicles - 1
        AND char_length(coalesce(l ->> 'description', '')) BETWEEN 1 AND 200
        AND (l ->> 'quantity')::integer BETWEEN 1 AND 10
        AND (l ->> 'unitCents')::integer >= 0
        AND (l ->> 'totalCents')::bigint = (l ->> 'unitCents')::bigint * (l ->> 'quantity')::integer
        AND (l ->> 'minutes')::integer > 0, false) THEN
        RETURN false;
      END IF;
    END LOOP;
    RETURN true;
  END $$;

CREATE OR REPLACE FUNCTION job_vehicles_valid(vehicles jsonb) RETURNS boolean
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
  AS $$
  DECLARE
    v jsonb;
  BEGIN
    IF jsonb_typeof(vehicles) <> 'array' OR jsonb_array_length(vehicles) NOT BETWEEN 1 AND 4 THEN
      RETURN false;
    END IF;
    FOR i IN 0 .. jsonb_array_length(vehicles) - 1 LOOP
      v := vehicles -> i;
      IF NOT coalesce(
        v ->> 'vehicleType' IN ('sm', 'mid', 'suv')
        AND char_length(coalesce(v ->> 'service', '')) BETWEEN 1 AND 60
        AND jsonb_typeof(v -> 'addOns') = 'array'
        AND coalesce(v ->> 'plate', '') ~ '^([A-Z0-9]{1,6})?$'
        AND char_length(coalesce(v ->> 'make', '')) <= 40
        AND char_length(coalesce(v ->> 'model', '')) <= 40
        AND char_length(coalesce(v ->> 'colour', '')) <= 30, false) THEN
        RETURN false;
      END IF;
    END LOOP;
    RETURN true;
  END $$;
