import type { Principal } from '../auth/principal.ts';
import { itemIds, checkListIds, writeCheckoutFields, writeItems, writeTiers } from '../catalog/apply.ts';
import { isFree, productColumns } from '../catalog/rows.ts';
import { apiNames, itemDraft, tierDraft } from '../catalog/api-drafts.ts';
import { checkCheckoutFields, checkItems, checkProductValues, checkTiers, type ProductValues } from '../catalog/rules.ts';
import { catalogChanged } from '../catalog-cache/version.ts';
import type { Queryable } from '../db/client.ts';
import { invalidAll, notFound, type ErrorDetail } from '../errors.ts';
import { findHub } from '../hubs/repository.ts';
import { newId } from '../ids.ts';
import * as repo from './repository.ts';
import type { ItemRow, ProductRow, TierRow } from './repository.ts';
import type { ItemInput, Product, ProductCreateBody, ProductUpdateBody, TierInput } from './schemas.ts';
import { getProduct } from './service.ts';
import { checkProductAvailability, productAvailabilityOf, writeProductAvailability } from '../bookings/product-settings.ts';
import type { Availability } from '../bookings/schemas.ts';
import { checkProductShipping, productShippingOf, writeProductShipping } from '../shipping/settings.ts';
import type { ShippingSettings } from '../shipping/schemas.ts';

/**
 * POST /products and PATCH /products/{id} (docs/catalog.md): the catalog file's rules
 * (catalog/rules.ts), written by the same code (catalog/apply.ts), answered with exactly what
 * GET /products/{id} returns. The catalog is shared by both modes (DESIGN.md), so a test key
 * holding products:write edits the one catalog live buyers see too. Catalog writes record no
 * event: none of the reference's event types is about the catalog.
 */

/** An item's ref must name one new item: not an id, not twice. */
function checkItemRefs(items: ItemInput[], existing: Set<string>, problems: ErrorDetail[]) {
  const refs = new Set<string>();
  items.forEach((item, j) => {
    if (item.ref === undefined) return;
    if (item.id !== undefined) problems.push({ field: `items[${j}].ref`, message: 'is for a new item; an item with an id is named by its id' });
    else if (refs.has(item.ref) || existing.has(item.ref)) problems.push({ field: `items[${j}].ref`, message: `"${item.ref}" names another item already` });
    refs.add(item.ref);
  });
}

async function checkHub(tx: Queryable, brandId: string, hubId: string | null | undefined, problems: ErrorDetail[]) {
  if (hubId && !(await findHub(tx, brandId, hubId))) problems.push({ field: 'hubID', message: `"${hubId}" is not a hub of this brand` });
}

/** The whole product as it will be, checked; throws 400 with every problem by path. */
async function check(
  tx: Queryable, brandId: string, values: ProductValues, hubId: string | null | undefined,
  body: { tiers?: TierInput[]; items?: ItemInput[]; checkoutFields?: ProductCreateBody['checkoutFields']; availability?: Availability | null; shipping?: ShippingSettings | null },
  now: { tiers: TierRow[]; items: ItemRow[]; fieldIds: string[]; availability?: Availability; shipping?: ShippingSettings },
) {
  const problems: ErrorDetail[] = [];
  checkProductValues(values, '', problems);
  checkProductAvailability(values.type, body.availability, now.availability, problems);
  checkProductShipping(values.type, body.shipping, now.shipping, problems);
  await checkHub(tx, brandId, hubId, problems);
  const existingItems = new Set(now.items.map((i) => i.id));
  let itemKeys = existingItems;
  if (body.items) {
    checkListIds(body.items, existingItems, '', 'items', 'an item of this product', problems);
    checkItemRefs(body.items, existingItems, problems);
    const drafts = body.items.map(itemDraft);
    checkItems(drafts, '', apiNames, problems);
    itemKeys = new Set(drafts.flatMap((d) => (d.key ? [d.key] : [])));
  }
  if (body.tiers) {
    checkListIds(body.tiers, new Set(now.tiers.map((t) => t.id)), '', 'tiers', 'a tier of this product', problems);
    checkTiers(body.tiers.map(tierDraft), '', itemKeys, apiNames, problems);
  }
  let fieldIds: string[] | undefined;
  if (body.checkoutFields) {
    checkListIds(body.checkoutFields, new Set(now.fieldIds), '', 'checkoutFields', 'a checkout field of this product', problems);
    fieldIds = checkCheckoutFields(body.checkoutFields, '', problems);
  }
  if (problems.length) throw invalidAll(problems);
  return { fieldIds };
}

async function writeLists(
  tx: Queryable, brandId: string, productId: string,
  body: { tiers?: TierInput[]; items?: ItemInput[]; checkoutFields?: ProductCreateBody['checkoutFields'] },
  now: { tiers: TierRow[]; items: ItemRow[] }, fieldIds: string[] | undefined,
): Promise<TierRow[]> {
  const items = body.items?.map(itemDraft);
  const ids = itemIds(items ?? [], now.items);
  const tiers = body.tiers
    ? await writeTiers(tx, brandId, { productId, hubId: null }, body.tiers.map(tierDraft), now.tiers, (key) => ids.get(key)!)
    : now.tiers;
  if (items) await writeItems(tx, brandId, productId, items, now.items, ids, tiers);
  if (body.checkoutFields && fieldIds) await writeCheckoutFields(tx, brandId, productId, body.checkoutFields, fieldIds);
  return tiers;
}

export async function createProduct(tx: Queryable, principal: Principal, body: ProductCreateBody, publicUrl?: string): Promise<Product> {
  const { tiers, items, checkoutFields, hubID, availability, shipping, ...values } = body;
  const { fieldIds } = await check(tx, principal.brandId, values, hubID, body, { tiers: [], items: [], fieldIds: [] });
  const id = newId('prod');
  await repo.insertProduct(tx, {
    brand_id: principal.brandId, id, hub_id: hubID ?? null, ...productColumns(values),
    is_free: isFree(tiers.map((t) => ({ archived: t.archived ?? false, price_amount: t.price.amount }))), created_at: new Date(),
  });
  await writeLists(tx, principal.brandId, id, { tiers, items: items ?? [], checkoutFields: checkoutFields ?? [] }, { tiers: [], items: [] }, fieldIds ?? []);
  await writeProductAvailability(tx, principal.brandId, id, availability);
  await writeProductShipping(tx, principal.brandId, id, shipping);
  await catalogChanged(tx, principal.brandId);
  return getProduct(tx, principal, id, publicUrl);
}

/** A stored product's own fields as the values a write would set. */
function storedValues(row: ProductRow): ProductValues {
  return {
    type: row.type as ProductValues['type'], title: row.title, status: row.status as ProductValues['status'],
    visibility: row.visibility as ProductValues['visibility'], keywords: row.keywords,
    ...(row.description !== null ? { description: row.description } : {}),
    ...(row.image_url !== null ? { imageUrl: row.image_url } : {}),
    ...(row.url !== null ? { url: row.url } : {}),
    ...(row.event_type && row.event_date_time
      ? {
          event: {
            eventType: row.event_type as NonNullable<ProductValues['event']>['eventType'], venue: row.event_venue ?? '',
            dateTime: row.event_date_time.toISOString(), ...(row.event_end_date ? { endDate: row.event_end_date.toISOString() } : {}),
          },
        }
      : {}),
  };
}

/** Fields present in the body replace the stored ones; `null` clears an optional one; absent ones stay. */
function mergeValues(stored: ProductValues, body: ProductUpdateBody): ProductValues {
  const out: ProductValues = { ...stored };
  const set = <K extends keyof ProductValues>(key: K, value: ProductValues[K] | null | undefined) => {
    if (value === undefined) return;
    if (value === null) delete out[key];
    else out[key] = value;
  };
  set('type', body.type); set('title', body.title); set('description', body.description); set('status', body.status);
  set('visibility', body.visibility); set('imageUrl', body.imageUrl); set('url', body.url); set('keywords', body.keywords);
  set('event', body.event);
  return out;
}

export async function updateProduct(tx: Queryable, principal: Principal, id: string, body: ProductUpdateBody, publicUrl?: string): Promise<Product> {
  const brandId = principal.brandId;
  const row = await repo.lockProduct(tx, brandId, id);
  if (!row) throw notFound('product');
  const [tiers, items, fields, availability, shipping] = await Promise.all([
    repo.productTiers(tx, brandId, id), repo.productItems(tx, brandId, id), repo.productCheckoutFields(tx, brandId, id),
    productAvailabilityOf(tx, brandId, id),
    productShippingOf(tx, brandId, id),
  ]);
  const values = mergeValues(storedValues(row), body);
  const hubId = body.hubID === undefined ? row.hub_id : body.hubID;
  const now = { tiers, items, fieldIds: fields.map((f) => f.id), availability, shipping };
  const { fieldIds } = await check(tx, brandId, values, body.hubID, body, now);
  const after = await writeLists(tx, brandId, id, body, now, fieldIds);
  await writeProductAvailability(tx, brandId, id, body.availability);
  await writeProductShipping(tx, brandId, id, body.shipping);
  await repo.updateProduct(tx, { brand_id: brandId, id, hub_id: hubId, ...productColumns(values), is_free: isFree(after) });
  await catalogChanged(tx, brandId);
  return getProduct(tx, principal, id, publicUrl);
}
