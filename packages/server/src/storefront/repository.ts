import type { Queryable } from '../db/client.ts';
import type { HubRow } from '../hubs/repository.ts';
import type { ProductRow, TierRow } from '../products/repository.ts';

/** What the public pages read: only what a buyer may see (published, public or unlisted, tiers on sale). */

const productColumns = `brand_id, id, hub_id, type, status, title, description, image_url, url, visibility, is_free,
  keywords, event_type, event_venue, event_date_time, event_end_date, created_at, updated_at`;

/** The storefront's products: published and public (unlisted ones are reached by their address only), newest first. */
export function listedProducts(db: Queryable, brandId: string, limit = 200): Promise<ProductRow[]> {
  return db.query<ProductRow>(
    `SELECT ${productColumns} FROM products WHERE brand_id = $1 AND status = 'published' AND visibility = 'public'
     ORDER BY created_at DESC, id DESC LIMIT $2`, [brandId, limit]);
}

/** A product a buyer may open: published and not private. */
export async function visibleProduct(db: Queryable, brandId: string, id: string): Promise<ProductRow | undefined> {
  const [row] = await db.query<ProductRow>(
    `SELECT ${productColumns} FROM products WHERE brand_id = $1 AND id = $2 AND status = 'published' AND visibility IN ('public', 'unlisted')`,
    [brandId, id]);
  return row;
}

/** Tiers on sale (active, not archived) of these products or hubs, in catalog order. */
export function tiersOnSale(db: Queryable, brandId: string, ownerIds: string[]): Promise<TierRow[]> {
  return db.query<TierRow>(
    `SELECT * FROM tiers WHERE brand_id = $1 AND (product_id = ANY($2::text[]) OR hub_id = ANY($2::text[]))
       AND status = 'active' AND NOT archived ORDER BY position`, [brandId, ownerIds]);
}

export function allHubs(db: Queryable, brandId: string, limit = 50): Promise<HubRow[]> {
  return db.query<HubRow>('SELECT * FROM hubs WHERE brand_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2', [brandId, limit]);
}
