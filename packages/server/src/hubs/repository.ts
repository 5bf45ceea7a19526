import type { Queryable } from '../db/client.ts';
import { notFound } from '../errors.ts';
import type { TierRow } from '../products/repository.ts';

export interface HubRow {
  brand_id: string;
  id: string;
  name: string;
  description: string | null;
  created_at: Date;
}

/** The hub of this brand, or not_found: another brand's hub is answered like an unknown one. */
export async function requireHub(db: Queryable, brandId: string, hubId: string): Promise<HubRow> {
  const [row] = await db.query<HubRow>('SELECT * FROM hubs WHERE brand_id = $1 AND id = $2', [brandId, hubId]);
  if (!row) throw notFound('hub');
  return row;
}

/** A hub's membership tiers (its plans), in catalog order. */
export function hubTiers(db: Queryable, brandId: string, hubId: string): Promise<TierRow[]> {
  return db.query<TierRow>('SELECT * FROM tiers WHERE brand_id = $1 AND hub_id = $2 ORDER BY position', [brandId, hubId]);
}
