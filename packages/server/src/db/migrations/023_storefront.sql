-- Storefront and reusable checkout links (issue 24, docs/storefront.md and docs/checkout.md).

-- The brand profile (GET/PATCH /brand): what the public pages show. All optional; a brand
-- without a slug is reached by its id (/s/brand_…). Slugs are stored lower-case, so the unique
-- index is the case-insensitive rule.
ALTER TABLE brands
  ADD COLUMN slug             text,
  ADD COLUMN display_name     text,
  ADD COLUMN logo_url         text,
  ADD COLUMN accent_color     text,
  ADD COLUMN support_email    text,
  ADD COLUMN time_zone        text,
  ADD COLUMN default_currency text;
CREATE UNIQUE INDEX brands_slug ON brands (slug) WHERE slug IS NOT NULL;

-- A reusable checkout link (POST /checkout-links): names tiers, is paid by any number of buyers.
-- Each buyer's form makes an ordinary payment link (payment_links.checkout_link_id points back).
-- sales_held counts payments that are pending or paid: a payment takes one when it starts and a
-- failed one gives it back, so max_sales can never be exceeded by payments racing each other.
CREATE TABLE checkout_links (
  brand_id      text NOT NULL REFERENCES brands (id),
  id            text NOT NULL,
  mode          text NOT NULL CHECK (mode IN ('test', 'live')),
  name          text,
  items         jsonb NOT NULL,
  status        text NOT NULL CHECK (status IN ('active', 'disabled')),
  expires_at    timestamptz,
  max_sales     integer CHECK (max_sales > 0),
  sales_held    integer NOT NULL DEFAULT 0 CHECK (sales_held >= 0),
  redirect_url  text,
  via           text,
  app_id        text,
  created_at    timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  updated_at    timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (brand_id, id)
);
CREATE INDEX checkout_links_newest ON checkout_links (brand_id, mode, created_at DESC, id DESC);
ALTER TABLE payment_links ADD COLUMN checkout_link_id text;

-- A tier's `slots` as stock, per mode (test purchases never use up live stock): `held` is what
-- pending and paid payments hold. Taken by one conditional upsert when a payment starts
-- (checkout/stock.ts), given back when it fails.
CREATE TABLE tier_stock (
  brand_id  text NOT NULL REFERENCES brands (id),
  mode      text NOT NULL CHECK (mode IN ('test', 'live')),
  tier_id   text NOT NULL,
  held      integer NOT NULL DEFAULT 0 CHECK (held >= 0),
  PRIMARY KEY (brand_id, mode, tier_id)
);

-- What a payment holds (so a failure gives back exactly that, whatever the catalog says by then),
-- and where the buyer came from (utm_*, gclid/fbclid from the checkout page's address).
ALTER TABLE transactions ADD COLUMN stock_held jsonb, ADD COLUMN attribution jsonb;

-- The buyer's marketing consent from the checkout form's opt-in (unticked unless they tick it).
ALTER TABLE memberships ADD COLUMN receive_emails boolean;
-- A checkout link's buyers' payment links (its sales count and the dashboard's list).
CREATE INDEX payment_links_checkout_link ON payment_links (brand_id, checkout_link_id) WHERE checkout_link_id IS NOT NULL;

-- Card-testing defence (checkout/attempts.ts): failed payment attempts and refused checkout forms,
-- by keyed hash of the client address, the buyer's email or the card number. Service-wide, not
-- per brand: a card tester tries one card, or one address, against many brands.
CREATE TABLE checkout_failures (
  kind      text NOT NULL CHECK (kind IN ('address', 'email', 'card')),
  key_hash  text NOT NULL,
  at        timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX checkout_failures_key ON checkout_failures (kind, key_hash, at);
