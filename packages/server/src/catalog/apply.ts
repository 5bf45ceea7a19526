import { tiersInLinks } from '../checkout/repository.ts';
import type { Queryable } from '../db/client.ts';
import type { ErrorDetail } from '../errors.ts';
import { plansInUse as importPlans } from '../imports/repository.ts';
import { newId } from '../ids.ts';
import { plansInUse as membershipPlans } from '../memberships/repository.ts';
import * as products from '../products/repository.ts';
import type { CheckoutFieldRow, ItemRow, TierRow } from '../products/repository.ts';
import { tiersInUse as subscriptionTiers } from '../subscriptions/repository.ts';
import { checkoutFieldRow, itemRow, tierRow } from './rows.ts';
import { defaultFlags, path, type CheckoutFieldDraft, type ItemDraft, type TierDraft } from './rules.ts';

/**
 * Writing a list of tiers, items or checkout fields over what a product (or hub) has, as the API
 * does (docs/catalog.md): the list sent is the whole list, in order. An entry with an id updates
 * that entry, one without adds one, and one left out is deleted, unless something still points
 * at it: a tier anyone ever bought or joined on, or an item such a tier includes, is archived
 * instead and kept after the list, so what people bought stays readable.
 */

/** Each entry's id must be one of the owner's, at most once in the list. */
export function checkListIds(entries: { id?: string }[], existing: Set<string>, at: string, list: string, what: string, problems: ErrorDetail[]) {
  const seen = new Set<string>();
  entries.forEach((e, i) => {
    if (e.id === undefined) return;
    if (!existing.has(e.id)) problems.push({ field: path(at, list, i, 'id'), message: `"${e.id}" is not ${what}; leave id out to add one` });
    else if (seen.has(e.id)) problems.push({ field: path(at, list, i, 'id'), message: `"${e.id}" is listed twice` });
    seen.add(e.id);
  });
}

/**
 * The tiers among these that were ever sold, joined on or imported onto: archived, never deleted.
 * Asked one source at a time, cheapest first, each only about the tiers still not found: a sold
 * tier nearly always has a membership (one index probe), so the payment-link check, which costs
 * in proportion to the links that sell a tier, is left with the tiers nobody holds, which it
 * answers at once (docs/performance.md).
 */
async function soldTiers(tx: Queryable, brandId: string, ids: string[]): Promise<Set<string>> {
  const sold = new Set<string>();
  for (const source of [membershipPlans, subscriptionTiers, importPlans, tiersInLinks]) {
    const left = ids.filter((id) => !sold.has(id));
    if (!left.length) break;
    for (const id of await source(tx, brandId, left)) sold.add(id);
  }
  return sold;
}

type Owner = { productId: string; hubId: null } | { productId: null; hubId: string };

/** Writes the tier list; returns every tier the owner has afterwards (archived ones last). */
export async function writeTiers(
  tx: Queryable, brandId: string, owner: Owner, drafts: TierDraft[], existing: TierRow[], itemIdOf: (key: string) => string,
): Promise<TierRow[]> {
  const flags = defaultFlags(drafts);
  const before = new Map(existing.map((t) => [t.id, t]));
  const rows: TierRow[] = [];
  for (const [position, draft] of drafts.entries()) {
    const row = tierRow(draft, {
      brandId, id: draft.key ?? newId('tier'), productId: owner.productId, hubId: owner.hubId, position,
      isDefault: flags[position], itemIds: draft.itemKeys.map(itemIdOf),
    });
    await (before.has(row.id) ? products.updateTier(tx, row) : products.insertTier(tx, row));
    rows.push(row);
  }
  const kept = new Set(rows.map((r) => r.id));
  const left = existing.filter((t) => !kept.has(t.id));
  // A payment link being made for one of these holds it FOR SHARE (checkout/service.ts): wait for
  // it, so the check below sees the link and archives the tier instead of deleting it.
  await products.lockTiers(tx, brandId, left.map((t) => t.id));
  const sold = await soldTiers(tx, brandId, left.map((t) => t.id));
  for (const t of left.filter((x) => sold.has(x.id))) {
    const archived = { ...t, archived: true, is_default: false, position: rows.length };
    await products.updateTier(tx, archived);
    rows.push(archived);
  }
  await products.deleteTiers(tx, brandId, left.filter((t) => !sold.has(t.id)).map((t) => t.id));
  return rows;
}

/** The id of every item the drafts name: an existing item's own, or a new one for a ref. */
export function itemIds(drafts: ItemDraft[], existing: ItemRow[]): Map<string, string> {
  const ids = new Map(existing.map((i) => [i.id, i.id]));
  for (const d of drafts) if (d.key && !ids.has(d.key)) ids.set(d.key, newId('item'));
  return ids;
}

/**
 * Writes the item list. Items left out are archived while a tier (kept or archived) includes
 * them or a kept item nests under them, and deleted otherwise.
 */
export async function writeItems(
  tx: Queryable, brandId: string, productId: string, drafts: ItemDraft[], existing: ItemRow[], ids: Map<string, string>, tiers: TierRow[],
): Promise<void> {
  const before = new Map(existing.map((i) => [i.id, i]));
  const rows: ItemRow[] = drafts.map((draft, position) => itemRow(draft, {
    brandId, id: draft.key ? ids.get(draft.key)! : newId('item'), productId, position,
    parentId: draft.parentKey !== undefined ? ids.get(draft.parentKey)! : null,
  }));
  const kept = new Set(rows.map((r) => r.id));
  const needed = new Set(tiers.flatMap((t) => t.item_ids));
  // Parents of whatever stays (kept or archived) stay too, all the way up.
  const byId = new Map(existing.map((i) => [i.id, i]));
  const keep = (id: string | null) => {
    for (let at = id, hops = 0; at && !needed.has(at) && hops < 1000; at = byId.get(at)?.parent_id ?? null, hops++) needed.add(at);
  };
  for (const r of rows) keep(r.parent_id);
  for (const id of [...needed]) keep(byId.get(id)?.parent_id ?? null);
  const left = existing.filter((i) => !kept.has(i.id));
  for (const [position, row] of rows.entries()) {
    await (before.has(row.id) ? products.updateItem(tx, row) : products.insertItem(tx, { ...row, position }));
  }
  let position = rows.length;
  for (const item of left.filter((i) => needed.has(i.id))) await products.updateItem(tx, { ...item, archived: true, position: position++ });
  await products.deleteItems(tx, brandId, left.filter((i) => !needed.has(i.id)).map((i) => i.id));
}

/** Replaces the product's checkout fields with the list, each under the id the rules resolved. */
export async function writeCheckoutFields(
  tx: Queryable, brandId: string, productId: string, drafts: CheckoutFieldDraft[], fieldIds: string[],
): Promise<CheckoutFieldRow[]> {
  await products.deleteCheckoutFields(tx, brandId, productId);
  const rows = drafts.map((f, position) => checkoutFieldRow(f, { brandId, productId, id: fieldIds[position], position }));
  for (const row of rows) await products.insertCheckoutField(tx, row);
  return rows;
}
