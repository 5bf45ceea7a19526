import type { Queryable } from '../db/client.ts';
import type { Mode, Scope } from '../auth/principal.ts';

export interface KeyRow {
  brand_id: string;
  id: string;
  mode: Mode;
  name: string | null;
  key_prefix: string;
  scopes: Scope[];
  created_at: Date;
  revoked_at: Date | null;
}

const columns = 'brand_id, id, mode, name, key_prefix, scopes, created_at, revoked_at';

export async function insertKey(db: Queryable, row: Omit<KeyRow, 'created_at' | 'revoked_at'> & { key_hash: string }): Promise<KeyRow> {
  const [inserted] = await db.query<KeyRow>(
    `INSERT INTO api_keys (brand_id, id, mode, name, key_prefix, key_hash, scopes)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${columns}`,
    [row.brand_id, row.id, row.mode, row.name, row.key_prefix, row.key_hash, row.scopes],
  );
  return inserted;
}

/** The hot path of every authenticated request that misses the key cache. */
export async function findActiveKeyByHash(db: Queryable, keyHash: string): Promise<KeyRow | undefined> {
  const [row] = await db.query<KeyRow>(
    `SELECT ${columns} FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL`,
    [keyHash],
    'find_active_key_by_hash',
  );
  return row;
}

export function listKeys(db: Queryable, brandId: string): Promise<KeyRow[]> {
  return db.query<KeyRow>(`SELECT ${columns} FROM api_keys WHERE brand_id = $1 ORDER BY created_at DESC, id DESC`, [brandId]);
}

/** Revokes the key and returns its hash so caches can forget it; a second revoke changes nothing. */
export async function revokeKey(db: Queryable, keyId: string): Promise<(KeyRow & { key_hash: string }) | undefined> {
  const [row] = await db.query<KeyRow & { key_hash: string }>(
    `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, date_trunc('milliseconds', clock_timestamp()))
     WHERE id = $1 RETURNING ${columns}, key_hash`,
    [keyId],
  );
  return row;
}
