-- "Was this tier ever sold?" (catalog/apply.ts soldTiers, run when a tier list leaves a tier out)
-- read every membership, subscription, import and payment link of the brand: at a million members
-- that is a million rows read to save one tier (docs/performance.md, bench/results/scaling.md).
-- With these, each tier is one index probe that stops at the first row found.
CREATE INDEX memberships_plan ON memberships (brand_id, plan) WHERE plan IS NOT NULL;
CREATE INDEX subscriptions_tier ON subscriptions (brand_id, tier_id);
-- Also serves the foreign key imports (brand_id, plan) -> tiers when a tier is deleted.
CREATE INDEX imports_plan ON imports (brand_id, plan);
-- A link's tiers are inside its purchases array; jsonb_path_ops answers `purchases @> '[{"tierId": …}]'`.
-- GIN cannot lead with brand_id; the probe still names the brand, and a tier id is unique anyway.
CREATE INDEX payment_links_tiers ON payment_links USING gin (purchases jsonb_path_ops);
