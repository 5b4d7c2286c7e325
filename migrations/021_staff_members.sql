-- A sign-in for each member of staff (issue 22). The password configured today stays the owner's
-- and keeps working as it does; each member added here has their own e-mail, role and argon2id
-- password, set through a single-use invitation.

CREATE TABLE staff_members (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Shown in booking histories and notes: one line, no control characters, like a session's name.
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 60 AND name = btrim(name) AND name !~ '[\x01-\x08\x0A-\x1F\x7F]'),
  email text NOT NULL CHECK (char_length(email) BETWEEN 3 AND 254 AND email = btrim(email) AND email ~ '^[^@\s]+@[^@\s]+$'),
  role text NOT NULL CHECK (role IN ('owner', 'staff')),
  -- An argon2id PHC string, or none before the invitation is accepted.
  password_hash text CHECK (password_hash LIKE '$argon2id$%'),
  password_changed_at timestamptz,
  disabled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT staff_members_password_dated CHECK ((password_hash IS NULL) = (password_changed_at IS NULL))
);

-- One account per address, whatever its letter case.
CREATE UNIQUE INDEX staff_members_email_key ON staff_members (lower(email));

-- Single-use invitations: only the SHA-256 of the token is kept, valid for 48 hours at most.
CREATE TABLE staff_invitations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  member_id uuid NOT NULL REFERENCES staff_members (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  CONSTRAINT staff_invitations_48_hours CHECK (expires_at > created_at AND expires_at <= created_at + interval '48 hours'),
  CONSTRAINT staff_invitations_used_in_time CHECK (used_at IS NULL OR (used_at >= created_at AND used_at <= expires_at))
);
CREATE INDEX staff_invitations_member_idx ON staff_invitations (member_id);

-- A session records its member; none for the owner signed in with the configured password.
ALTER TABLE staff_sessions ADD COLUMN member_id uuid REFERENCES staff_members (id) ON DELETE CASCADE;
CREATE INDEX staff_sessions_member_idx ON staff_sessions (member_id) WHERE member_id IS NOT NULL;

-- Disabling an account ends its sessions at once, however it is disabled; and no session can be
-- started for a disabled account or one without a password.
CREATE FUNCTION staff_member_disabled() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM staff_sessions WHERE member_id = NEW.id;
  RETURN NEW;
END;
$$;
CREATE TRIGGER staff_members_disabled_end_sessions
  AFTER UPDATE OF disabled_at ON staff_members
  FOR EACH ROW WHEN (NEW.disabled_at IS NOT NULL AND OLD.disabled_at IS NULL)
  EXECUTE FUNCTION staff_member_disabled();

CREATE FUNCTION staff_session_member_active() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.member_id IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM staff_members WHERE id = NEW.member_id AND disabled_at IS NULL AND password_hash IS NOT NULL
  ) THEN
    RAISE EXCEPTION 'staff member % cannot sign in', NEW.member_id USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER staff_sessions_member_active
  BEFORE INSERT ON staff_sessions
  FOR EACH ROW EXECUTE FUNCTION staff_session_member_active();
