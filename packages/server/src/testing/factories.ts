import { readFile } from 'node:fs/promises';
import { createBrand as insertBrand, type Plan } from '../brands/service.ts';
import { loadCatalog } from '../catalog/load.ts';
import { exampleCatalogPath } from '../cli/commands.ts';
import type { Db, Queryable } from '../db/client.ts';
import { newId } from '../ids.ts';
import { scopes as allScopes, type Mode, type Scope } from '../auth/principal.ts';
import { createKey as insertKey } from '../keys/service.ts';
import { insertMembership, type MembershipRow } from '../memberships/repository.ts';
import { insertTransaction, type TransactionRow } from '../transactions/repository.ts';

/** Factories: each test makes its own brand, keys and catalog, so tests never depend on each other. */

export function createBrand(db: Queryable, input: { name?: string; plan?: Plan } = {}) {
  return insertBrand(db, { name: input.name ?? 'Test brand', plan: input.plan });
}

export async function createKey(db: Queryable, brandId: string, input: { mode?: Mode; scopes?: Scope[] } = {}) {
  return insertKey(db, { brandId, mode: input.mode ?? 'test', scopes: input.scopes ?? [...allScopes], name: 'test' });
}

/** A brand with the example catalog and a test and a live key holding every scope. */
export async function createBrandWithCatalog(db: Db, input: { plan?: Plan } = {}) {
  const brand = await createBrand(db, input);
  const catalog: unknown = JSON.parse(await readFile(exampleCatalogPath, 'utf8'));
  const ids = await db.transaction((tx) => loadCatalog(tx, brand.id, catalog));
  const testKey = await createKey(db, brand.id, { mode: 'test' });
  const liveKey = await createKey(db, brand.id, { mode: 'live' });
  return { brand, ids, testKey: testKey.key, liveKey: liveKey.key };
}

export function createMembership(
  db: Queryable,
  m: { brandId: string; mode?: Mode; hubId?: string; productId?: string; name?: string; email?: string; plan?: string; phone?: string; status?: MembershipRow['status'] },
) {
  return insertMembership(db, {
    brand_id: m.brandId,
    id: newId('mem'),
    mode: m.mode ?? 'test',
    hub_id: m.hubId ?? null,
    product_id: m.productId ?? null,
    name: m.name ?? 'Ada Lovelace',
    email: m.email ?? `ada+${newId('mem').slice(4, 12)}@example.com`,
    plan: m.plan ?? null,
    phone: m.phone ?? null,
    status: m.status,
  }) as Promise<MembershipRow>;
}

export function createTransaction(
  db: Queryable,
  t: { brandId: string; mode?: Mode; amount?: number; currency?: string; status?: string; resourceId?: string; email?: string; metadata?: Record<string, string> },
): Promise<TransactionRow> {
  return insertTransaction(db, {
    brand_id: t.brandId,
    id: newId('txn'),
    txref: `tx_${newId('txn').slice(4)}`,
    mode: t.mode ?? 'test',
    type: 'purchase',
    status: t.status ?? 'succeeded',
    amount: t.amount ?? 2550,
    currency: t.currency ?? 'USD',
    customer_name: 'Ada Lovelace',
    customer_email: t.email ?? 'ada@example.com',
    resource_id: t.resourceId ?? null,
    metadata: t.metadata ?? {},
    payment_link_id: null,
    provider: null,
    provider_reference: null,
  });
}

/** A brand's own rate limits (brands.rate_limit_*), for tests of the limiter that live in http/. */
export { setRateLimits } from '../brands/repository.ts';
