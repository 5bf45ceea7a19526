import type { Queryable } from '../db/client.ts';
import { pageRequest, toPage } from '../db/paging.ts';
import { notFound } from '../errors.ts';
import type { Principal } from '../auth/principal.ts';
import { renderProduct, renderProductSummary } from './render.ts';
import * as repo from './repository.ts';

export async function listProducts(db: Queryable, principal: Principal, query: { limit?: number; cursor?: string }) {
  const page = pageRequest('products', query);
  const rows = await repo.listProducts(db, principal.brandId, page);
  return toPage('products', page, rows, renderProductSummary);
}

export async function getProduct(db: Queryable, principal: Principal, id: string) {
  const row = await repo.findProduct(db, principal.brandId, id);
  if (!row) throw notFound('product');
  const [tiers, items, fields] = await Promise.all([
    repo.productTiers(db, row.brand_id, row.id),
    repo.productItems(db, row.brand_id, row.id),
    repo.productCheckoutFields(db, row.brand_id, row.id),
  ]);
  return renderProduct(row, tiers, items, fields);
}

/** A product of the principal's brand, or not_found: another brand's product is answered like an unknown one. */
export async function requireProduct(db: Queryable, principal: Principal, id: string) {
  const row = await repo.findProduct(db, principal.brandId, id);
  if (!row) throw notFound('product');
  return row;
}
