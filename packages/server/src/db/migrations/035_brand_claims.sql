-- Per-brand claims (issue 28 item 3, docs/performance.md "Per-brand claims").
--
-- The worker used to claim "the oldest due deliveries of any brand" by walking
-- webhook_deliveries_queue (next_attempt_at): one statement about every brand at once, which a
-- cluster distributed by brand_id (Citus) cannot route to one shard. Now the worker first takes a
-- few brands that have due work from this small table, then claims within each brand with
-- statements that name it, walking webhook_deliveries_due (brand_id, next_attempt_at).
--
-- A row says "this brand may have deliveries due from due_at on". Rows are only ever inserted
-- (by the transaction that makes work due: a fan-out, a retry, a released order, a claim given
-- back or leased) and deleted (by the claim statement of that brand, in the snapshot that claims
-- the work), never updated: an update would lock the row, and every transaction of a busy brand
-- recording an event would wait for the one before it to commit. A brand with ten event
-- transactions since its last claim has ten rows; its next claim deletes them all.
-- brand_id has no foreign key, as in webhook_deliveries: it is a hint, and a row about a brand
-- with nothing due costs one claim statement that takes nothing.
CREATE TABLE webhook_due_brands (
  brand_id  text NOT NULL,
  due_at    timestamptz NOT NULL,
  PRIMARY KEY (brand_id, due_at)
);
-- The pick: the oldest due rows of any brand. On Citus this table stays on the coordinator
-- (a local table): it is the one statement about every brand, and it reads no tenant table.
CREATE INDEX webhook_due_brands_due ON webhook_due_brands (due_at);

-- What is due already, and (for deliveries a worker of the previous version holds right now)
-- the end of their leases, in case that worker dies before recording them.
INSERT INTO webhook_due_brands (brand_id, due_at)
SELECT brand_id, min(next_attempt_at) FROM webhook_deliveries
WHERE status = 'pending' AND next_attempt_at IS NOT NULL
GROUP BY brand_id
UNION
SELECT brand_id, max(locked_until) FROM webhook_deliveries
WHERE status = 'pending' AND locked_until > now()
GROUP BY brand_id;

-- One brand's due deliveries in due order (the claim within a brand). This replaces the
-- cross-brand queue index of migration 018, so the delivery log keeps the same number of indexes.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (brand_id, next_attempt_at) WHERE status = 'pending';
DROP INDEX webhook_deliveries_queue;
