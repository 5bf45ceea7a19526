import type { Queryable } from '../db/client.ts';
import { afterCursor, type PageRequest } from '../db/paging.ts';
import { notFound } from '../errors.ts';

export interface HubRow {
  brand_id: string;
  id: string;
  name: string;
  description: string | null;
  created_at: Date;
  updated_at: Date;
}

const hubColumns = 'brand_id, id, name, description, created_at, updated_at';

export async function findHub(db: Queryable, brandId: string, hubId: string): Promise<HubRow | undefined> {
  const [row] = await db.query<HubRow>(`SELECT ${hubColumns} FROM hubs WHERE brand_id = $1 AND id = $2`, [brandId, hubId]);
  return row;
}

/** The hub of this brand, or not_found: another brand's hub is answered like an unknown one. */
export async function requireHub(db: Queryable, brandId: string, hubId: string): Promise<HubRow> {
  const row = await findHub(db, brandId, hubId);
  if (!row) throw notFound('hub');
  return row;
}

/** The hub, locked until the caller's transaction ends, so two edits of it run one after the other. */
export async function lockHub(db: Queryable, brandId: string, hubId: string): Promise<HubRow | undefined> {
  const [row] = await db.query<HubRow>(`SELECT ${hubColumns} FROM hubs WHERE brand_id = $1 AND id = $2 FOR UPDATE`, [brandId, hubId]);
  return row;
}

/** One page of a brand's hubs, newest first; fetches limit + 1 rows to tell whether more exist. */
export function listHubs(db: Queryable, brandId: string, page: PageRequest): Promise<HubRow[]> {
  const after = afterCursor(page, 3);
  return db.query<HubRow>(
    `SELECT ${hubColumns} FROM hubs
     WHERE brand_id = $1 ${after.sql}
     ORDER BY created_at DESC, id DESC
     LIMIT $2`,
    [brandId, page.limit + 1, ...after.params],
  );
}

export async function insertHub(db: Queryable, h: Omit<HubRow, 'updated_at'>): Promise<void> {
  await db.query(
    'INSERT INTO hubs (brand_id, id, name, description, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)',
    [h.brand_id, h.id, h.name, h.description, h.created_at],
  );
}

export async function updateHub(db: Queryable, h: Pick<HubRow, 'brand_id' | 'id' | 'name' | 'description'>): Promise<void> {
  await db.query(
    `UPDATE hubs SET name = $3, description = $4, updated_at = date_trunc('milliseconds', clock_timestamp())
     WHERE brand_id = $1 AND id = $2`,
    [h.brand_id, h.id, h.name, h.description],
  );
}
