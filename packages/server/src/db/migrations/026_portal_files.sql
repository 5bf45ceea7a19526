-- The buyer portal and access to what was bought (issue 23 items 4 and 5; docs/portal.md,
-- docs/files.md): an item's content (an uploaded file or a URL), the downloads counted per buyer,
-- the one-time sign-in links and the portal's sessions.

-- An item's content. A file lives in the file store under `file_key`; a replaced file gets a new
-- key and version, so a download already under way finishes on the old bytes and every later one
-- gets the new. `content_url` and a file are exclusive.
ALTER TABLE items ADD COLUMN content_url text;
ALTER TABLE items ADD COLUMN file_key text;
ALTER TABLE items ADD COLUMN file_name text;
ALTER TABLE items ADD COLUMN file_type text;
ALTER TABLE items ADD COLUMN file_size bigint;
ALTER TABLE items ADD COLUMN file_sha256 text;
ALTER TABLE items ADD COLUMN file_version integer NOT NULL DEFAULT 0;
ALTER TABLE items ADD COLUMN file_updated_at timestamptz;
ALTER TABLE items ADD CONSTRAINT items_one_content CHECK (content_url IS NULL OR file_key IS NULL);

-- How often each buyer (by email, case-insensitive, per mode) downloaded each item.
CREATE TABLE item_downloads (
  brand_id     text NOT NULL,
  mode         text NOT NULL CHECK (mode IN ('test', 'live')),
  email        text NOT NULL,
  item_id      text NOT NULL,
  count        integer NOT NULL,
  last_at      timestamptz NOT NULL,
  PRIMARY KEY (brand_id, mode, email, item_id)
);

-- A one-time sign-in link: emailed to the buyer (portal sign-in) or minted by the brand's
-- developer (POST /customer-sessions). Only the SHA-256 of its token is kept.
CREATE TABLE portal_links (
  token_hash   text PRIMARY KEY,
  brand_id     text NOT NULL REFERENCES brands (id),
  mode         text NOT NULL CHECK (mode IN ('test', 'live')),
  email        text NOT NULL,
  -- Where the portal opens: a subscription, transaction or item id, or null for its home.
  deep_link    text,
  return_url   text,
  expires_at   timestamptz NOT NULL,
  used_at      timestamptz,
  created_at   timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp())
);
CREATE INDEX portal_links_expiry ON portal_links (expires_at);

-- A signed-in buyer: the cookie carries the token, the row its hash.
CREATE TABLE portal_sessions (
  token_hash   text PRIMARY KEY,
  brand_id     text NOT NULL REFERENCES brands (id),
  mode         text NOT NULL CHECK (mode IN ('test', 'live')),
  email        text NOT NULL,
  return_url   text,
  expires_at   timestamptz NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp())
);
CREATE INDEX portal_sessions_expiry ON portal_sessions (expires_at);
