-- Bookings as the original client sends them (spec section 3), plus what the business adds.
CREATE TABLE bookings (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  service text NOT NULL CHECK (char_length(service) BETWEEN 1 AND 60),
  coating_type text NOT NULL DEFAULT '' CHECK (coating_type IN ('', 'coat1', 'coat2')),
  vehicle_type text NOT NULL CHECK (vehicle_type IN ('sm', 'mid', 'suv')),
  selected_vehicle_type text NOT NULL DEFAULT '' CHECK (char_length(selected_vehicle_type) <= 20),
  "date" date NOT NULL,
  "time" text NOT NULL CHECK ("time" ~ '^([01][0-9]|2[0-3]):00$'),
  service_type text NOT NULL CHECK (service_type IN ('onsite', 'dropoff')),
  house_number text NOT NULL DEFAULT '' CHECK (char_length(house_number) <= 20),
  street_address text NOT NULL DEFAULT '' CHECK (char_length(street_address) <= 120),
  suburb text NOT NULL DEFAULT '' CHECK (char_length(suburb) <= 80),
  city text NOT NULL DEFAULT '' CHECK (char_length(city) <= 80),
  postal_code text NOT NULL DEFAULT '' CHECK (char_length(postal_code) <= 10),
  region text NOT NULL DEFAULT '' CHECK (char_length(region) <= 40),
  landmark text NOT NULL DEFAULT '' CHECK (char_length(landmark) <= 200),
  save_address boolean NOT NULL DEFAULT false,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
  email text NOT NULL CHECK (char_length(email) BETWEEN 3 AND 254),
  phone text NOT NULL CHECK (char_length(phone) BETWEEN 7 AND 20),
  notes text NOT NULL DEFAULT '' CHECK (char_length(notes) <= 1000),
  price_nzd integer NOT NULL CHECK (price_nzd > 0),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'confirmed', 'completed', 'cancelled')),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Newest first is the dashboard's order; the id breaks ties for stable paging.
CREATE INDEX bookings_created_at_idx ON bookings (created_at DESC, id DESC);
-- Slot capacity and the day view look bookings up by appointment.
CREATE INDEX bookings_slot_idx ON bookings ("date", "time") WHERE status <> 'cancelled';
CREATE INDEX bookings_date_idx ON bookings ("date");
CREATE INDEX bookings_status_idx ON bookings (status);
CREATE INDEX bookings_service_idx ON bookings (service);

CREATE TABLE contact_messages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
  email text NOT NULL CHECK (char_length(email) BETWEEN 3 AND 254),
  phone text NOT NULL CHECK (char_length(phone) BETWEEN 1 AND 25),
  message text NOT NULL CHECK (char_length(message) BETWEEN 1 AND 5000),
  read_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX contact_messages_created_at_idx ON contact_messages (created_at DESC, id DESC);

-- Only the SHA-256 of a session id is stored, so a leaked table cannot be replayed.
CREATE TABLE staff_sessions (
  id_hash text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX staff_sessions_expires_at_idx ON staff_sessions (expires_at);

CREATE TABLE settings (
  key text PRIMARY KEY,
  value text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
