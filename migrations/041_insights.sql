-- The owner's Insights (issue 44).
-- Losses, lead times, the heat map, new customers and utilisation read the bookings that start in
-- a range (a quarter, say) by starts_at; no index began with it, so each would read every booking.
-- The columns they use ride along, so a vacuumed table answers from the index alone instead of
-- visiting a quarter's wide rows (their search text, address and lines).
CREATE INDEX bookings_starts_at_idx ON bookings (starts_at)
  INCLUDE (status, customer_key, created_at, total_cents, lapsed_at, resource_id, held);
-- "New" customers: each customer's first job (a booking in a status that holds its place, a
-- waitlist offer aside), one index probe per customer seen in the range, without visiting their
-- cancelled bookings.
CREATE INDEX bookings_customer_first_job_idx ON bookings (customer_key, starts_at)
  WHERE status IN ('pending', 'confirmed', 'completed', 'no-show');
