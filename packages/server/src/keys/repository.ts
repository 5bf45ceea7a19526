import type { Queryable } from '../db/client.ts';
import type { Mode, Scope } from '../auth/principal.ts';

export interface KeyRow {
  brand_id: string;
  id: string;
  mode: Mode;
  name: string | null;
  key_prefix: string;
  /** The key's last four characters, to tell keys with the same prefix apart; null for keys made before they were kept. */
  last_four: string | null;
  scopes: Scope[];
  created_at: Date;
  revoked_at: Date | null;
  /** A rolled key's end of grace; null never expires. */
  expires_at: Date | null;
  rolled_from: string | null;
  last_used_at: Date | null;
}

const columns = 'brand_id, id, mode, name, key_prefix, last_four, scopes, created_at, revoked_at, expires_at, rolled_from, last_used_at';

export async function insertKey(
  db: Queryable,
  row: Pick<KeyRow, 'brand_id' | 'id' | 'mode' | 'name' | 'key_prefix' | 'last_four' | 'scopes'> & { key_hash: string; rolled_from?: string | null },
): Promise<KeyRow> {
  const [inserted] = await db.query<KeyRow>(
    `INSERT INTO api_keys (brand_id, id, mode, name, key_prefix, last_four, key_hash, scopes, rolled_from)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${columns}`,
    [row.brand_id, row.id, row.mode, row.name, row.key_prefix, row.last_four, row.key_hash, row.scopes, row.rolled_from ?? null],
  );
  return inserted;
}

/**
 * The hot path of every authenticated request that misses the key cache: a revoked key, or a
 * rolled one past its grace, is not found.
 */
export async function findActiveKeyByHash(db: Queryable, keyHash: string): Promise<KeyRow | undefined> {
  const [row] = await db.query<KeyRow>(
    `SELECT ${columns} FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > clock_timestamp())`,
    [keyHash],
    'find_active_key_by_hash',
  );
  return row;
}

/** The brand's keys, newest first; `mode` narrows to one mode (the dashboard's toggle). */
export function listKeys(db: Queryable, brandId: string, mode?: Mode): Promise<KeyRow[]> {
  return db.query<KeyRow>(
    `SELECT ${columns} FROM api_keys WHERE brand_id = $1 AND ($2::text IS NULL OR mode = $2) ORDER BY created_at DESC, id DESC`,
    [brandId, mode ?? null],
  );
}

export async function findKey(db: Queryable, brandId: string, id: string): Promise<KeyRow | undefined> {
  const [row] = await db.query<KeyRow>(`SELECT ${columns} FROM api_keys WHERE brand_id = $1 AND id = $2`, [brandId, id]);
  return row;
}

/** Which brand and mode a key belongs to, by id alone (the CLI's `key revoke KEY_ID`). */
export async function findKeyOwner(db: Queryable, id: string): Promise<{ brand_id: string; mode: Mode } | undefined> {
  const [row] = await db.query<{ brand_id: string; mode: Mode }>('SELECT brand_id, mode FROM api_keys WHERE id = $1', [id]);
  return row;
}

/** Revokes the key and returns its hash so caches can forget it; a second revoke changes nothing. */
export async function revokeKey(db: Queryable, brandId: string, keyId: string): Promise<(KeyRow & { key_hash: string }) | undefined> {
  const [row] = await db.query<KeyRow & { key_hash: string }>(
    `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, date_trunc('milliseconds', clock_timestamp()))
     WHERE brand_id = $1 AND id = $2 RETURNING ${columns}, key_hash`,
    [brandId, keyId],
  );
  return row;
}

/**
 * Ends a rolled key's life `graceSeconds` from now (0: now). A key that already expires sooner
 * keeps its earlier end: rolling never lengthens a key's life. Locks the row, so two concurrent
 * rolls of one key are one after the other.
 */
export async function expireKey(db: Queryable, brandId: string, keyId: string, graceSeconds: number): Promise<(KeyRow & { key_hash: string }) | undefined> {
  const [row] = await db.query<KeyRow & { key_hash: string }>(
    `UPDATE api_keys SET expires_at = LEAST(expires_at, date_trunc('milliseconds', clock_timestamp()) + $3 * interval '1 second')
     WHERE brand_id = $1 AND id = $2 AND revoked_at IS NULL RETURNING ${columns}, key_hash`,
    [brandId, keyId, graceSeconds],
  );
  return row;
}

/**
 * Records when keys were last used, many in one statement (keys/last-used.ts flushes them). A
 * later time never goes backwards when processes flush out of order.
 */
export async function touchKeys(db: Queryable, uses: { brandId: string; id: string; at: Date }[]): Promise<void> {
  if (!uses.length) return;
  await db.query(
    `UPDATE api_keys k SET last_used_at = GREATEST(k.last_used_at, u.at)
     FROM unnest($1::text[], $2::text[], $3::timestamptz[]) AS u (brand_id, id, at)
     WHERE k.brand_id = u.brand_id AND k.id = u.id`,
    [uses.map((u) => u.brandId), uses.map((u) => u.id), uses.map((u) => u.at.toISOString())],
    'touch_api_keys',
  );
}
