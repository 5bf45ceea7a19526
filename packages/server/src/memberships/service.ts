import { createHash } from 'node:crypto';
import type { Queryable } from '../db/client.ts';
import { pageRequest, toPage } from '../db/paging.ts';
import { notFound } from '../errors.ts';
import { requireHub } from '../hubs/repository.ts';
import type { Mode, Principal } from '../auth/principal.ts';
import type { EventData } from '../webhooks/payloads.ts';
import { recordEvent, recordEvents } from '../events/service.ts';
import { newId, newIds } from '../ids.ts';
import { versionOf } from '../object-version.ts';
import { requireProduct } from '../products/service.ts';
import { findSubscriptions, type SubscriptionRow } from '../subscriptions/repository.ts';
import { renderSubscription } from '../subscriptions/render.ts';
import * as repo from './repository.ts';
import type { Membership, MembershipListQuery } from './schemas.ts';

/** The reference's Membership record, with our `subscription` when a subscription pays for it. */
export function renderMembership(row: repo.MembershipRow, sub?: SubscriptionRow): Membership {
  return {
    membershipId: row.id,
    name: row.name,
    email: row.email,
    ...(row.phone ? { phone: row.phone } : {}),
    ...(row.hub_id ? { hubID: row.hub_id } : {}),
    status: row.status,
    ...(row.plan ? { plan: row.plan } : {}),
    joinedAt: row.joined_at.toISOString(),
    ...(typeof row.receive_emails === 'boolean' ? { receiveEmails: row.receive_emails } : {}),
    ...versionOf(row),
    ...(sub ? { subscription: renderSubscription(sub) } : {}),
  };
}

/** Renders rows with their subscriptions, fetched in one query. */
export async function renderMemberships(db: Queryable, brandId: string, rows: repo.MembershipRow[]): Promise<(row: repo.MembershipRow) => Membership> {
  const subs = await findSubscriptions(db, brandId, [...new Set(rows.flatMap((r) => (r.subscription_id ? [r.subscription_id] : [])))]);
  const byId = new Map(subs.map((s) => [s.id, s]));
  return (row) => renderMembership(row, row.subscription_id ? byId.get(row.subscription_id) : undefined);
}

/** member.*'s data: the Membership record, plus the product for a product's customer (the record itself names only a hub). */
export function memberEventData(row: repo.MembershipRow, sub?: SubscriptionRow): EventData<'member.joined'> {
  return { ...renderMembership(row, sub), ...(row.product_id ? { productID: row.product_id } : {}) };
}

export interface MembershipGrant {
  brandId: string;
  mode: Mode;
  hubId: string | null;
  productId: string | null;
  name: string;
  email: string;
  phone?: string | null;
  fields?: Record<string, unknown>;
  plan: string;
}

/**
 * A purchase: makes the person an active member of the hub or product on the plan bought, and
 * records member.joined when they were not an active member before, in the caller's transaction.
 */
export async function grantMembership(tx: Queryable, grant: MembershipGrant): Promise<repo.MembershipRow> {
  const granted = await activateGrant(tx, grant);
  await announceJoined(tx, [granted]);
  return granted.row;
}

/** A membership granted, and whether that made the person a member (not already an active one). */
export interface Granted {
  row: repo.MembershipRow;
  joined: boolean;
}

/**
 * grantMembership without its event, for a purchase that first attaches a subscription to what it
 * granted (subscriptions/service.ts), so that member.joined carries the subscription.
 */
export async function activateGrant(tx: Queryable, grant: MembershipGrant): Promise<Granted> {
  return repo.activateMembership(tx, {
    brand_id: grant.brandId, id: newId('mem'), mode: grant.mode, hub_id: grant.hubId, product_id: grant.productId,
    name: grant.name, email: grant.email, phone: grant.phone ?? null, fields: grant.fields ?? {}, plan: grant.plan,
  });
}

/** member.joined for each grant that made someone a member, in order. */
export async function announceJoined(tx: Queryable, grants: Granted[], about: { sub?: SubscriptionRow; appId?: string | null } = {}): Promise<void> {
  for (const { row, joined } of grants) {
    if (joined) await recordEvent(tx, { brandId: row.brand_id, mode: row.mode, type: 'member.joined', data: memberEventData(row, about.sub), appId: about.appId ?? null });
  }
}

/** What every person of an import batch joins: one hub or product, in one mode, on one plan. */
export interface ImportTarget {
  brandId: string;
  mode: Mode;
  hubId: string | null;
  productId: string | null;
  plan: string;
  /** The OAuth app the import was asked for through: its member.joined events name it. */
  appId?: string | null;
}

export interface ImportedPerson {
  name: string;
  email: string;
  phone?: string | null;
  fields?: Record<string, unknown>;
}

/** What an import did with one person (docs/imports.md, What happened to each record). */
export type ImportOutcome = 'created' | 'reactivated' | 'unchanged' | 'refused';

export interface ImportedResult {
  outcome: ImportOutcome;
  membershipId: string;
}

/**
 * An import batch, in the caller's transaction: inserts the people who are not members yet (one
 * statement), reactivates those whose membership was removed or expired (one more), and records
 * one member.joined per membership created or reactivated, in the order given. An active
 * membership is left as it is (`unchanged`); a `cancelled` one too (`refused`): that status is the
 * reference's for a membership the person or the brand ended on purpose, which an import must not
 * undo. Answers, per person in the order given, what happened.
 */
export async function importMembers(tx: Queryable, target: ImportTarget, people: ImportedPerson[]): Promise<ImportedResult[]> {
  const ids = newIds('mem', people.length);
  const batch = { brand_id: target.brandId, mode: target.mode, hub_id: target.hubId, product_id: target.productId, status: 'active' as const, plan: target.plan };
  const inserted = await repo.insertMemberships(
    tx,
    batch,
    people.map((p, i) => ({ id: ids[i], name: p.name, email: p.email, phone: p.phone ?? null, fields: p.fields ?? {} })),
  );
  const createdIds = new Set(inserted.map((r) => r.id));
  const skipped = people.filter((_, i) => !createdIds.has(ids[i])).map((p) => p.email);
  const reactivated = await repo.reactivateMemberships(tx, batch, skipped);
  const reactivatedIds = new Set(reactivated.map((r) => r.id));
  const stayed = reactivated.length === skipped.length ? [] : await repo.findPeople(tx, batch, skipped);
  const held = new Map(stayed.map((r) => [r.email.toLowerCase(), r]));
  for (const r of reactivated) held.set(r.email.toLowerCase(), r);
  await recordEvents(tx, [...inserted, ...reactivated].map((row) => ({ brandId: row.brand_id, mode: row.mode, type: 'member.joined' as const, data: memberEventData(row), appId: target.appId ?? null })));
  return people.map((p, i): ImportedResult => {
    if (createdIds.has(ids[i])) return { outcome: 'created', membershipId: ids[i] };
    const row = held.get(p.email.toLowerCase())!;
    if (reactivatedIds.has(row.id)) return { outcome: 'reactivated', membershipId: row.id };
    return { outcome: row.status === 'cancelled' ? 'refused' : 'unchanged', membershipId: row.id };
  });
}

/**
 * The list's name inside its cursors: it carries the filters, so a cursor from a filtered page
 * cannot continue an unfiltered list (or another filter), where it would skip or repeat rows.
 */
function listName(base: string, query: MembershipListQuery) {
  if (query.email === undefined && query.status === undefined) return base;
  // Hashed so a long email keeps the cursor short (cursors are at most 200 characters).
  const filter = createHash('sha256').update(`${query.status ?? ''}\n${query.email?.toLowerCase() ?? ''}`).digest('base64url').slice(0, 16);
  return `${base}:${filter}`;
}

/** Every member of the hub in the key's mode (whatever their status unless filtered), newest first. */
export async function listHubMembers(db: Queryable, principal: Principal, hubId: string, query: MembershipListQuery) {
  await requireHub(db, principal.brandId, hubId);
  const list = listName(`hub:${hubId}`, query);
  const page = pageRequest(list, query);
  const rows = await repo.listHubMembers(db, principal.brandId, principal.mode, hubId, query, page);
  return toPage(list, page, rows, await renderMemberships(db, principal.brandId, rows));
}

export async function getHubMember(db: Queryable, principal: Principal, hubId: string, id: string) {
  await requireHub(db, principal.brandId, hubId);
  const row = await repo.findHubMember(db, principal.brandId, principal.mode, hubId, id);
  if (!row) throw notFound('hub member');
  return (await renderMemberships(db, principal.brandId, [row]))(row);
}

/** The product's purchasers in the key's mode (the active ones unless filtered by status), newest first. */
export async function listProductCustomers(db: Queryable, principal: Principal, productId: string, query: MembershipListQuery) {
  await requireProduct(db, principal, productId);
  const list = listName(`customers:${productId}`, query);
  const page = pageRequest(list, query);
  const rows = await repo.listProductCustomers(db, principal.brandId, principal.mode, productId, query, page);
  return toPage(list, page, rows, await renderMemberships(db, principal.brandId, rows));
}
