-- Order you can rely on (docs/webhooks.md, "Order and versions").

-- Every object an event is about carries a version: a counter its repository increments in the
-- statement that changes it, and the time of that change (ms). Rows from before count from 1.
ALTER TABLE memberships ADD COLUMN version integer NOT NULL DEFAULT 1, ADD COLUMN updated_at timestamptz;
UPDATE memberships SET updated_at = created_at;
ALTER TABLE memberships ALTER COLUMN updated_at SET NOT NULL,
  ALTER COLUMN updated_at SET DEFAULT date_trunc('milliseconds', clock_timestamp());
ALTER TABLE transactions ADD COLUMN version integer NOT NULL DEFAULT 1;
ALTER TABLE subscriptions ADD COLUMN version integer NOT NULL DEFAULT 1;
-- A payout never changes once settled; it has a version like the others so receivers need no exception.
ALTER TABLE payouts ADD COLUMN version integer NOT NULL DEFAULT 1, ADD COLUMN updated_at timestamptz;
UPDATE payouts SET updated_at = created_at;
ALTER TABLE payouts ALTER COLUMN updated_at SET NOT NULL,
  ALTER COLUMN updated_at SET DEFAULT date_trunc('milliseconds', clock_timestamp());

-- The order events were recorded in. Events of one transaction share a millisecond of created_at,
-- so created_at alone cannot order them; seq is taken at insert, so it follows the order of the
-- recordEvent calls within a transaction (and, for one object, across transactions, since the
-- change that records an event holds the object's row lock until it commits).
ALTER TABLE events ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
CREATE INDEX events_newest_seq ON events (brand_id, mode, created_at DESC, seq DESC);
DROP INDEX events_newest;

-- Deliveries of one object's events to one endpoint go out in event order: order_key names the
-- object (events/payloads.ts, orderKeyOf), order_seq is its event's seq. A NULL key
-- (data that names no object) is never held back. behind_earlier: when the delivery was created,
-- an earlier one of its object to its endpoint was still undelivered; only those are checked by
-- the claim, so the common case (nothing before it) costs the claim nothing.
ALTER TABLE webhook_deliveries ADD COLUMN order_key text, ADD COLUMN order_seq bigint,
  ADD COLUMN behind_earlier boolean NOT NULL DEFAULT false;
UPDATE webhook_deliveries d SET order_key = d.resource_type || ':' || d.resource_id, order_seq = e.seq, behind_earlier = true
FROM events e
WHERE d.status = 'pending' AND d.resource_id IS NOT NULL AND e.brand_id = d.brand_id AND e.id = d.event_id;
-- "Is an earlier delivery of this object to this endpoint still undelivered?" (fan-out, claim).
-- The predicate is spelled `status <> 'succeeded' AND status <> 'failed'` (pending, by the CHECK)
-- on purpose, and so are the probes: then no other partial index on pending rows matches them,
-- and the planner cannot pick webhook_deliveries_due (one brand's whole backlog per probe) when
-- its statistics lag a burst of new rows.
CREATE INDEX webhook_deliveries_order ON webhook_deliveries (brand_id, endpoint_id, order_key, order_seq)
  WHERE status <> 'succeeded' AND status <> 'failed' AND delivered_at IS NULL;
