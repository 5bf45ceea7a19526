-- Affiliates (docs/affiliates.md): people a brand pays a commission on the sales they bring, and
-- the commission each attributed payment earns them.

-- An affiliate of a brand, in one mode (a test key's affiliates earn on test sales only). The code
-- is what a payment link's items[].affiliate and a checkout link's ?ref= name; case-insensitive,
-- unique among the brand's active affiliates of the mode. Never deleted: archived ones keep their
-- commissions and attribute nothing new.
CREATE TABLE affiliates (
  brand_id        text NOT NULL REFERENCES brands (id),
  id              text NOT NULL,
  mode            text NOT NULL CHECK (mode IN ('test', 'live')),
  name            text NOT NULL,
  email           text NOT NULL,
  code            text NOT NULL,
  -- Percent in basis points (12.5% = 1250), and per product id where it differs.
  commission_bps  integer NOT NULL CHECK (commission_bps BETWEEN 0 AND 10000),
  product_bps     jsonb NOT NULL DEFAULT '{}',
  -- Whether renewals of a subscription the affiliate brought earn commission too.
  recurring       boolean NOT NULL DEFAULT false,
  status          text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived')),
  created_at      timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  version         integer NOT NULL DEFAULT 1,
  updated_at      timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (brand_id, id)
);
CREATE UNIQUE INDEX affiliates_code ON affiliates (brand_id, mode, lower(code)) WHERE status = 'active';
CREATE INDEX affiliates_list ON affiliates (brand_id, mode, created_at DESC, id DESC);

-- One attributed payment's commission. Written when the payment succeeds, with the rate then in
-- force and the (mode) time it was paid; its amount is the rate of the payment's net (amount less
-- fee less what refunds made within the hold gave back) and is fixed by the payout that deducts it,
-- the first run after the hold (AFFILIATE_HOLD) ends.
CREATE TABLE affiliate_commissions (
  brand_id        text NOT NULL REFERENCES brands (id),
  id              text NOT NULL,
  mode            text NOT NULL CHECK (mode IN ('test', 'live')),
  affiliate_id    text NOT NULL,
  transaction_id  text NOT NULL,
  currency        text NOT NULL,
  rate_bps        integer NOT NULL CHECK (rate_bps BETWEEN 0 AND 10000),
  paid_at         timestamptz NOT NULL,
  -- Refunds of the payment as they succeeded, in mode time ([{"amount", "at"}]): those within the
  -- hold reduce the commission.
  refunds         jsonb NOT NULL DEFAULT '[]',
  -- Set together by the payout run that deducts it (minor units).
  amount          bigint,
  payout_id       text,
  created_at      timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (brand_id, id),
  UNIQUE (brand_id, transaction_id)
);
CREATE INDEX affiliate_commissions_affiliate ON affiliate_commissions (brand_id, affiliate_id, paid_at);
CREATE INDEX affiliate_commissions_unsettled ON affiliate_commissions (brand_id, mode, paid_at) WHERE payout_id IS NULL;

-- The affiliate a payment is attributed to, as the API shows it ({"id", "code"}): its link's
-- items[].affiliate or ?ref=; a renewal: the affiliate of the purchase that started the
-- subscription, when that affiliate earns on renewals.
ALTER TABLE transactions ADD COLUMN affiliate jsonb;

-- A dispute (chargeback) of the payment, as the provider reports it (docs/refunds.md, Disputes):
-- {"id", "status", "amount", "reason", "createdAt", "closedAt"}; null when it was never disputed.
ALTER TABLE transactions ADD COLUMN dispute jsonb;

-- A payout's lines (GET /payouts/{id}): what it settled, deducted and charged, found by payout.
CREATE INDEX transactions_payout ON transactions (brand_id, payout_id) WHERE payout_id IS NOT NULL;
CREATE INDEX refunds_payout ON refunds (brand_id, payout_id) WHERE payout_id IS NOT NULL;
CREATE INDEX affiliate_commissions_payout ON affiliate_commissions (brand_id, payout_id) WHERE payout_id IS NOT NULL;

-- What a payout deducted for affiliate commissions (minor units) and how many.
ALTER TABLE payouts
  ADD COLUMN affiliate_commission bigint NOT NULL DEFAULT 0,
  ADD COLUMN commission_count integer NOT NULL DEFAULT 0;
