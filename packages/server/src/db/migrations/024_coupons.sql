-- Coupons (issue 22, docs/coupons.md): codes a buyer types at checkout for a discount, and the
-- redemptions that count against their caps.

-- A coupon of one brand in one mode (a test key's coupons are not a live key's). `code` is kept
-- as typed; the unique index on lower(code) among active coupons is the case-insensitive rule,
-- enforced by the database so two requests racing to create SUMMER cannot both win. An archived
-- coupon frees its code for a new one and is kept for the redemptions that name it.
CREATE TABLE coupons (
  brand_id              text NOT NULL REFERENCES brands (id),
  id                    text NOT NULL,
  mode                  text NOT NULL CHECK (mode IN ('test', 'live')),
  code                  text NOT NULL,
  name                  text,
  -- Exactly one of: a percentage, or an amount off per currency ({"USD": 500}, minor units).
  percent_off           numeric(5, 2) CHECK (percent_off > 0 AND percent_off <= 100),
  amounts_off           jsonb,
  -- Empty lists: the coupon applies to every line. Otherwise only to these products, tiers, hubs.
  product_ids           text[] NOT NULL DEFAULT '{}',
  tier_ids              text[] NOT NULL DEFAULT '{}',
  hub_ids               text[] NOT NULL DEFAULT '{}',
  starts_at             timestamptz,
  ends_at               timestamptz,
  max_redemptions       integer CHECK (max_redemptions > 0),
  max_per_customer      integer CHECK (max_per_customer > 0),
  -- The least an order may come to, before the discount, per currency (minor units).
  minimum_amounts       jsonb NOT NULL DEFAULT '{}',
  -- On recurring tiers: the first payment only, `periods` payments in all, or every payment.
  duration              text NOT NULL CHECK (duration IN ('once', 'repeating', 'forever')),
  duration_periods      integer CHECK (duration_periods > 0),
  status                text NOT NULL CHECK (status IN ('active', 'archived')),
  -- Redemptions pending or paid: taken by one conditional UPDATE when a payment starts, given
  -- back when it fails or is fully refunded (coupons/redemptions.ts). Never above the cap.
  held                  integer NOT NULL DEFAULT 0 CHECK (held >= 0),
  created_at            timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  updated_at            timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (brand_id, id),
  CHECK ((percent_off IS NULL) <> (amounts_off IS NULL)),
  CHECK ((duration = 'repeating') = (duration_periods IS NOT NULL))
);
CREATE UNIQUE INDEX coupons_active_code ON coupons (brand_id, mode, lower(code)) WHERE status = 'active';
CREATE INDEX coupons_newest ON coupons (brand_id, mode, created_at DESC, id DESC);

-- One use of a coupon by one payment: `held` from the moment the payment starts (it counts while
-- pending and once paid; the transaction's status says which), `released` when the payment failed
-- or was fully refunded. The per-customer cap counts held rows by normalised email, under the
-- lock the coupon row's UPDATE takes (coupons/redemptions.ts).
CREATE TABLE coupon_redemptions (
  brand_id        text NOT NULL REFERENCES brands (id),
  coupon_id       text NOT NULL,
  -- The payment's txref: the use is taken before its transaction row is written (checkout/stock.ts).
  txref           text NOT NULL,
  email           text NOT NULL,
  discount        bigint NOT NULL CHECK (discount >= 0),
  currency        text NOT NULL,
  status          text NOT NULL CHECK (status IN ('held', 'released')),
  created_at      timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (brand_id, txref)
);
CREATE INDEX coupon_redemptions_coupon ON coupon_redemptions (brand_id, coupon_id, created_at DESC);
CREATE INDEX coupon_redemptions_customer ON coupon_redemptions (brand_id, coupon_id, email) WHERE status <> 'released';

-- A checkout link's preset coupon (its code): the web checkout's coupon field starts with it.
ALTER TABLE checkout_links ADD COLUMN coupon text;

-- What a payment's coupon took off (minor units), shown on the transaction (additive fields).
ALTER TABLE transactions ADD COLUMN coupon_code text, ADD COLUMN discount bigint;

-- A subscription bought with a coupon: what each discounted payment takes off, and how many
-- payments in all are discounted (null: every one).
ALTER TABLE subscriptions ADD COLUMN discount_amount bigint, ADD COLUMN discount_periods integer;
