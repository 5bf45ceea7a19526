-- Per-brand request budgets (README, Rate limits): requests per second per key, in place of the
-- server-wide RATE_LIMIT_LIVE / RATE_LIMIT_TEST. NULL means the server's default.
ALTER TABLE brands ADD COLUMN rate_limit_live integer CHECK (rate_limit_live > 0);
ALTER TABLE brands ADD COLUMN rate_limit_test integer CHECK (rate_limit_test > 0);
