-- Checkout: payment links, the sandbox provider's own state, and what a transaction needs to
-- know about the payment behind it. Tenant first, as everywhere: brand_id leads every key and index.

-- A prepared checkout for one buyer (POST /payment-links). The hosted page's URL carries the
-- brand id and this row's id (random, 120 bits), so the page is found by its primary key.
-- `open` until a payment succeeds, then `completed`: a link is paid at most once.
CREATE TABLE payment_links (
  brand_id        text NOT NULL REFERENCES brands (id),
  id              text NOT NULL,
  mode            text NOT NULL CHECK (mode IN ('test', 'live')),
  status          text NOT NULL CHECK (status IN ('open', 'completed')),
  -- What is bought: the priced line items (minor units), frozen when the link is made so a
  -- later catalog change does not alter a link the buyer already holds.
  resource_id     text NOT NULL,
  purchases       jsonb NOT NULL,
  line_items      jsonb NOT NULL,
  amount          bigint NOT NULL CHECK (amount >= 0),
  currency        text NOT NULL,
  buyer_name      text NOT NULL,
  buyer_email     text NOT NULL,
  buyer_phone     text,
  form_data       jsonb NOT NULL DEFAULT '{}',
  guests          jsonb NOT NULL DEFAULT '[]',
  redirect_url    text,
  metadata        jsonb NOT NULL DEFAULT '{}',
  -- The body's remaining fields (affiliate, utm, booking, address…), kept as sent.
  extras          jsonb NOT NULL DEFAULT '{}',
  transaction_id  text,
  created_at      timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  updated_at      timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (brand_id, id)
);
CREATE INDEX payment_links_newest ON payment_links (brand_id, mode, created_at DESC, id DESC);

-- Transactions made by checkout point back at their link and at the provider's payment.
ALTER TABLE transactions
  ADD COLUMN payment_link_id     text,
  ADD COLUMN provider            text,
  ADD COLUMN provider_reference  text,
  ADD COLUMN failure_code        text,
  ADD COLUMN failure_message     text;
-- At most one attempt of a link is pending at a time: a second submission joins it instead of
-- charging again.
CREATE UNIQUE INDEX transactions_link_pending ON transactions (brand_id, payment_link_id)
  WHERE payment_link_id IS NOT NULL AND status = 'pending';
CREATE INDEX transactions_link ON transactions (brand_id, payment_link_id) WHERE payment_link_id IS NOT NULL;

-- The built-in sandbox provider keeps its payments here, so a payment confirmed by one process
-- is seen by POST /payments/verify in another, and after a restart.
CREATE TABLE sandbox_payments (
  brand_id      text NOT NULL REFERENCES brands (id),
  reference     text NOT NULL,
  amount        bigint NOT NULL CHECK (amount >= 0),
  currency      text NOT NULL,
  description   text NOT NULL,
  status        text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'refunded')),
  card_last4    text,
  failure_code  text,
  created_at    timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  updated_at    timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (brand_id, reference)
);
