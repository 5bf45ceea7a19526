-- Webhooks: endpoints, one delivery per (event, endpoint), and each delivery's attempts.
-- Tenant first like 001: brand_id leads every primary key and index.

CREATE TABLE webhook_endpoints (
  brand_id         text NOT NULL REFERENCES brands (id),
  id               text NOT NULL,
  mode             text NOT NULL CHECK (mode IN ('test', 'live')),
  url              text NOT NULL,
  events           text[] NOT NULL,
  status           text NOT NULL CHECK (status IN ('active', 'disabled')),
  -- Why the service (not the brand) disabled it: a 410 Gone, or five days of failures.
  disabled_reason  text,
  description      text,
  -- The signing secret under AES-256-GCM (webhooks/secret-box.ts); never stored or logged in clear.
  secret_sealed    text NOT NULL,
  -- First failed attempt since the last success; the endpoint is disabled when this gets too old.
  failing_since    timestamptz,
  created_at       timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  updated_at       timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (brand_id, id)
);
CREATE INDEX webhook_endpoints_newest ON webhook_endpoints (brand_id, mode, created_at DESC, id DESC);

-- One event sent to one endpoint. Written by recordEvent in the transaction of the change.
-- endpoint_id has no foreign key: the delivery log outlives a deleted endpoint.
CREATE TABLE webhook_deliveries (
  brand_id         text NOT NULL,
  id               text NOT NULL,
  mode             text NOT NULL CHECK (mode IN ('test', 'live')),
  endpoint_id      text NOT NULL,
  event_id         text NOT NULL,
  event_type       text NOT NULL,
  resource_type    text,
  resource_id      text,
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts         integer NOT NULL DEFAULT 0,
  response_code    integer,
  failure_reason   text,
  -- When a pending delivery is due; NULL once it is finished.
  next_attempt_at  timestamptz DEFAULT clock_timestamp(),
  -- The claim: a worker that takes a delivery owns it until locked_until. A killed worker's
  -- claim simply expires and another worker takes the delivery.
  locked_until     timestamptz,
  locked_by        text,
  last_attempt_at  timestamptz,
  delivered_at     timestamptz,
  created_at       timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (brand_id, id),
  FOREIGN KEY (brand_id, event_id) REFERENCES events (brand_id, id) ON DELETE CASCADE
);
CREATE INDEX webhook_deliveries_newest ON webhook_deliveries (brand_id, mode, created_at DESC, id DESC);
-- Finds an event's deliveries (the retention purge cascades from events through it).
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (brand_id, event_id);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (brand_id, mode, endpoint_id, created_at DESC, id DESC);
-- The worker's queue: only pending rows, so it stays as small as the backlog.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (brand_id, next_attempt_at) WHERE status = 'pending';

-- What happened on each try: kept for the delivery log (GET /webhooks/deliveries/{id}).
CREATE TABLE webhook_attempts (
  brand_id       text NOT NULL,
  delivery_id    text NOT NULL,
  number         integer NOT NULL,
  attempted_at   timestamptz NOT NULL,
  duration_ms    integer NOT NULL,
  response_code  integer,
  error          text,
  -- The first 1 KB of the receiver's answer.
  response_body  text,
  PRIMARY KEY (brand_id, delivery_id, number),
  FOREIGN KEY (brand_id, delivery_id) REFERENCES webhook_deliveries (brand_id, id) ON DELETE CASCADE
);
