import type { Queryable } from '../db/client.ts';
import { afterCursor, type PageRequest } from '../db/paging.ts';
import type { Mode } from '../auth/principal.ts';
import { bumpVersionSql } from '../object-version.ts';

export interface AffiliateRow {
  brand_id: string;
  id: string;
  mode: Mode;
  name: string;
  email: string;
  code: string;
  commission_bps: number;
  /** Product (or hub) id -> basis points, where it differs from commission_bps. */
  product_bps: Record<string, number>;
  recurring: boolean;
  status: 'active' | 'archived';
  created_at: Date;
  version: number;
  updated_at: Date;
}

export type NewAffiliate = Omit<AffiliateRow, 'status' | 'created_at' | 'version' | 'updated_at'>;

export async function insertAffiliate(db: Queryable, a: NewAffiliate): Promise<AffiliateRow> {
  const [row] = await db.query<AffiliateRow>(
    `INSERT INTO affiliates (brand_id, id, mode, name, email, code, commission_bps, product_bps, recurring)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::text::jsonb, $9) RETURNING *`,
    [a.brand_id, a.id, a.mode, a.name, a.email, a.code, a.commission_bps, JSON.stringify(a.product_bps), a.recurring],
  );
  return row;
}

export async function findAffiliate(db: Queryable, brandId: string, mode: Mode, id: string, options: { forUpdate?: boolean } = {}) {
  const [row] = await db.query<AffiliateRow>(
    `SELECT * FROM affiliates WHERE brand_id = $1 AND mode = $2 AND id = $3${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [brandId, mode, id],
  );
  return row;
}

/** The active affiliate with this code (case-insensitive), as links name it. */
export async function findActiveByCode(db: Queryable, brandId: string, mode: Mode, code: string) {
  const [row] = await db.query<AffiliateRow>(
    `SELECT * FROM affiliates WHERE brand_id = $1 AND mode = $2 AND lower(code) = lower($3) AND status = 'active'`,
    [brandId, mode, code],
  );
  return row;
}

export function listAffiliates(db: Queryable, brandId: string, mode: Mode, page: PageRequest, filter: { status?: string } = {}) {
  const after = afterCursor(page, 5);
  return db.query<AffiliateRow>(
    `SELECT * FROM affiliates WHERE brand_id = $1 AND mode = $2 AND ($4::text IS NULL OR status = $4) ${after.sql}
     ORDER BY created_at DESC, id DESC LIMIT $3`,
    [brandId, mode, page.limit + 1, filter.status ?? null, ...after.params],
  );
}

export type AffiliateChange = Partial<Pick<AffiliateRow, 'name' | 'email' | 'code' | 'commission_bps' | 'product_bps' | 'recurring' | 'status'>>;

export async function updateAffiliate(db: Queryable, brandId: string, id: string, change: AffiliateChange) {
  const columns = (['name', 'email', 'code', 'commission_bps', 'product_bps', 'recurring', 'status'] as const).filter((c) => change[c] !== undefined);
  const sets = columns.map((c, i) => (c === 'product_bps' ? `${c} = $${i + 3}::text::jsonb` : `${c} = $${i + 3}`));
  const values = columns.map((c) => (c === 'product_bps' ? JSON.stringify(change[c]) : change[c]));
  const [row] = await db.query<AffiliateRow>(
    `UPDATE affiliates SET ${[...sets, bumpVersionSql].join(', ')} WHERE brand_id = $1 AND id = $2 RETURNING *`,
    [brandId, id, ...values],
  );
  return row;
}
