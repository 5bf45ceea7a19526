import type { Queryable } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { newId } from '../ids.ts';
import { hashKey, keyPrefix, newKeyString } from './format.ts';
import * as repo from './repository.ts';
import type { KeyCache } from './cache.ts';
import type { Mode, Scope } from '../auth/principal.ts';

export { hashKey } from './format.ts';

export interface CreatedKey {
  id: string;
  key: string;
  mode: Mode;
  scopes: Scope[];
  name: string | null;
}

export async function createKey(
  db: Queryable,
  input: { brandId: string; mode: Mode; scopes: Scope[]; name?: string | null },
): Promise<CreatedKey> {
  const key = newKeyString(input.mode);
  const row = await repo.insertKey(db, {
    brand_id: input.brandId,
    id: newId('key'),
    mode: input.mode,
    name: input.name ?? null,
    key_prefix: keyPrefix(key),
    key_hash: hashKey(key),
    scopes: input.scopes,
  });
  return { id: row.id, key, mode: row.mode, scopes: row.scopes, name: row.name };
}

/** What `key list` shows: never the key, only the first characters to recognise it by. */
export function renderKey(row: repo.KeyRow) {
  return {
    id: row.id,
    brandID: row.brand_id,
    name: row.name,
    mode: row.mode,
    scopes: row.scopes,
    prefix: row.key_prefix,
    createdAt: row.created_at.toISOString(),
    revokedAt: row.revoked_at ? row.revoked_at.toISOString() : null,
  };
}

export async function listKeys(db: Queryable, brandId: string) {
  return (await repo.listKeys(db, brandId)).map(renderKey);
}

export async function revokeKey(db: Queryable, cache: KeyCache | undefined, keyId: string) {
  const row = await repo.revokeKey(db, keyId);
  if (!row) throw new AppError('not_found', `No API key with id ${keyId} exists.`);
  cache?.forget(row.key_hash);
  return renderKey(row);
}
