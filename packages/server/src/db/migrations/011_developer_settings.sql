-- Developer settings (issue 12): rolled API keys, last-used times, rolled webhook secrets, and the
-- delivery log's and event list's filters. Tenant first like 001: every new index leads with brand_id.

-- A rolled key keeps working until expires_at (a grace period of up to 7 days); NULL never expires.
ALTER TABLE api_keys ADD COLUMN expires_at timestamptz;
-- The key's last four characters, shown beside the prefix (the key itself is never stored).
ALTER TABLE api_keys ADD COLUMN last_four text;
-- The key this one replaced, when it was made by a roll.
ALTER TABLE api_keys ADD COLUMN rolled_from text;
-- Written at most once a minute per key per API process (keys/last-used.ts), never per request.
ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz;
CREATE INDEX api_keys_newest ON api_keys (brand_id, created_at DESC, id DESC);

-- During a secret roll's overlap the previous secret signs too (webhook-signature carries both).
ALTER TABLE webhook_endpoints ADD COLUMN previous_secret_sealed text;
ALTER TABLE webhook_endpoints ADD COLUMN previous_secret_expires_at timestamptz;

-- What an event is about (events/payloads.ts resourceOf), for GET /events?resourceID=…; written
-- by recordEvent. Existing events get it from their data, by the same rule.
ALTER TABLE events ADD COLUMN resource_id text;
UPDATE events SET resource_id = CASE split_part(type, '.', 1)
    WHEN 'transaction' THEN data ->> 'txref'
    WHEN 'member' THEN data ->> 'membershipId'
    WHEN 'subscription' THEN data -> 'membership' ->> 'membershipId'
    ELSE data ->> 'id' END;
CREATE INDEX events_type ON events (brand_id, mode, type, created_at DESC, id DESC);
CREATE INDEX events_resource ON events (brand_id, mode, resource_id, created_at DESC, id DESC) WHERE resource_id IS NOT NULL;

-- The delivery log's filters, each served by an index in the list's order.
CREATE INDEX webhook_deliveries_status ON webhook_deliveries (brand_id, mode, status, created_at DESC, id DESC);
CREATE INDEX webhook_deliveries_type ON webhook_deliveries (brand_id, mode, event_type, created_at DESC, id DESC);
CREATE INDEX webhook_deliveries_resource ON webhook_deliveries (brand_id, mode, resource_id, created_at DESC, id DESC) WHERE resource_id IS NOT NULL;
