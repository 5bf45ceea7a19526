-- Refunds (docs/refunds.md): money given back on a succeeded transaction, in full or in parts,
-- through the provider that took it; and what payouts deduct for them.

-- One refund of a transaction. A row is written `pending` and committed before the provider is
-- asked (so a refund exists before any money moves, and its id is the provider's idempotency
-- key: asking again never pays twice), then moved once to `succeeded` or `failed`. Pending and
-- succeeded rows reserve their amount: the refunds of a transaction never exceed what it paid.
CREATE TABLE refunds (
  brand_id            text NOT NULL REFERENCES brands (id),
  id                  text NOT NULL,
  mode                text NOT NULL CHECK (mode IN ('test', 'live')),
  transaction_id      text NOT NULL,
  amount              bigint NOT NULL CHECK (amount > 0),
  currency            text NOT NULL,
  reason              text,
  status              text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  -- Whether this refund ends the access the transaction bought (decided when it was asked for).
  revoke_access       boolean NOT NULL,
  provider            text NOT NULL,
  provider_reference  text,
  failure_message     text,
  -- The payout that deducted it (succeeded refunds only), as transactions.payout_id.
  payout_id           text,
  created_at          timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  updated_at          timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (brand_id, id)
);
CREATE INDEX refunds_transaction ON refunds (brand_id, transaction_id, created_at);
CREATE INDEX refunds_unsettled ON refunds (brand_id, mode, currency) WHERE status = 'succeeded' AND payout_id IS NULL;

-- The transaction's refunds as the API shows them (refundedAmount, refunds[]), kept in the same
-- statement as every change of its refund rows, so every rendering of a transaction (events,
-- verify, lists) carries them without another query. A fully refunded transaction's status
-- becomes `refunded`.
ALTER TABLE transactions
  ADD COLUMN refunded_amount bigint NOT NULL DEFAULT 0,
  ADD COLUMN refunds jsonb NOT NULL DEFAULT '[]';

-- A refunded transaction not yet paid out is still settled (its fee kept, its refund deducted).
CREATE INDEX transactions_unsettled_any ON transactions (brand_id, mode, currency)
  WHERE status IN ('succeeded', 'refunded') AND payout_id IS NULL AND amount > 0;

-- What a payout deducted for refunds (minor units) and how many.
ALTER TABLE payouts
  ADD COLUMN refunded bigint NOT NULL DEFAULT 0,
  ADD COLUMN refund_count integer NOT NULL DEFAULT 0;

-- The sandbox's own refunds, keyed by the caller's idempotency key (our refund id): a second
-- request with the same key answers the first refund and moves no money.
ALTER TABLE sandbox_payments ADD COLUMN refunded_amount bigint NOT NULL DEFAULT 0;
CREATE TABLE sandbox_refunds (
  brand_id         text NOT NULL REFERENCES brands (id),
  idempotency_key  text NOT NULL,
  reference        text NOT NULL,
  payment          text NOT NULL,
  amount           bigint NOT NULL CHECK (amount > 0),
  created_at       timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (brand_id, idempotency_key)
);
