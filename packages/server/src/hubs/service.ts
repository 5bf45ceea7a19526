import type { Principal } from '../auth/principal.ts';
import { checkListIds, writeTiers } from '../catalog/apply.ts';
import { apiNames, tierDraft } from '../catalog/api-drafts.ts';
import { checkTiers } from '../catalog/rules.ts';
import { catalogChanged } from '../catalog-cache/version.ts';
import type { Queryable } from '../db/client.ts';
import { pageRequest, toPage } from '../db/paging.ts';
import { invalidAll, notFound, type ErrorDetail } from '../errors.ts';
import { newId } from '../ids.ts';
import { hubTiers } from '../products/repository.ts';
import { renderTier } from '../products/render.ts';
import * as repo from './repository.ts';
import type { HubRow } from './repository.ts';
import type { Hub, HubCreateBody, HubSummary, HubUpdateBody } from './schemas.ts';

/**
 * Hubs and their membership tiers (docs/catalog.md): read with products:read, written with
 * products:write under the catalog's rules (catalog/rules.ts). Shared by both modes, as the
 * whole catalog is; writes record no event.
 */

export function renderHubSummary(row: HubRow): HubSummary {
  return {
    id: row.id,
    name: row.name,
    description: row.description ?? '',
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export async function listHubs(db: Queryable, principal: Principal, query: { limit?: number; cursor?: string }) {
  const page = pageRequest('hubs', query);
  return toPage('hubs', page, await repo.listHubs(db, principal.brandId, page), renderHubSummary);
}

export async function getHub(db: Queryable, principal: Principal, id: string): Promise<Hub> {
  const row = await repo.requireHub(db, principal.brandId, id);
  return { ...renderHubSummary(row), tiers: (await hubTiers(db, row.brand_id, row.id)).map(renderTier) };
}

/** A hub's tiers include no items: a hub has none. */
function checkHubTiers(tiers: HubCreateBody['tiers'], existing: Set<string>) {
  const problems: ErrorDetail[] = [];
  checkListIds(tiers, existing, '', 'tiers', 'a tier of this hub', problems);
  checkTiers(tiers.map(tierDraft), '', new Set(), apiNames, problems);
  if (problems.length) throw invalidAll(problems);
}

export async function createHub(tx: Queryable, principal: Principal, body: HubCreateBody): Promise<Hub> {
  checkHubTiers(body.tiers, new Set());
  const id = newId('hub');
  await repo.insertHub(tx, { brand_id: principal.brandId, id, name: body.name, description: body.description ?? null, created_at: new Date() });
  await writeTiers(tx, principal.brandId, { productId: null, hubId: id }, body.tiers.map(tierDraft), [], (key) => key);
  await catalogChanged(tx, principal.brandId);
  return getHub(tx, principal, id);
}

export async function updateHub(tx: Queryable, principal: Principal, id: string, body: HubUpdateBody): Promise<Hub> {
  const row = await repo.lockHub(tx, principal.brandId, id);
  if (!row) throw notFound('hub');
  const tiers = await hubTiers(tx, principal.brandId, id);
  if (body.tiers) {
    checkHubTiers(body.tiers, new Set(tiers.map((t) => t.id)));
    await writeTiers(tx, principal.brandId, { productId: null, hubId: id }, body.tiers.map(tierDraft), tiers, (key) => key);
  }
  await repo.updateHub(tx, {
    brand_id: principal.brandId, id, name: body.name ?? row.name,
    description: body.description === undefined ? row.description : body.description,
  });
  await catalogChanged(tx, principal.brandId);
  return getHub(tx, principal, id);
}
