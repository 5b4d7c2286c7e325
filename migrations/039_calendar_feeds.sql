-- Calendar feeds (issue 44): a private iCalendar subscription URL per van or bay, or per member
-- of staff on the van or bay they work, that shows its jobs from 7 days back to 60 days ahead.
-- Only the SHA-256 of the 256-bit token is kept (the owner sees the URL once); a new feed for the
-- same van and person replaces the one before (rotation), and a revoked one answers 404.
CREATE TABLE calendar_feeds (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Whose jobs: a van or bay.
  resource_id uuid NOT NULL REFERENCES resources (id),
  -- For whom, when it is a person's: their feed stops when they are disabled.
  staff_member_id uuid REFERENCES staff_members (id),
  token_hash text NOT NULL UNIQUE CONSTRAINT calendar_feeds_token_hash_shape CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  created_by text NOT NULL CONSTRAINT calendar_feeds_created_by_named CHECK (char_length(created_by) BETWEEN 1 AND 200),
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

-- One live feed per van (for the van itself) and per van and person: creating another rotates it.
CREATE UNIQUE INDEX calendar_feeds_one_live_per_resource ON calendar_feeds (resource_id) WHERE revoked_at IS NULL AND staff_member_id IS NULL;
CREATE UNIQUE INDEX calendar_feeds_one_live_per_person ON calendar_feeds (resource_id, staff_member_id) WHERE revoked_at IS NULL AND staff_member_id IS NOT NULL;
