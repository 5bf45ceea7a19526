import type { Queryable } from '../db/client.ts';
import { notFound } from '../errors.ts';

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

export async function insertHub(db: Queryable, h: HubRow): Promise<void> {
  await db.query('INSERT INTO hubs (brand_id, id, name, description, created_at) VALUES ($1, $2, $3, $4, $5)', [h.brand_id, h.id, h.name, h.description, h.created_at]);
}
