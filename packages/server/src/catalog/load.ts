import { checkProductAvailability, writeProductAvailability } from '../bookings/product-settings.ts';
import { checkProductShipping, writeProductShipping } from '../shipping/settings.ts';
import Value from 'typebox/value';
import { requireBrand } from '../brands/service.ts';
import type { Queryable } from '../db/client.ts';
import { AppError, type ErrorDetail } from '../errors.ts';
import { insertHub } from '../hubs/repository.ts';
import { newId } from '../ids.ts';
import * as products from '../products/repository.ts';
import { itemIds, writeCheckoutFields, writeItems, writeTiers } from './apply.ts';
import { isFree, productColumns } from './rows.ts';
import {
  checkCheckoutFields, checkItems, checkProductValues, checkTiers, path, type ItemDraft, type PointerNames, type TierDraft,
} from './rules.ts';
import { Catalog, type CatalogItem, type CatalogTier } from './schema.ts';
import { catalogChanged } from '../catalog-cache/version.ts';

const fileNames: PointerNames = { tierItems: 'items', parent: 'parent' };

const tierDraft = ({ ref, items, ...values }: CatalogTier): TierDraft => ({ ...values, key: ref, itemKeys: items ?? [] });
const itemDraft = ({ ref, parent, ...values }: CatalogItem): ItemDraft => ({ ...values, key: ref, ...(parent !== undefined ? { parentKey: parent } : {}) });

/**
 * Loads a catalog file into a brand, in the caller's transaction (the CLI's `catalog load` opens
 * it, so the whole file loads or none of it); returns the created ids keyed by ref. The rows are
 * written by the same code as the API's product and hub writes (catalog/apply.ts).
 */
export async function loadCatalog(tx: Queryable, brandId: string, input: unknown): Promise<Record<string, string>> {
  const catalog = parseCatalog(input);
  await requireBrand(tx, brandId);
  const ids: Record<string, string> = {};
  // Rows of one file share a millisecond; spacing them 1 ms apart keeps newest-first lists in file order.
  const base = Date.now();
  let sequence = 0;
  const createdAt = () => new Date(base + sequence++);
  // A file's refs become new ids here; to the writers below they are ids like any other.
  const withIds = (tiers: CatalogTier[]) => tiers.map((t) => ({ ...tierDraft(t), key: (ids[t.ref] = newId('tier')) }));

  for (const hub of catalog.hubs ?? []) {
    const id = (ids[hub.ref] = newId('hub'));
    await insertHub(tx, { brand_id: brandId, id, name: hub.name, description: hub.description ?? null, created_at: createdAt() });
    await writeTiers(tx, brandId, { productId: null, hubId: id }, withIds(hub.tiers), [], (key) => key);
  }
  for (const p of catalog.products ?? []) {
    const id = (ids[p.ref] = newId('prod'));
    const items = (p.items ?? []).map(itemDraft);
    const itemIdOf = itemIds(items, []);
    for (const item of p.items ?? []) ids[item.ref] = itemIdOf.get(item.ref)!;
    const tiers = withIds(p.tiers);
    const free = isFree(tiers.map((t) => ({ archived: t.archived ?? false, price_amount: t.price.amount })));
    await products.insertProduct(tx, {
      brand_id: brandId, id, hub_id: p.hub ? ids[p.hub] : null, ...productColumns(p), is_free: free, created_at: createdAt(),
    });
    const tierRows = await writeTiers(tx, brandId, { productId: id, hubId: null }, tiers, [], (key) => itemIdOf.get(key)!);
    await writeItems(tx, brandId, id, items, [], itemIdOf, tierRows);
    const fields = p.checkoutFields ?? [];
    await writeCheckoutFields(tx, brandId, id, fields, checkCheckoutFields(fields, '', []));
    await writeProductAvailability(tx, brandId, id, p.availability);
    await writeProductShipping(tx, brandId, id, p.shipping);
  }
  await catalogChanged(tx, brandId);
  return ids;
}

/**
 * Checks the file's shape, then the catalog's rules (catalog/rules.ts, the API's too) and what
 * only a file has: refs are unique and resolve. Problems name the field by its path in the file.
 */
export function parseCatalog(input: unknown): Catalog {
  if (!Value.Check(Catalog, input)) {
    const details = Value.Errors(Catalog, input).slice(0, 20).map((e) => ({
      field: e.instancePath.replace(/^\//, '').split('/').map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i ? `.${p}` : p)).join('') || '(file)',
      message: e.message,
    }));
    throw new AppError('validation_failed', `The catalog file is invalid: ${details[0]?.field} ${details[0]?.message}.`, details);
  }
  const catalog = input;
  const problems: ErrorDetail[] = [];
  const refs = new Set<string>();
  const claim = (ref: string, field: string) => {
    if (refs.has(ref)) problems.push({ field, message: `ref "${ref}" is used twice` });
    refs.add(ref);
  };
  const hubRefs = new Set<string>();
  (catalog.hubs ?? []).forEach((hub, h) => {
    const at = path('', 'hubs', h);
    claim(hub.ref, path(at, 'ref'));
    hubRefs.add(hub.ref);
    hub.tiers.forEach((t, i) => claim(t.ref, path(at, 'tiers', i, 'ref')));
    checkTiers(hub.tiers.map(tierDraft), at, new Set(), fileNames, problems);
  });
  (catalog.products ?? []).forEach((p, i) => {
    const at = path('', 'products', i);
    claim(p.ref, path(at, 'ref'));
    if (p.hub && !hubRefs.has(p.hub)) problems.push({ field: path(at, 'hub'), message: `"${p.hub}" is not a hub in this file` });
    checkProductValues(p, at, problems);
    (p.items ?? []).forEach((item, j) => claim(item.ref, path(at, 'items', j, 'ref')));
    const items = (p.items ?? []).map(itemDraft);
    checkItems(items, at, fileNames, problems);
    p.tiers.forEach((t, j) => claim(t.ref, path(at, 'tiers', j, 'ref')));
    checkTiers(p.tiers.map(tierDraft), at, new Set(items.map((item) => item.key!)), fileNames, problems);
    checkCheckoutFields(p.checkoutFields ?? [], at, problems);
    checkProductAvailability(p.type, p.availability, undefined, problems, `${at}.`);
    checkProductShipping(p.type, p.shipping, undefined, problems, `${at}.`);
  });
  if (problems.length) {
    throw new AppError('validation_failed', `The catalog file is invalid: ${problems[0].field} ${problems[0].message}.`, problems.slice(0, 100));
  }
  return catalog;
}
