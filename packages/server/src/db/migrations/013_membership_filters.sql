-- The status filter of the hub-member and product-customer lists (memberships/schemas.ts,
-- MembershipListQuery): newest first within one status, so a page of `status=removed` members
-- of a big hub reads only that status's rows. The product index also serves the customer list's
-- default (active only). The email filter needs no index of its own: it matches exactly, which
-- the unique (brand, mode, hub or product, lower(email)) indexes already serve.
CREATE INDEX memberships_hub_status_newest ON memberships (brand_id, mode, hub_id, status, created_at DESC, id DESC)
  WHERE hub_id IS NOT NULL;
CREATE INDEX memberships_product_status_newest ON memberships (brand_id, mode, product_id, status, created_at DESC, id DESC)
  WHERE product_id IS NOT NULL;
