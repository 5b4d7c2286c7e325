-- The owner's Insights (issue 44): losses, lead times, new customers and the heat map find the
-- bookings that start in a range (a quarter, say) by starts_at; no index began with it, so each
-- would read every booking. Utilisation finds them by resource and start.
CREATE INDEX bookings_starts_at_idx ON bookings (starts_at);
