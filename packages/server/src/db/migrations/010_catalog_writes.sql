-- Catalog writes through the API (POST/PATCH /products, POST/PATCH /hubs, GET /hubs): what they
-- need beyond 001. Tenant first, as everywhere.

-- A brand's catalog version: bumped in the same transaction as every catalog write
-- (catalog/version.ts catalogChanged, which also NOTIFYs the brand id), so a process that caches
-- catalog reads can tell exactly when to drop a brand's entries.
CREATE TABLE catalog_versions (
  brand_id  text PRIMARY KEY REFERENCES brands (id),
  version   bigint NOT NULL DEFAULT 0
);

-- An item removed from a product that something still points at (a tier that was sold, an
-- archived tier, a child item) is archived instead of deleted, as tiers are.
ALTER TABLE items ADD COLUMN archived boolean NOT NULL DEFAULT false;

-- Hubs are now edited; GET /hubs lists them newest first with keyset paging.
ALTER TABLE hubs ADD COLUMN updated_at timestamptz;
UPDATE hubs SET updated_at = created_at;
ALTER TABLE hubs ALTER COLUMN updated_at SET NOT NULL,
  ALTER COLUMN updated_at SET DEFAULT date_trunc('milliseconds', clock_timestamp());
CREATE INDEX hubs_newest ON hubs (brand_id, created_at DESC, id DESC);
