-- The delivery queue apart from the delivery log (issue 28 item 1, docs/performance.md "The queue
-- apart from the log").
--
-- Every pending delivery used to be a row of the log that the worker claimed (locked_until,
-- locked_by), retried (next_attempt_at, attempts) and finally finished in place, so the log's
-- nine indexes and two partial-index predicates saw every change of state: the outcome's UPDATE
-- changed status, was never heap-only, and the log grew by a dead row version per claim and per
-- attempt. Now the worker's state lives in webhook_queue, a narrow table that holds only what is
-- due (pending deliveries, retries, a resend in flight), with three indexes (see below). The
-- log row is written at fan-out as pending and updated once, with its outcome (a resend of a
-- finished delivery updates it again); a retry changes only the queue row and adds an attempt.
--
-- While a delivery is pending, what the API shows of its progress (attempts, nextAttemptAt,
-- lastAttemptAt, responseCode) is read from its queue row (webhooks/repository.ts); the log's
-- copy of those is written with the outcome.
CREATE TABLE webhook_queue (
  brand_id          text NOT NULL,
  delivery_id       text NOT NULL,
  endpoint_id       text NOT NULL,
  event_id          text NOT NULL,
  -- The event's time and the log row's: every statement that reads or writes the event or the log
  -- row by id names its created_at too, so that once both are partitioned by day
  -- (docs/performance.md, part 2) it reads one day's partition.
  event_created_at  timestamptz NOT NULL,
  delivery_created_at timestamptz NOT NULL,
  next_attempt_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
  -- The claim: a worker that takes a delivery owns it until locked_until. A killed worker's
  -- claim simply expires and another worker takes the delivery.
  locked_until      timestamptz,
  locked_by         text,
  -- Per-object order (migration 008): the object, its event's seq, and whether an earlier
  -- delivery of the object to the endpoint was queued when this one was. NULL for a resend's
  -- retries of a delivery that was delivered once (they neither wait nor hold back).
  order_key         text,
  order_seq         bigint,
  behind_earlier    boolean NOT NULL DEFAULT false,
  attempts          integer NOT NULL DEFAULT 0,
  last_attempt_at   timestamptz,
  response_code     integer,
  -- No foreign key to the log row (checked on every queued row, it slowed every import's fan-out):
  -- a claim drops a queued row whose event or log row retention has removed (webhooks/claim.ts).
  --
  -- The primary key leads with delivery_id and the other two indexes are partial, so that a
  -- statement by key (delivery_id and brand_id) can use the primary key and nothing else, and a
  -- statement on one brand's due or ordered rows cannot use the primary key. The planner then has
  -- no index to choose wrongly whatever the queue's statistics say: analyzed while the queue was
  -- empty (after a backlog drained), it takes any number of rows for one, every index for as cheap
  -- as any other, and with the key leading with brand_id it took an index on brand_id alone and
  -- read the whole queue for each batch (docs/performance.md, "The queue apart from the log").
  PRIMARY KEY (delivery_id, brand_id)
) WITH (fillfactor = 50);
-- fillfactor 50: a claim sets only locked_until and locked_by, and a retry next_attempt_at among
-- others; with room on the page the lease is a heap-only update (migration 019 says why).

-- One brand's due deliveries in due order (the claim within a brand, the next retry's time, "has
-- the brand any left?", an endpoint's deliveries when it is deleted). The predicate is always true
-- (the column is NOT NULL): it is there so that only a statement that names next_attempt_at can
-- use this index, never one by key (see the primary key).
CREATE INDEX webhook_queue_due ON webhook_queue (brand_id, next_attempt_at) WHERE next_attempt_at IS NOT NULL;
-- "Is an earlier delivery of this object to this endpoint still queued?" (fan-out, claim, and
-- the release of the next one when one finishes). Only rows with an object are in it, and only a
-- statement that names order_key can use it.
CREATE INDEX webhook_queue_order ON webhook_queue (brand_id, endpoint_id, order_key, order_seq) INCLUDE (behind_earlier, event_created_at)
  WHERE order_key IS NOT NULL;

-- Pending deliveries move into the queue as they are, leases included. A worker of the previous
-- version still running when this applies can no longer claim or record anything (the columns it
-- names are gone, so its statements fail whole): it sends nothing twice, and a delivery it held
-- is sent again by a new worker once its lease ends (at least once, as after a killed worker).
-- Processes of the previous version that record events fail the same way until replaced (their
-- transaction, event included, rolls back): README ("Running in production") says to stop them first.
-- Locked first, so that no outcome commits between the copy and the columns' removal (its
-- delivery would be copied as pending and sent again).
LOCK TABLE webhook_deliveries IN ACCESS EXCLUSIVE MODE;
INSERT INTO webhook_queue (brand_id, delivery_id, endpoint_id, event_id, event_created_at, delivery_created_at, next_attempt_at, locked_until, locked_by,
  order_key, order_seq, behind_earlier, attempts, last_attempt_at, response_code)
SELECT d.brand_id, d.id, d.endpoint_id, d.event_id, e.created_at, d.created_at, coalesce(d.next_attempt_at, clock_timestamp()), d.locked_until, d.locked_by,
  CASE WHEN d.delivered_at IS NULL THEN d.order_key END, d.order_seq, d.behind_earlier, d.attempts, d.last_attempt_at, d.response_code
FROM webhook_deliveries d JOIN events e ON e.brand_id = d.brand_id AND e.id = d.event_id
WHERE d.status = 'pending';

-- The log keeps the columns the API shows and its list filters' indexes; the queue's columns and
-- indexes go (dropping a column drops its indexes: webhook_deliveries_due, webhook_deliveries_order).
ALTER TABLE webhook_deliveries
  DROP COLUMN next_attempt_at, DROP COLUMN locked_until, DROP COLUMN locked_by,
  DROP COLUMN order_key, DROP COLUMN order_seq, DROP COLUMN behind_earlier;
-- Written once and updated at most once, the log no longer needs room for updates on its pages:
-- fillfactor 100 on each day's partition (a partitioned table takes no storage parameters; the
-- setting applies to pages written from now on), and on the days made from now on, which
-- ensure_log_partitions (migration 037) made with fillfactor 50 for the claim's heap-only update.
-- It is replaced here rather than edited in 037, so a database that has run 037 gets it too.
DO $$
DECLARE
  part regclass;
BEGIN
  IF (SELECT relkind FROM pg_class WHERE oid = 'webhook_deliveries'::regclass) = 'r' THEN
    ALTER TABLE webhook_deliveries SET (fillfactor = 100);
  ELSE
    FOR part IN SELECT inhrelid::regclass FROM pg_inherits WHERE inhparent = 'webhook_deliveries'::regclass LOOP
      EXECUTE format('ALTER TABLE %s SET (fillfactor = 100)', part);
    END LOOP;
  END IF;
END $$;

-- As in migration 037 (its comment says what and why), without the log's fillfactor 50.
CREATE OR REPLACE FUNCTION ensure_log_partitions(first_day date, last_day date) RETURNS integer
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
        EXECUTE format('CREATE TABLE %I PARTITION OF %I %s FOR VALUES FROM (%L) TO (%L)',
          parent || '_p' || to_char(day, 'YYYYMMDD'), parent,
          CASE WHEN parent = 'webhook_attempts' THEN '' ELSE '(PRIMARY KEY (brand_id, id))' END,
          to_char(day, 'YYYY-MM-DD') || ' 00:00:00+00', to_char(day + 1, 'YYYY-MM-DD') || ' 00:00:00+00');
        made := made + 1;
      END IF;
    END LOOP;
  END LOOP;
  RETURN made;
END
$$;
