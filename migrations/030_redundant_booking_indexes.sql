-- Three of the first indexes on bookings (migrations/001) are the leading column of an index
-- added beside them (migrations/002) and never dropped: bookings_date_idx of
-- bookings_schedule_idx ("date", "time", id), bookings_status_idx of bookings_status_created_idx
-- (status, created_at, id), bookings_service_idx of bookings_service_created_idx (service,
-- created_at, id). Any read by that column alone is served by the wider index; each booking's
-- insert, and every update that moves a booking, wrote all three for nothing (issue 24).
DROP INDEX bookings_date_idx;
DROP INDEX bookings_status_idx;
DROP INDEX bookings_service_idx;
