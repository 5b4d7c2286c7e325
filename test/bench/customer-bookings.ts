/**
 * The bookings the customers and backup benchmarks write (test/bench/customers.ts,
 * test/bench/backup.ts): 100,000 bookings of 25,000 customers over 1,000 days, in one
 * generate_series INSERT (the customers filled by the database's triggers).
 */
export const BOOKINGS = 100_000;
export const CUSTOMERS = 25_000;
export const PER_DAY = 100;
export const DAYS_BEHIND = 635;
export const FIRST_NAMES = ['Aroha', 'Ben', 'Cara', 'Daniel', 'Ella', 'Finn', 'Grace', 'Hemi'];
export const SURNAMES = ['Smith', 'Walker', 'Patel', 'Ngata', 'Brown', 'Wilson', 'Taylor', 'Lee', 'Martin', 'Clarke'];
export const DOMAINS = ['gmail.com', 'xtra.co.nz', 'outlook.com', 'icloud.com', 'example.co.nz'];

/**
 * Row i: customer c = i % 25,000 (so each customer's 4 bookings are 250 days apart), day i / 100,
 * hour 7 + i % 14; customer c is "<first name> <surname>" (80 names shared by many, as in life),
 * e-mail <first>.<surname><c>@<one of 5 domains> written four ways (as is, capitals, spaces around,
 * a capital first letter), a mobile number of pseudo-random digits; customers with c % 20 = 19
 * give no e-mail, only their phone.
 */
export const CUSTOMER_BOOKINGS_INSERT = `
WITH rows AS (
  SELECT i, i % ${CUSTOMERS} AS c,
    ((now() AT TIME ZONE 'Pacific/Auckland')::date - ${DAYS_BEHIND} + i / ${PER_DAY}) AS day,
    7 + i % 14 AS hour,
    lower((ARRAY['${FIRST_NAMES.join("','")}'])[1 + (i % ${CUSTOMERS}) % 8] || '.' || (ARRAY['${SURNAMES.join("','")}'])[1 + ((i % ${CUSTOMERS}) / 8) % 10]) || (i % ${CUSTOMERS}) AS local,
    (ARRAY['${DOMAINS.join("','")}'])[1 + (i % ${CUSTOMERS}) % ${DOMAINS.length}] AS domain,
    '02' || (1 + (i % ${CUSTOMERS}) % 9) || ' ' || lpad((((i % ${CUSTOMERS})::bigint * 7919 + 13) % 10000000)::text, 7, '0') AS phone
  FROM generate_series(0, ${BOOKINGS - 1}) AS i
)
INSERT INTO bookings (
  service, coating_type, vehicle_type, selected_vehicle_type, "date", "time", service_type,
  house_number, street_address, suburb, city, postal_code, region, landmark, save_address,
  name, email, phone, notes, reference, list_price_cents, discount_cents, total_cents,
  status, starts_at, ends_at, buffer_minutes
)
SELECT
  'Quick Clean', '', 'sm', 'sm', r.day, lpad(r.hour::text, 2, '0') || ':00', 'onsite',
  '1', 'Queen Street', 'Auckland Central', 'Auckland', '1010', 'Auckland', '', false,
  (ARRAY['${FIRST_NAMES.join("','")}'])[1 + r.c % 8] || ' ' || (ARRAY['${SURNAMES.join("','")}'])[1 + (r.c / 8) % 10],
  CASE WHEN r.c % 20 = 19 THEN ''
       WHEN r.i % 4 = 0 THEN r.local || '@' || r.domain
       WHEN r.i % 4 = 1 THEN upper(r.local || '@' || r.domain)
       WHEN r.i % 4 = 2 THEN '  ' || r.local || '@' || r.domain || ' '
       ELSE initcap(r.local) || '@' || r.domain END,
  r.phone, '',
  (SELECT string_agg(substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', ((r.i / (31::bigint ^ d)::bigint) % 31)::int + 1, 1), '' ORDER BY d DESC) FROM generate_series(0, 7) AS d),
  6900, 0, 6900,
  CASE WHEN r.i % 10 = 9 THEN 'cancelled' WHEN r.day < (now() AT TIME ZONE 'Pacific/Auckland')::date AND r.i % 4 <> 3 THEN 'completed'
       WHEN r.i % 3 = 0 THEN 'confirmed' ELSE 'pending' END,
  (r.day + make_time(r.hour, 0, 0)) AT TIME ZONE 'Pacific/Auckland',
  ((r.day + make_time(r.hour, 0, 0)) AT TIME ZONE 'Pacific/Auckland') + interval '60 minutes',
  30
FROM rows r`;
