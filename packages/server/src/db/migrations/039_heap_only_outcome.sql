-- The outcome's update of a delivery's log row becomes heap-only (issue 28 item 4,
-- docs/performance.md "The outcome, heap-only").
--
-- Since migration 038 the log row is written at fan-out and updated once, with its outcome. That
-- update changed `status`, which webhook_deliveries_status indexed, so it was never heap-only:
-- each outcome wrote a new row version elsewhere and an entry in all seven of the log's indexes,
-- more than half of the database's work per delivery (measured with pg_stat_statements and
-- auto_explain: 24 of 45 ms of the outcome statements sampled). Now no index holds a column that
-- a successful outcome changes (status, attempts, response_code, last_attempt_at, delivered_at),
-- and the pages keep room for the new version, so PostgreSQL writes it beside the old one and
-- touches no index.
--
-- What the status index served, the list's status filter (GET /webhooks/deliveries?status=…),
-- is now served without it (webhooks/repository.ts):
--   failed:    the partial index below. Its predicate names failure_reason, which a failed
--              delivery always has and no other has (webhooks/delivery.ts); a successful outcome
--              leaves it NULL as it was, so the index does not stop its update being heap-only.
--   pending:   the queue, which holds every pending delivery (migration 038).
--   succeeded: the newest-first index, the rows' status checked as they are read (most are).
DROP INDEX webhook_deliveries_status;

-- A failed delivery recorded before failure reasons existed (migration 011) would be left out of
-- the failed list; none should be, and this makes sure.
UPDATE webhook_deliveries SET failure_reason = 'attempts_exhausted' WHERE status = 'failed' AND failure_reason IS NULL;

CREATE INDEX webhook_deliveries_failed ON webhook_deliveries (brand_id, mode, created_at DESC, id DESC) WHERE failure_reason IS NOT NULL;

-- Room on each page for the outcome's new row version: fillfactor 75 on the days to come (today's
-- and later ones already made get it for the pages they fill from now on). A page's versions
-- that an outcome replaced are pruned when the page is next read, so a page need not hold two
-- versions of all its rows at once; bench/webhooks.ts (BENCH_HOT=1) prints the share of updates
-- that were heap-only.
DO $$
DECLARE
  part regclass;
BEGIN
  IF (SELECT relkind FROM pg_class WHERE oid = 'webhook_deliveries'::regclass) = 'r' THEN
    ALTER TABLE webhook_deliveries SET (fillfactor = 75);
  ELSE
    FOR part IN
      SELECT i.inhrelid::regclass FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'webhook_deliveries'::regclass AND c.relname >= 'webhook_deliveries_p' || to_char(now() AT TIME ZONE 'UTC', 'YYYYMMDD')
    LOOP
      EXECUTE format('ALTER TABLE %s SET (fillfactor = 75)', part);
    END LOOP;
  END IF;
END $$;

-- As in migration 038 (037's comment says what and why), with the log's days made at fillfactor 75.
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
        EXECUTE format('CREATE TABLE %I PARTITION OF %I %s FOR VALUES FROM (%L) TO (%L) %s',
          parent || '_p' || to_char(day, 'YYYYMMDD'), parent,
          CASE WHEN parent = 'webhook_attempts' THEN '' ELSE '(PRIMARY KEY (brand_id, id))' END,
          to_char(day, 'YYYY-MM-DD') || ' 00:00:00+00', to_char(day + 1, 'YYYY-MM-DD') || ' 00:00:00+00',
          CASE WHEN parent = 'webhook_deliveries' THEN 'WITH (fillfactor = 75)' ELSE '' END);
        made := made + 1;
      END IF;
    END LOOP;
  END LOOP;
  RETURN made;
END
$$;

-- "Is an earlier delivery of this object to this endpoint still queued?" (fan-out, claim, the
-- release of the next one) was sometimes answered by the primary key instead of this index. With
-- the queue analyzed while empty, every index costs alike but for its height, and the primary key
-- (delivery_id, brand_id) can serve `brand_id = …` by reading all of itself: once it was the
-- shorter tree, an import's fan-out read the whole queue once per event (8–10 s a batch of 1,000
-- at a 30,000 backlog; webhooks/backlog.test.ts). This index now holds brand_id under the "C"
-- collation and those statements compare it so (`brand_id COLLATE "C" = …`), which no other
-- index can serve. For text, equality is the same under every deterministic collation.
DROP INDEX webhook_queue_order;
CREATE INDEX webhook_queue_order ON webhook_queue (brand_id COLLATE "C", endpoint_id, order_key, order_seq) INCLUDE (behind_earlier, event_created_at)
  WHERE order_key IS NOT NULL;
