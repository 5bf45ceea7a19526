-- Foundation: brands, API keys, the catalog (hubs, products, tiers, items, checkout fields),
-- memberships, transactions and the event outbox.
-- Every tenant table leads with brand_id (DESIGN.md, Data): in its primary key, its unique
-- constraints and its indexes. created_at is kept to the millisecond, the precision the API
-- renders and the list cursor carries.

CREATE TABLE brands (
  id          text PRIMARY KEY,
  name        text NOT NULL,
  plan        text NOT NULL CHECK (plan IN ('free', 'plus')),
  created_at  timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp())
);

-- Looked up by hash before the brand is known, so the hash alone is unique; with Citus this
-- table would be a reference table.
CREATE TABLE api_keys (
  brand_id     text NOT NULL REFERENCES brands (id),
  id           text NOT NULL,
  mode         text NOT NULL CHECK (mode IN ('test', 'live')),
  name         text,
  key_prefix   text NOT NULL,
  key_hash     text NOT NULL UNIQUE,
  scopes       text[] NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  revoked_at   timestamptz,
  PRIMARY KEY (brand_id, id)
);
CREATE UNIQUE INDEX api_keys_id ON api_keys (id);

CREATE TABLE hubs (
  brand_id     text NOT NULL REFERENCES brands (id),
  id           text NOT NULL,
  name         text NOT NULL,
  description  text,
  created_at   timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (brand_id, id)
);

CREATE TABLE products (
  brand_id          text NOT NULL REFERENCES brands (id),
  id                text NOT NULL,
  hub_id            text,
  type              text NOT NULL,
  status            text NOT NULL,
  title             text NOT NULL,
  description       text,
  image_url         text,
  url               text,
  visibility        text NOT NULL,
  is_free           boolean NOT NULL,
  keywords          text[] NOT NULL DEFAULT '{}',
  event_type        text,
  event_venue       text,
  event_date_time   timestamptz,
  event_end_date    timestamptz,
  created_at        timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  updated_at        timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (brand_id, id),
  FOREIGN KEY (brand_id, hub_id) REFERENCES hubs (brand_id, id)
);
CREATE INDEX products_newest ON products (brand_id, created_at DESC, id DESC);

-- A tier is one way to buy a product (product_id set) or one plan of a hub (hub_id set, product_id null).
CREATE TABLE tiers (
  brand_id             text NOT NULL,
  id                   text NOT NULL,
  product_id           text,
  hub_id               text,
  position             integer NOT NULL,
  name                 text NOT NULL,
  type                 text NOT NULL,
  price_amount         bigint NOT NULL CHECK (price_amount >= 0),
  currency             text NOT NULL,
  discount_amount      bigint CHECK (discount_amount >= 0),
  recurrence_periodic  text CHECK (recurrence_periodic IN ('daily', 'weekly', 'monthly', 'yearly')),
  recurrence_interval  integer,
  recurrence_count     integer,
  perks                text[] NOT NULL DEFAULT '{}',
  button_text          text,
  time_bound           timestamptz,
  slots                integer,
  no_of_tickets        integer NOT NULL DEFAULT 1,
  item_ids             text[] NOT NULL DEFAULT '{}',
  is_default           boolean NOT NULL DEFAULT false,
  archived             boolean NOT NULL DEFAULT false,
  status               text NOT NULL DEFAULT 'active',
  PRIMARY KEY (brand_id, id),
  CHECK ((product_id IS NULL) <> (hub_id IS NULL)),
  FOREIGN KEY (brand_id, product_id) REFERENCES products (brand_id, id),
  FOREIGN KEY (brand_id, hub_id) REFERENCES hubs (brand_id, id)
);
CREATE INDEX tiers_product ON tiers (brand_id, product_id, position);
CREATE INDEX tiers_hub ON tiers (brand_id, hub_id, position);

CREATE TABLE items (
  brand_id      text NOT NULL,
  id            text NOT NULL,
  product_id    text NOT NULL,
  position      integer NOT NULL,
  type          text NOT NULL,
  title         text NOT NULL,
  description   text,
  image         text,
  duration      integer,
  is_addon      boolean NOT NULL DEFAULT false,
  parent_id     text,
  price_amount  bigint CHECK (price_amount >= 0),
  currency      text,
  PRIMARY KEY (brand_id, id),
  FOREIGN KEY (brand_id, product_id) REFERENCES products (brand_id, id)
);
CREATE INDEX items_product ON items (brand_id, product_id, position);

CREATE TABLE checkout_fields (
  brand_id    text NOT NULL,
  product_id  text NOT NULL,
  id          text NOT NULL,
  position    integer NOT NULL,
  label       text NOT NULL,
  type        text NOT NULL CHECK (type IN ('text', 'email', 'phone', 'number', 'select', 'checkbox', 'date')),
  required    boolean NOT NULL DEFAULT false,
  options     text[],
  PRIMARY KEY (brand_id, product_id, id),
  FOREIGN KEY (brand_id, product_id) REFERENCES products (brand_id, id)
);

-- A person's access to a hub (hub_id set) or to a product (product_id set). One person (by
-- email, case-insensitive) holds at most one membership of a given hub or product per mode.
CREATE TABLE memberships (
  brand_id     text NOT NULL,
  id           text NOT NULL,
  mode         text NOT NULL CHECK (mode IN ('test', 'live')),
  hub_id       text,
  product_id   text,
  name         text NOT NULL,
  email        text NOT NULL,
  phone        text,
  fields       jsonb NOT NULL DEFAULT '{}',
  status       text NOT NULL CHECK (status IN ('active', 'expired', 'removed', 'cancelled')),
  plan         text,
  joined_at    timestamptz NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (brand_id, id),
  CHECK ((product_id IS NULL) <> (hub_id IS NULL)),
  FOREIGN KEY (brand_id, hub_id) REFERENCES hubs (brand_id, id),
  FOREIGN KEY (brand_id, product_id) REFERENCES products (brand_id, id)
);
CREATE UNIQUE INDEX memberships_hub_person ON memberships (brand_id, mode, hub_id, lower(email)) WHERE hub_id IS NOT NULL;
CREATE UNIQUE INDEX memberships_product_person ON memberships (brand_id, mode, product_id, lower(email)) WHERE product_id IS NOT NULL;
CREATE INDEX memberships_hub_newest ON memberships (brand_id, mode, hub_id, created_at DESC, id DESC) WHERE hub_id IS NOT NULL;
CREATE INDEX memberships_product_newest ON memberships (brand_id, mode, product_id, created_at DESC, id DESC) WHERE product_id IS NOT NULL;

CREATE TABLE transactions (
  brand_id        text NOT NULL,
  id              text NOT NULL,
  txref           text NOT NULL,
  mode            text NOT NULL CHECK (mode IN ('test', 'live')),
  type            text NOT NULL,
  status          text NOT NULL,
  amount          bigint NOT NULL CHECK (amount >= 0),
  currency        text NOT NULL,
  customer_name   text NOT NULL,
  customer_email  text NOT NULL,
  resource_id     text,
  metadata        jsonb NOT NULL DEFAULT '{}',
  created_at      timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  updated_at      timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (brand_id, id),
  UNIQUE (brand_id, txref)
);
CREATE INDEX transactions_newest ON transactions (brand_id, mode, created_at DESC, id DESC);

-- The outbox: an event row commits in the same transaction as the change it describes.
CREATE TABLE events (
  brand_id    text NOT NULL,
  id          text NOT NULL,
  mode        text NOT NULL CHECK (mode IN ('test', 'live')),
  type        text NOT NULL,
  data        jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (brand_id, id)
);
CREATE INDEX events_newest ON events (brand_id, mode, created_at DESC, id DESC);
