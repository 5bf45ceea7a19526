import type { Queryable } from '../db/client.ts';
import { pageRequest, toPage } from '../db/paging.ts';
import { notFound } from '../errors.ts';
import type { Principal } from '../auth/principal.ts';
import { renderProduct, renderProductSummary } from './render.ts';
import * as repo from './repository.ts';
import { findProfile } from '../brands/repository.ts';
import { storefrontPath } from '../brands/profile.ts';
import { productAvailabilityOf } from '../bookings/product-settings.ts';
import { productShippingOf } from '../shipping/settings.ts';

/** Where the brand's product pages live, for products without their own url (brands/profile.ts). */
async function pageBase(db: Queryable, brandId: string, publicUrl: string | undefined): Promise<string | undefined> {
  if (publicUrl === undefined) return undefined;
  const brand = await findProfile(db, brandId);
  return brand ? `${publicUrl}${storefrontPath(brand)}/p/` : undefined;
}

export async function listProducts(db: Queryable, principal: Principal, query: { limit?: number; cursor?: string }, publicUrl?: string) {
  const page = pageRequest('products', query);
  const [rows, base] = await Promise.all([repo.listProducts(db, principal.brandId, page), pageBase(db, principal.brandId, publicUrl)]);
  return toPage('products', page, rows, (row) => renderProductSummary(row, base));
}

export async function getProduct(db: Queryable, principal: Principal, id: string, publicUrl?: string) {
  const row = await repo.findProduct(db, principal.brandId, id);
  if (!row) throw notFound('product');
  const [tiers, items, fields, base, availability, shipping] = await Promise.all([
    repo.productTiers(db, row.brand_id, row.id),
    repo.productItems(db, row.brand_id, row.id),
    repo.productCheckoutFields(db, row.brand_id, row.id),
    pageBase(db, row.brand_id, publicUrl),
    productAvailabilityOf(db, row.brand_id, row.id),
    productShippingOf(db, row.brand_id, row.id),
  ]);
  return { ...renderProduct(row, tiers, items, fields, base), ...(availability ? { availability } : {}), ...(shipping ? { shipping } : {}) };
}

/** A product of the principal's brand, or not_found: another brand's product is answered like an unknown one. */
export async function requireProduct(db: Queryable, principal: Principal, id: string) {
  const row = await repo.findProduct(db, principal.brandId, id);
  if (!row) throw notFound('product');
  return row;
}
