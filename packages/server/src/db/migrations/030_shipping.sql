-- Physical goods (issue 25, step 2, docs/shipping.md).

-- A physical product's shipping settings (POST/PATCH /products `shipping`): its delivery zones
-- and pickup points. Part of the catalog, shared by test and live mode like the product; one JSON
-- value because it is read and written whole and checked by shipping/settings.ts.
CREATE TABLE product_shipping (
  brand_id    text NOT NULL,
  product_id  text NOT NULL,
  settings    jsonb NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (brand_id, product_id),
  FOREIGN KEY (brand_id, product_id) REFERENCES products (brand_id, id) ON DELETE CASCADE
);

-- What a physical order chose at checkout (delivery to an address in a zone, with the zone's
-- price, or a pickup point), copied from its payment link, and where the order stands:
-- unfulfilled -> shipped, or unfulfilled -> ready_for_pickup -> picked_up. Null on orders
-- of anything else. `fulfilment` holds the carrier, tracking and the time of each step.
ALTER TABLE transactions ADD COLUMN shipping jsonb;
ALTER TABLE transactions ADD COLUMN fulfilment_status text
  CHECK (fulfilment_status IN ('unfulfilled', 'shipped', 'ready_for_pickup', 'picked_up'));
ALTER TABLE transactions ADD COLUMN fulfilment jsonb;

-- The fulfilment queue: paid orders waiting to be sent or handed over, oldest first.
CREATE INDEX transactions_fulfilment ON transactions (brand_id, mode, fulfilment_status, created_at, id)
  WHERE fulfilment_status IS NOT NULL;
