-- Idempotency-Key on every POST, PATCH and DELETE of /api/v1 (docs/idempotency.md). One row per
-- key, brand and mode: claimed (in_progress) in its own short transaction before the request
-- runs, and completed with the response in the same transaction as the change it made.
-- Kept 24 hours; append-heavy and purged by the worker, so keyed and indexed by time as well.
CREATE TABLE idempotency_keys (
  brand_id         text NOT NULL REFERENCES brands (id),
  mode             text NOT NULL CHECK (mode IN ('test', 'live')),
  key              text NOT NULL,
  -- sha256 of method, route, path parameters and body: the same key with another request is refused.
  fingerprint      text NOT NULL,
  status           text NOT NULL DEFAULT 'in_progress' CHECK (status IN ('in_progress', 'completed')),
  -- Which request holds an in_progress claim, and until when: a process that died mid-request
  -- releases the key when its lease runs out.
  claim_token      text,
  locked_until     timestamptz,
  response_status  integer,
  response_body    text,
  created_at       timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (brand_id, mode, key)
);
CREATE INDEX idempotency_keys_age ON idempotency_keys (brand_id, created_at);
