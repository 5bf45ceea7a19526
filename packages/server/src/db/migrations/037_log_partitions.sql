-- The delivery log in daily partitions, retention by DROP (issue 28 item 2, docs/performance.md
-- "Daily partitions, retention by DROP").
--
-- events, webhook_deliveries and webhook_attempts become PARTITION BY RANGE on a timestamp, one
-- partition per UTC day named <table>_pYYYYMMDD, the same bounds for all three and no DEFAULT
-- partition (a DEFAULT partition would have to be scanned by every new day's CREATE and could not
-- be dropped whole). Retention then detaches and drops whole days (events/retention.ts) instead
-- of deleting brand by brand.
--
-- - events on created_at.
-- - webhook_deliveries on their own created_at, which fan-out sets to their event's created_at
--   exactly: a delivery lives in its event's day, a retry or resend of an old delivery updates a
--   row of that day, and the delivery log's keyset on created_at prunes. Rows from before get
--   their event's created_at below (it differed by the microseconds between the event's insert
--   and its fan-out in the same transaction).
-- - webhook_attempts on delivery_created_at, their delivery's created_at.
--
-- Event and delivery ids unique per brand across days. A primary key on the partitioned table
-- must contain the partition key, and (brand_id, id, created_at) would let one id in twice, on
-- two days or at two instants of one day. Instead each day's partition has its own primary key
-- (brand_id, id) (made with the partition, below), and ids made from now on carry their UTC day
-- (ids.ts datedId: the first 8 of their 20 characters are YYYYMMDD) with a CHECK tying
-- created_at's day to the id's: the same id at another day is refused by the CHECK, on the same
-- day by that day's primary key. Rows from before this migration keep their random ids (unique
-- already): the CHECK holds from this migration's instant on (the literal below is written when
-- it runs).
--
-- The foreign keys deliveries -> events and attempts -> deliveries go: retention drops a day of
-- each table on its own (and the delivery log may be kept shorter than the events).

ALTER TABLE webhook_attempts RENAME TO webhook_attempts_unpartitioned;
ALTER TABLE webhook_deliveries RENAME TO webhook_deliveries_unpartitioned;
ALTER TABLE events RENAME TO events_unpartitioned;

CREATE TABLE events (
  brand_id    text NOT NULL,
  id          text NOT NULL,
  mode        text NOT NULL CONSTRAINT events_mode_check CHECK (mode IN ('test', 'live')),
  type        text NOT NULL,
  data        jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  seq         bigint GENERATED ALWAYS AS IDENTITY,
  resource_id text,
  app_id      text
) PARTITION BY RANGE (created_at);

CREATE TABLE webhook_deliveries (
  brand_id         text NOT NULL,
  id               text NOT NULL,
  mode             text NOT NULL CONSTRAINT webhook_deliveries_mode_check CHECK (mode IN ('test', 'live')),
  endpoint_id      text NOT NULL,
  event_id         text NOT NULL,
  event_type       text NOT NULL,
  resource_type    text,
  resource_id      text,
  status           text NOT NULL DEFAULT 'pending' CONSTRAINT webhook_deliveries_status_check CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts         integer NOT NULL DEFAULT 0,
  response_code    integer,
  failure_reason   text,
  next_attempt_at  timestamptz DEFAULT clock_timestamp(),
  locked_until     timestamptz,
  locked_by        text,
  last_attempt_at  timestamptz,
  delivered_at     timestamptz,
  -- No default: it is the event's created_at, which fan-out passes.
  created_at       timestamptz NOT NULL,
  order_key        text,
  order_seq        bigint,
  behind_earlier   boolean NOT NULL DEFAULT false
) PARTITION BY RANGE (created_at);

CREATE TABLE webhook_attempts (
  brand_id             text NOT NULL,
  delivery_id          text NOT NULL,
  number               integer NOT NULL,
  attempted_at         timestamptz NOT NULL,
  duration_ms          integer NOT NULL,
  response_code        integer,
  error                text,
  response_body        text,
  -- The delivery's created_at: the attempt lives in its delivery's day.
  delivery_created_at  timestamptz NOT NULL
) PARTITION BY RANGE (delivery_created_at);

-- Makes the partitions of every day from first_day to last_day (UTC) on all three tables, where
-- missing; returns how many it made. Called by this migration, at every process start (db/
-- migrate.ts: an API-only deployment must never fail an insert for want of a worker) and by the
-- worker's periodic source (db/partitions.ts). The advisory lock makes concurrent callers (two
-- processes starting at once) take turns, so neither fails on the other's CREATE; a caller that
-- finds every partition there takes no lock on the tables. CREATE TABLE … PARTITION OF takes an
-- ACCESS EXCLUSIVE lock on the parent for an instant, which is why days are made ahead.
-- Partitions of events and webhook_deliveries get their primary key (brand_id, id) (see above);
-- webhook_deliveries' partitions keep fillfactor 50 (migration 019: room for the claim's
-- heap-only update); a partitioned table itself holds no storage parameters.
CREATE FUNCTION ensure_log_partitions(first_day date, last_day date) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  day date;
  parent text;
  made integer := 0;
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM generate_series(first_day, last_day, interval '1 day') AS d (day),
      unnest(ARRAY['events', 'webhook_deliveries', 'webhook_attempts']) AS p (parent)
    WHERE to_regclass(format('%I', p.parent || '_p' || to_char(d.day, 'YYYYMMDD'))) IS NULL
  ) THEN
    RETURN 0;
  END IF;
  PERFORM pg_advisory_xact_lock(7283542);
  FOR day IN SELECT g::date FROM generate_series(first_day, last_day, interval '1 day') AS g LOOP
    FOREACH parent IN ARRAY ARRAY['events', 'webhook_deliveries', 'webhook_attempts'] LOOP
      IF to_regclass(format('%I', parent || '_p' || to_char(day, 'YYYYMMDD'))) IS NULL THEN
        EXECUTE format('CREATE TABLE %I PARTITION OF %I %s FOR VALUES FROM (%L) TO (%L)%s',
          parent || '_p' || to_char(day, 'YYYYMMDD'), parent,
          CASE WHEN parent = 'webhook_attempts' THEN '' ELSE '(PRIMARY KEY (brand_id, id))' END,
          to_char(day, 'YYYY-MM-DD') || ' 00:00:00+00', to_char(day + 1, 'YYYY-MM-DD') || ' 00:00:00+00',
          CASE WHEN parent = 'webhook_deliveries' THEN ' WITH (fillfactor = 50)' ELSE '' END);
        made := made + 1;
      END IF;
    END LOOP;
  END LOOP;
  RETURN made;
END
$$;

-- Every day that has data, and the days around now (db/partitions.ts makes the same window at
-- every start).
SELECT ensure_log_partitions(d, d) FROM (
  SELECT DISTINCT (created_at AT TIME ZONE 'UTC')::date AS d FROM events_unpartitioned
) days;
SELECT ensure_log_partitions((now() AT TIME ZONE 'UTC')::date - 1, (now() AT TIME ZONE 'UTC')::date + 2);

-- created_at to the millisecond, as the service has always written it: the app passes a row's
-- created_at back as a JavaScript Date (milliseconds) to name its partition, and a stray
-- microsecond would make a delivery that no statement by id can find.
INSERT INTO events (brand_id, id, mode, type, data, created_at, seq, resource_id, app_id) OVERRIDING SYSTEM VALUE
SELECT brand_id, id, mode, type, data, date_trunc('milliseconds', created_at), seq, resource_id, app_id FROM events_unpartitioned;
SELECT setval(pg_get_serial_sequence('events', 'seq'), coalesce((SELECT max(seq) FROM events_unpartitioned), 0) + 1, false);

INSERT INTO webhook_deliveries (brand_id, id, mode, endpoint_id, event_id, event_type, resource_type, resource_id, status, attempts,
  response_code, failure_reason, next_attempt_at, locked_until, locked_by, last_attempt_at, delivered_at, created_at, order_key, order_seq, behind_earlier)
SELECT d.brand_id, d.id, d.mode, d.endpoint_id, d.event_id, d.event_type, d.resource_type, d.resource_id, d.status, d.attempts,
  d.response_code, d.failure_reason, d.next_attempt_at, d.locked_until, d.locked_by, d.last_attempt_at, d.delivered_at, date_trunc('milliseconds', e.created_at),
  d.order_key, d.order_seq, d.behind_earlier
FROM webhook_deliveries_unpartitioned d JOIN events_unpartitioned e ON e.brand_id = d.brand_id AND e.id = d.event_id;

INSERT INTO webhook_attempts (brand_id, delivery_id, number, attempted_at, duration_ms, response_code, error, response_body, delivery_created_at)
SELECT a.brand_id, a.delivery_id, a.number, a.attempted_at, a.duration_ms, a.response_code, a.error, a.response_body, date_trunc('milliseconds', e.created_at)
FROM webhook_attempts_unpartitioned a
JOIN webhook_deliveries_unpartitioned d ON d.brand_id = a.brand_id AND d.id = a.delivery_id
JOIN events_unpartitioned e ON e.brand_id = d.brand_id AND e.id = d.event_id;

DROP TABLE webhook_attempts_unpartitioned, webhook_deliveries_unpartitioned, events_unpartitioned;

-- Events' and deliveries' keys are their partitions' (above); an attempt's holds its partition key.
ALTER TABLE webhook_attempts ADD PRIMARY KEY (brand_id, delivery_id, delivery_created_at, number);

-- An id made from now on names its row's UTC day in its characters 5 to 12 (after `evt_` or
-- `whd_`); rows from before keep random ids. The instant is this migration's.
DO $$
BEGIN
  EXECUTE format($f$ALTER TABLE events ADD CONSTRAINT events_id_day
    CHECK (created_at < %L OR substr(id, 5, 8) = to_char(created_at AT TIME ZONE 'UTC', 'YYYYMMDD'))$f$, now());
  EXECUTE format($f$ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_id_day
    CHECK (created_at < %L OR substr(id, 5, 8) = to_char(created_at AT TIME ZONE 'UTC', 'YYYYMMDD'))$f$, now());
END
$$;

-- The indexes as they were (each made on every partition), the list filters' and the worker's.
CREATE INDEX events_newest_seq ON events (brand_id, mode, created_at DESC, seq DESC);
CREATE INDEX events_type ON events (brand_id, mode, type, created_at DESC, id DESC);
CREATE INDEX events_resource ON events (brand_id, mode, resource_id, created_at DESC, id DESC) WHERE resource_id IS NOT NULL;
CREATE INDEX events_app_newest ON events (brand_id, app_id, created_at DESC) WHERE app_id IS NOT NULL;

CREATE INDEX webhook_deliveries_newest ON webhook_deliveries (brand_id, mode, created_at DESC, id DESC);
-- The log's eventID filter.
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (brand_id, event_id);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (brand_id, mode, endpoint_id, created_at DESC, id DESC);
CREATE INDEX webhook_deliveries_status ON webhook_deliveries (brand_id, mode, status, created_at DESC, id DESC);
CREATE INDEX webhook_deliveries_type ON webhook_deliveries (brand_id, mode, event_type, created_at DESC, id DESC);
CREATE INDEX webhook_deliveries_resource ON webhook_deliveries (brand_id, mode, resource_id, created_at DESC, id DESC) WHERE resource_id IS NOT NULL;
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (brand_id, next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_order ON webhook_deliveries (brand_id, endpoint_id, order_key, order_seq)
  WHERE status <> 'succeeded' AND status <> 'failed' AND delivered_at IS NULL;
