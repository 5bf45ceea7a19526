import type { Queryable } from '../db/client.ts';
import { pageRequest, toPage } from '../db/paging.ts';
import { notFound } from '../errors.ts';
import { requireHub } from '../hubs/repository.ts';
import type { Principal } from '../auth/principal.ts';
import { requireProduct } from '../products/service.ts';
import * as repo from './repository.ts';
import type { Membership } from './schemas.ts';

export function renderMembership(row: repo.MembershipRow): Membership {
  return {
    membershipId: row.id,
    name: row.name,
    email: row.email,
    ...(row.phone ? { phone: row.phone } : {}),
    ...(row.hub_id ? { hubID: row.hub_id } : {}),
    status: row.status,
    ...(row.plan ? { plan: row.plan } : {}),
    joinedAt: row.joined_at.toISOString(),
  };
}

/** member.joined's data: the Membership record, plus the product for a product's customer (the record itself names only a hub). */
export function memberJoinedData(row: repo.MembershipRow): Record<string, unknown> {
  return { ...renderMembership(row), ...(row.product_id ? { productID: row.product_id } : {}) };
}

type PageQuery = { limit?: number; cursor?: string };

/** Every member of the hub in the key's mode, whatever their status, newest first. */
export async function listHubMembers(db: Queryable, principal: Principal, hubId: string, query: PageQuery) {
  await requireHub(db, principal.brandId, hubId);
  const page = pageRequest(`hub:${hubId}`, query);
  const rows = await repo.listHubMembers(db, principal.brandId, principal.mode, hubId, page);
  return toPage(`hub:${hubId}`, page, rows, renderMembership);
}

export async function getHubMember(db: Queryable, principal: Principal, hubId: string, id: string) {
  await requireHub(db, principal.brandId, hubId);
  const row = await repo.findHubMember(db, principal.brandId, principal.mode, hubId, id);
  if (!row) throw notFound('hub member');
  return renderMembership(row);
}

/** The product's active purchasers in the key's mode, newest first. */
export async function listProductCustomers(db: Queryable, principal: Principal, productId: string, query: PageQuery) {
  await requireProduct(db, principal, productId);
  const page = pageRequest(`customers:${productId}`, query);
  const rows = await repo.listProductCustomers(db, principal.brandId, principal.mode, productId, page);
  return toPage(`customers:${productId}`, page, rows, renderMembership);
}
