-- The worker's queue in due order across brands (issue 14 item 2). The claim takes the oldest due
-- deliveries of every brand; with webhook_deliveries_due (brand_id, next_attempt_at) no index
-- gives that order, so every claim read and sorted the whole backlog (80 ms a claim at 10,000
-- pending). Walking this index the claim stops after the rows it takes. It is the one index that
-- does not lead with brand_id (DESIGN.md, Data): the queue is the one query that is about every
-- brand at once; distributed by brand, each shard walks its own part and a claim merges them.
CREATE INDEX webhook_deliveries_queue ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
DROP INDEX webhook_deliveries_due;
