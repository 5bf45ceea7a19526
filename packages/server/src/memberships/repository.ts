import type { Queryable } from '../db/client.ts';
import { afterCursor, type PageRequest } from '../db/paging.ts';
import type { Mode } from '../keys/scopes.ts';

export interface MembershipRow {
  brand_id: string;
  id: string;
  mode: Mode;
  hub_id: string | null;
  product_id: string | null;
  name: string;
  email: string;
  phone: string | null;
  fields: Record<string, unknown>;
  status: 'active' | 'expired' | 'removed' | 'cancelled';
  plan: string | null;
  joined_at: Date;
  created_at: Date;
}

export type NewMembership = Pick<MembershipRow, 'brand_id' | 'id' | 'mode' | 'hub_id' | 'product_id' | 'name' | 'email' | 'plan'> &
  Partial<Pick<MembershipRow, 'phone' | 'fields' | 'status' | 'joined_at'>>;

/**
 * Inserts a membership unless this person (email, case-insensitive) already holds one of the
 * same hub or product in the same mode. Returns the new row, or undefined when it already existed.
 */
export async function insertMembership(db: Queryable, m: NewMembership): Promise<MembershipRow | undefined> {
  const [row] = await db.query<MembershipRow>(
    `INSERT INTO memberships (brand_id, id, mode, hub_id, product_id, name, email, phone, fields, status, plan, joined_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, COALESCE($12, date_trunc('milliseconds', clock_timestamp())))
     ON CONFLICT DO NOTHING
     RETURNING *`,
    [m.brand_id, m.id, m.mode, m.hub_id, m.product_id, m.name, m.email, m.phone ?? null, m.fields ?? {}, m.status ?? 'active', m.plan, m.joined_at ?? null],
  );
  return row;
}

export function listHubMembers(db: Queryable, brandId: string, mode: Mode, hubId: string, page: PageRequest) {
  const after = afterCursor(page, 5);
  return db.query<MembershipRow>(
    `SELECT * FROM memberships
     WHERE brand_id = $1 AND mode = $2 AND hub_id = $3 ${after.sql}
     ORDER BY created_at DESC, id DESC
     LIMIT $4`,
    [brandId, mode, hubId, page.limit + 1, ...after.params],
  );
}

export async function findHubMember(db: Queryable, brandId: string, mode: Mode, hubId: string, id: string) {
  const [row] = await db.query<MembershipRow>(
    'SELECT * FROM memberships WHERE brand_id = $1 AND mode = $2 AND hub_id = $3 AND id = $4',
    [brandId, mode, hubId, id],
  );
  return row;
}

export function listProductCustomers(db: Queryable, brandId: string, mode: Mode, productId: string, page: PageRequest) {
  const after = afterCursor(page, 5);
  return db.query<MembershipRow>(
    `SELECT * FROM memberships
     WHERE brand_id = $1 AND mode = $2 AND product_id = $3 AND status = 'active' ${after.sql}
     ORDER BY created_at DESC, id DESC
     LIMIT $4`,
    [brandId, mode, productId, page.limit + 1, ...after.params],
  );
}
