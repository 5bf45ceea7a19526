-- Bulk imports of hub members and product customers (POST /hubs/{hubID}/members/import,
-- POST /products/{id}/customers/import, GET /imports/{id}). Tenant first: brand_id leads every
-- key and index.

-- One accepted import request. The counters move in the same transaction as the memberships
-- they count, so they are exact even after a worker crash:
--   record_count = created_count + existing_count + failed_count + pending_count.
CREATE TABLE imports (
  brand_id         text NOT NULL REFERENCES brands (id),
  id               text NOT NULL,
  mode             text NOT NULL CHECK (mode IN ('test', 'live')),
  hub_id           text,
  product_id       text,
  plan             text NOT NULL,
  status           text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'processing', 'completed', 'failed')),
  -- People accepted (the POST's `count`): records after in-request duplicates were folded.
  record_count     integer NOT NULL CHECK (record_count >= 0),
  -- Records that repeated an earlier record's email in the same request, counted once.
  duplicate_count  integer NOT NULL DEFAULT 0,
  created_count    integer NOT NULL DEFAULT 0,
  existing_count   integer NOT NULL DEFAULT 0,
  failed_count     integer NOT NULL DEFAULT 0,
  pending_count    integer NOT NULL CHECK (pending_count >= 0),
  -- Consecutive failed batch attempts; reset by a batch that commits.
  attempts         integer NOT NULL DEFAULT 0,
  last_error       text,
  -- When the worker may take the next batch: moved to "now" after every batch so imports take
  -- turns, and into the future after a failed attempt (back-off).
  next_attempt_at  timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  created_at       timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  started_at       timestamptz,
  finished_at      timestamptz,
  updated_at       timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (brand_id, id),
  CHECK ((product_id IS NULL) <> (hub_id IS NULL)),
  FOREIGN KEY (brand_id, hub_id) REFERENCES hubs (brand_id, id),
  FOREIGN KEY (brand_id, product_id) REFERENCES products (brand_id, id),
  FOREIGN KEY (brand_id, plan) REFERENCES tiers (brand_id, id)
);
-- The worker's queue. Partial, so it only ever holds unfinished imports and stays tiny.
CREATE INDEX imports_unfinished ON imports (brand_id, next_attempt_at) WHERE status IN ('queued', 'processing');

-- The records still to process, one row per person, already validated and normalised:
-- {"index", "name", "email", "phone"?, "fields"}. A batch deletes the rows it takes in the
-- transaction that writes their memberships, so a crash rolls both back together and a
-- restarted worker resumes exactly where the last commit left off. Processed records are not
-- kept (they are personal data the memberships already hold).
CREATE TABLE import_records (
  brand_id   text NOT NULL,
  import_id  text NOT NULL,
  position   integer NOT NULL,
  record     jsonb NOT NULL,
  PRIMARY KEY (brand_id, import_id, position),
  FOREIGN KEY (brand_id, import_id) REFERENCES imports (brand_id, id) ON DELETE CASCADE
);
