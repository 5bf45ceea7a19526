-- The buyer portal's "Update card" and marketing mail (issue 23; docs/portal.md, docs/email.md).

-- Cards a buyer saved in the sandbox without paying (the portal's card form): a subscription's
-- payment_method then names one of these (sbx_pm_…) instead of the payment its card was first
-- charged with. The sandbox keeps them as it keeps its payments, so any process sees them.
CREATE TABLE sandbox_methods (
  brand_id    text NOT NULL REFERENCES brands (id),
  reference   text NOT NULL,
  card        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (brand_id, reference)
);
