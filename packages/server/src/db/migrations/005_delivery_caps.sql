-- Per-endpoint and per-brand caps on deliveries in flight (docs/webhooks.md, "One slow receiver
-- delays only itself"): the claim looks at each endpoint's due deliveries in turn.
CREATE INDEX webhook_deliveries_endpoint_due ON webhook_deliveries (brand_id, endpoint_id, next_attempt_at) WHERE status = 'pending';
-- What is in flight right now (the claim counts it per endpoint and brand): a range scan on
-- locked_until instead of every pending row.
CREATE INDEX webhook_deliveries_in_flight ON webhook_deliveries (locked_until) WHERE status = 'pending' AND locked_until IS NOT NULL;
