import type { Queryable } from '../db/client.ts';
import type { ShippingSettings } from './schemas.ts';

/** The SQL of product_shipping (migration 030). Orders' shipping and fulfilment live on transactions (transactions/repository.ts). */

export async function findShipping(db: Queryable, brandId: string, productId: string): Promise<ShippingSettings | undefined> {
  const [row] = await db.query<{ settings: ShippingSettings }>('SELECT settings FROM product_shipping WHERE brand_id = $1 AND product_id = $2', [brandId, productId]);
  return row?.settings;
}

export async function saveShipping(db: Queryable, brandId: string, productId: string, settings: ShippingSettings): Promise<void> {
  await db.query(
    `INSERT INTO product_shipping (brand_id, product_id, settings) VALUES ($1, $2, $3::text::jsonb)
     ON CONFLICT (brand_id, product_id) DO UPDATE SET settings = EXCLUDED.settings, updated_at = date_trunc('milliseconds', clock_timestamp())`,
    [brandId, productId, JSON.stringify(settings)],
  );
}

export async function deleteShipping(db: Queryable, brandId: string, productId: string): Promise<void> {
  await db.query('DELETE FROM product_shipping WHERE brand_id = $1 AND product_id = $2', [brandId, productId]);
}
