-- Recurring memberships (subscriptions), payouts and test clocks (docs/subscriptions.md,
-- docs/payouts.md). Tenant first, as everywhere: brand_id leads every key and index.

-- A brand's test-mode clock: test-mode time = database time + offset_ms. Live mode has no row
-- and never moves. busy_until is set while POST /test-clock/advance runs the brand's due jobs
-- itself, so the background worker leaves that brand's test-mode jobs to it (time order).
CREATE TABLE test_clocks (
  brand_id    text PRIMARY KEY REFERENCES brands (id),
  offset_ms   bigint NOT NULL DEFAULT 0 CHECK (offset_ms >= 0),
  busy_until  timestamptz,
  updated_at  timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp())
);

-- The recurring side of a membership bought on a recurring tier. `due_at` is when the worker
-- must next look at it (a renewal, a retry, or the end of access); null once it has ended.
CREATE TABLE subscriptions (
  brand_id                text NOT NULL REFERENCES brands (id),
  id                      text NOT NULL,
  mode                    text NOT NULL CHECK (mode IN ('test', 'live')),
  membership_id           text NOT NULL,
  tier_id                 text NOT NULL,
  amount                  bigint NOT NULL CHECK (amount >= 0),
  currency                text NOT NULL,
  periodic                text NOT NULL CHECK (periodic IN ('daily', 'weekly', 'monthly', 'yearly')),
  period_interval         integer NOT NULL CHECK (period_interval >= 1),
  period_count            integer NOT NULL CHECK (period_count >= 0),
  status                  text NOT NULL CHECK (status IN ('active', 'past_due', 'cancelled', 'expired', 'completed')),
  started_at              timestamptz NOT NULL,
  current_period_start    timestamptz NOT NULL,
  current_period_end      timestamptz NOT NULL,
  periods_paid            integer NOT NULL CHECK (periods_paid >= 0),
  cancel_at_period_end    boolean NOT NULL DEFAULT false,
  next_billing_at         timestamptz,
  failed_attempts         integer NOT NULL DEFAULT 0,
  due_at                  timestamptz,
  pending_transaction_id  text,
  customer_name           text NOT NULL,
  customer_email          text NOT NULL,
  metadata                jsonb NOT NULL DEFAULT '{}',
  -- The provider that keeps the buyer's card, and its reference to it (never a card number).
  provider                text,
  payment_method          text,
  ended_at                timestamptz,
  created_at              timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  updated_at              timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (brand_id, id)
);
CREATE INDEX subscriptions_due ON subscriptions (brand_id, due_at) WHERE due_at IS NOT NULL;
CREATE INDEX subscriptions_pending ON subscriptions (brand_id, pending_transaction_id) WHERE pending_transaction_id IS NOT NULL;

-- Every membership a subscription pays for (a product's customer and, with hubID, its hub member).
ALTER TABLE memberships ADD COLUMN subscription_id text;

-- Payouts: a succeeded paid transaction is settled into exactly one payout (payout_id), with the
-- platform fee charged on it.
ALTER TABLE transactions ADD COLUMN payout_id text, ADD COLUMN fee bigint;
CREATE INDEX transactions_unsettled ON transactions (brand_id, mode, currency)
  WHERE status = 'succeeded' AND payout_id IS NULL AND amount > 0;

CREATE TABLE payouts (
  brand_id           text NOT NULL REFERENCES brands (id),
  id                 text NOT NULL,
  mode               text NOT NULL CHECK (mode IN ('test', 'live')),
  currency           text NOT NULL,
  amount             bigint NOT NULL,
  fee                bigint NOT NULL,
  transaction_count  integer NOT NULL,
  period_start       timestamptz NOT NULL,
  period_end         timestamptz NOT NULL,
  settled_at         timestamptz NOT NULL,
  created_at         timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (brand_id, id)
);
CREATE INDEX payouts_newest ON payouts (brand_id, mode, created_at DESC, id DESC);

-- A brand's balance in a mode that is waiting to be settled: the row exists while something may
-- be unsettled, from period_start (in that mode's time); the worker settles it at the first
-- PAYOUT_SCHEDULE boundary after period_start, and removes the row once nothing is left to pay.
CREATE TABLE payout_schedules (
  brand_id      text NOT NULL REFERENCES brands (id),
  mode          text NOT NULL CHECK (mode IN ('test', 'live')),
  period_start  timestamptz NOT NULL,
  PRIMARY KEY (brand_id, mode)
);

-- The sandbox keeps the test card a payment was made with, so it can charge it again for a
-- renewal (as a real provider keeps a card on file). Only sandbox test cards ever get here.
ALTER TABLE sandbox_payments ADD COLUMN card text;
