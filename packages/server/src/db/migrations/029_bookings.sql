-- Bookable products (issue 25, docs/bookings.md).

-- A bookable product's availability (POST/PATCH /products `availability`). Part of the catalog,
-- so shared by test and live mode like the product itself; the settings are one JSON value
-- because they are read and written whole and checked by bookings/availability.ts.
CREATE TABLE booking_availability (
  brand_id    text NOT NULL,
  product_id  text NOT NULL,
  settings    jsonb NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (brand_id, product_id),
  FOREIGN KEY (brand_id, product_id) REFERENCES products (brand_id, id) ON DELETE CASCADE
);

-- One row per product and mode, locked (FOR UPDATE) by whoever takes or moves a place in that
-- product's calendar: holds and reschedules of one product queue on it, so each sees the places
-- the previous one left and a slot is never double-booked, however many API processes race.
CREATE TABLE booking_calendars (
  brand_id    text NOT NULL,
  mode        text NOT NULL CHECK (mode IN ('test', 'live')),
  product_id  text NOT NULL,
  PRIMARY KEY (brand_id, mode, product_id)
);

-- A place in a session. `held` while its payment link is being paid (until hold_expires_at, in
-- the mode's time), `released` when that payment failed; `confirmed` once paid, `rescheduled`
-- once moved (still on), `cancelled`. Only confirmed, rescheduled and unexpired held rows take
-- places. GET /bookings shows the paid ones (confirmed, rescheduled, cancelled).
CREATE TABLE bookings (
  brand_id           text NOT NULL REFERENCES brands (id),
  id                 text NOT NULL,
  mode               text NOT NULL CHECK (mode IN ('test', 'live')),
  product_id         text NOT NULL,
  tier_id            text NOT NULL,
  payment_link_id    text NOT NULL,
  transaction_id     text,
  status             text NOT NULL CHECK (status IN ('held', 'released', 'confirmed', 'rescheduled', 'cancelled')),
  places             integer NOT NULL CHECK (places > 0),
  starts_at          timestamptz NOT NULL,
  ends_at            timestamptz NOT NULL,
  timezone           text NOT NULL,
  buyer_name         text NOT NULL,
  buyer_email        text NOT NULL,
  hold_expires_at    timestamptz,
  previous_starts_at timestamptz,
  cancelled_at       timestamptz,
  cancel_reason      text,
  created_at         timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  updated_at         timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (brand_id, id)
);
CREATE UNIQUE INDEX bookings_link ON bookings (brand_id, payment_link_id);
CREATE INDEX bookings_calendar ON bookings (brand_id, mode, product_id, starts_at) WHERE status IN ('held', 'confirmed', 'rescheduled');
CREATE INDEX bookings_newest ON bookings (brand_id, mode, created_at DESC, id DESC) WHERE status <> 'held' AND status <> 'released';
