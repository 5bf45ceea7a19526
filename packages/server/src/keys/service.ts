import type { Queryable } from '../db/client.ts';
import { AppError, invalid, invalidAll, notFound, type ErrorDetail } from '../errors.ts';
import { newId } from '../ids.ts';
import { hashKey, keyPrefix, newKeyString } from './format.ts';
import * as repo from './repository.ts';
import type { KeyCache } from './cache.ts';
import { isScope, scopes as allScopes, type Mode, type Principal, type Scope } from '../auth/principal.ts';
import { maxGraceSeconds, type ApiKey, type CreatedApiKey } from './schemas.ts';

export { hashKey } from './format.ts';

/**
 * API keys, managed by the brand (dashboard session, admin CLI) in the principal's mode. The key
 * itself exists only in the answer that makes it; rows keep its hash, prefix and last four.
 *
 * Revoking and rolling forget the key in this process's cache at once; every other process
 * asks the database again within KEY_CACHE_MS (at most one second).
 */

export interface KeyDeps {
  keyCache?: KeyCache;
}

export function renderApiKey(row: repo.KeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    mode: row.mode,
    scopes: row.scopes,
    prefix: row.key_prefix,
    lastFour: row.last_four,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at ? row.last_used_at.toISOString() : null,
    expiresAt: row.expires_at ? row.expires_at.toISOString() : null,
    revokedAt: row.revoked_at ? row.revoked_at.toISOString() : null,
  };
}

/** What `key list` shows (the CLI's shape since the start, plus the new fields): never the key. */
export function renderKey(row: repo.KeyRow) {
  const { id, ...rest } = renderApiKey(row);
  return { id, brandID: row.brand_id, ...rest };
}

/** At least one known scope, each once; the message names the first bad value. */
function checkScopes(scopes: string[]): Scope[] {
  if (!scopes.length) throw invalid('scopes', `must list at least one scope (${allScopes.join(', ')})`);
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  scopes.forEach((s, index) => {
    if (!isScope(s)) details.push({ field: `scopes[${index}]`, message: `"${s}" is not a scope; known scopes: ${allScopes.join(', ')}` });
    else if (seen.has(s)) details.push({ field: `scopes[${index}]`, message: `"${s}" is listed twice` });
    seen.add(s);
  });
  if (details.length) throw invalidAll(details);
  return scopes as Scope[];
}

/**
 * Nobody hands out more than they hold: a developer member (webhooks:write only) could otherwise
 * mint, or roll an owner's key into, a key that reads customers, past what the role may see; and
 * nobody revokes a key holding more than they do.
 */
function checkGrantable(principal: Principal, scopes: Scope[], field: string) {
  const beyond = scopes.filter((s) => !principal.scopes.includes(s));
  if (beyond.length) {
    const verb = field === 'scopes' ? 'grant' : field === 'revoke' ? 'revoke a key that holds' : 'roll a key that holds';
    throw new AppError('forbidden', `You cannot ${verb} ${beyond.join(', ')}: your role does not hold ${beyond.length === 1 ? 'that scope' : 'those scopes'}. Ask an owner.`);
  }
}

async function insertNewKey(tx: Queryable, brandId: string, mode: Mode, name: string | null, scopes: Scope[], rolledFrom: string | null): Promise<CreatedApiKey> {
  const key = newKeyString(mode);
  const row = await repo.insertKey(tx, {
    brand_id: brandId,
    id: newId('key'),
    mode,
    name,
    key_prefix: keyPrefix(key),
    last_four: key.slice(-4),
    key_hash: hashKey(key),
    scopes,
    rolled_from: rolledFrom,
  });
  return { ...renderApiKey(row), key };
}

/** A new key in the principal's mode; the answer is the only place the key is ever shown. */
export async function createApiKey(tx: Queryable, principal: Principal, input: { name: string | null; scopes: string[] }): Promise<CreatedApiKey> {
  const name = input.name === null ? null : input.name.trim();
  if (name === '') throw invalid('name', 'must not be blank');
  const scopes = checkScopes(input.scopes);
  checkGrantable(principal, scopes, 'scopes');
  return insertNewKey(tx, principal.brandId, principal.mode, name, scopes, null);
}

export async function listApiKeys(tx: Queryable, principal: Principal): Promise<ApiKey[]> {
  return (await repo.listKeys(tx, principal.brandId, principal.mode)).map(renderApiKey);
}

async function requireKey(tx: Queryable, principal: Principal, id: string) {
  const row = await repo.findKey(tx, principal.brandId, id);
  // Another mode's key is as unknown as another brand's: the toggle decides what a session sees.
  if (!row || row.mode !== principal.mode) throw notFound('API key');
  return row;
}

export async function revokeApiKey(tx: Queryable, principal: Principal, input: { id: string }, deps: KeyDeps = {}): Promise<ApiKey> {
  const existing = await requireKey(tx, principal, input.id);
  // The same rule as rolling: a developer member cannot cut off an owner's key that holds scopes
  // the developer's role does not (an outage of the owner's integration, by someone who could not make it).
  checkGrantable(principal, existing.scopes, 'revoke');
  const row = await repo.revokeKey(tx, principal.brandId, input.id);
  if (!row) throw notFound('API key');
  deps.keyCache?.forget(row.key_hash);
  return renderApiKey(row);
}

/**
 * A new key with the old one's name, mode and scopes; the old one keeps working for
 * `graceSeconds` (0: stops now, at most 7 days) and is refused from then on, on every process
 * within a second. Rolling a key that is already rolled (still in its grace) is allowed and never
 * lengthens its life; a revoked or expired key cannot be rolled (make a new one).
 */
export async function rollApiKey(
  tx: Queryable,
  principal: Principal,
  input: { id: string; graceSeconds: number },
  deps: KeyDeps = {},
): Promise<{ key: CreatedApiKey; previous: ApiKey }> {
  if (!Number.isInteger(input.graceSeconds) || input.graceSeconds < 0 || input.graceSeconds > maxGraceSeconds) {
    throw invalid('graceSeconds', `must be a whole number of seconds from 0 to ${maxGraceSeconds} (7 days)`);
  }
  const existing = await requireKey(tx, principal, input.id);
  checkGrantable(principal, existing.scopes, 'key');
  if (existing.revoked_at) throw new AppError('conflict', `API key ${existing.id} is revoked; create a new key instead of rolling it.`);
  if (existing.expires_at && existing.expires_at.getTime() <= Date.now()) {
    throw new AppError('conflict', `API key ${existing.id} expired after an earlier roll; create a new key instead of rolling it.`);
  }
  const previous = await repo.expireKey(tx, principal.brandId, existing.id, input.graceSeconds);
  if (!previous) throw new AppError('conflict', `API key ${existing.id} was revoked meanwhile; create a new key instead of rolling it.`);
  const key = await insertNewKey(tx, principal.brandId, existing.mode, existing.name, existing.scopes, existing.id);
  deps.keyCache?.forget(previous.key_hash);
  return { key, previous: renderApiKey(previous) };
}

// ---- the admin CLI's and the test factories' entry points (unchanged contracts) ----------

/** The admin CLI acts as the brand's owner: every scope, in the mode of what it acts on. */
export const ownerPrincipal = (brandId: string, mode: Mode): Principal => ({ brandId, mode, scopes: [...allScopes], via: 'session' });

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
  const created = await insertNewKey(db, input.brandId, input.mode, input.name ?? null, input.scopes, null);
  return { id: created.id, key: created.key, mode: created.mode, scopes: created.scopes, name: created.name };
}

export async function listKeys(db: Queryable, brandId: string) {
  return (await repo.listKeys(db, brandId)).map(renderKey);
}

async function ownerOfKey(db: Queryable, keyId: string): Promise<Principal> {
  const owner = await repo.findKeyOwner(db, keyId);
  if (!owner) throw new AppError('not_found', `No API key with id ${keyId} exists.`);
  return ownerPrincipal(owner.brand_id, owner.mode);
}

/** `key revoke KEY_ID`: by id alone, as the admin. */
export async function revokeKey(db: Queryable, cache: KeyCache | undefined, keyId: string) {
  const principal = await ownerOfKey(db, keyId);
  await revokeApiKey(db, principal, { id: keyId }, { keyCache: cache });
  return renderKey((await repo.findKey(db, principal.brandId, keyId))!);
}

/** `key roll KEY_ID [--grace 24h]`: by id alone, as the admin; both records in the CLI's shape. Run it in a transaction. */
export async function rollKey(db: Queryable, cache: KeyCache | undefined, keyId: string, graceSeconds: number) {
  const principal = await ownerOfKey(db, keyId);
  const rolled = await rollApiKey(db, principal, { id: keyId, graceSeconds }, { keyCache: cache });
  const next = await repo.findKey(db, principal.brandId, rolled.key.id);
  const previous = await repo.findKey(db, principal.brandId, keyId);
  return { key: { ...renderKey(next!), key: rolled.key.key }, previous: renderKey(previous!) };
}
