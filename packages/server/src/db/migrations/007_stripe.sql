-- Live payments with Stripe (README, Live payments with Stripe; docs/subscriptions.md).
-- Stripe delivers each event at least once and in no promised order. Every event we act on is
-- recorded here in the same transaction as its effect, so a second delivery of it changes
-- nothing; settlement is also conditional on the transaction still being pending, which covers
-- different events (checkout.session.completed, payment_intent.succeeded, invoice.paid) that
-- describe the same payment. Not tenant-keyed: an event names its brand only in our metadata.
CREATE TABLE provider_events (
  provider     text NOT NULL,
  event_id     text NOT NULL,
  type         text NOT NULL,
  brand_id     text,
  received_at  timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (provider, event_id)
);
-- Purged with events (EVENT_RETENTION, 30 days at least): Stripe stops redelivering after 3 days.
CREATE INDEX provider_events_received ON provider_events (received_at);

-- Stripe-billed subscriptions are found by the Stripe subscription id kept in payment_method.
CREATE INDEX subscriptions_provider_method ON subscriptions (brand_id, provider, payment_method) WHERE payment_method IS NOT NULL;
