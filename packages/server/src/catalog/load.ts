import Value from 'typebox/value';
import { requireBrand } from '../brands/service.ts';
import type { Queryable } from '../db/client.ts';
import { AppError, type ErrorDetail } from '../errors.ts';
import { insertHub } from '../hubs/repository.ts';
import { newId } from '../ids.ts';
import { toMinor } from '../money.ts';
import * as products from '../products/repository.ts';
import { fieldIdFromLabel } from './field-id.ts';
import { Catalog, type CatalogTier } from './schema.ts';

const reserved = new Set(['fullName', 'email', 'phone']);

/**
 * Loads a catalog file into a brand, in the caller's transaction (the CLI's `catalog load` opens
 * it, so the whole file loads or none of it); returns the created ids keyed by ref.
 */
export async function loadCatalog(tx: Queryable, brandId: string, input: unknown): Promise<Record<string, string>> {
  const catalog = parseCatalog(input);
  await requireBrand(tx, brandId);
  const ids: Record<string, string> = {};
  // Rows of one file share a millisecond; spacing them 1 ms apart keeps newest-first lists in file order.
  const base = Date.now();
  let sequence = 0;
  const createdAt = () => new Date(base + sequence++);
  for (const hub of catalog.hubs ?? []) {
    const id = (ids[hub.ref] = newId('hub'));
    await insertHub(tx, { brand_id: brandId, id, name: hub.name, description: hub.description ?? null, created_at: createdAt() });
    await insertTiers(tx, brandId, { hub_id: id, product_id: null }, hub.tiers, ids);
  }
  for (const p of catalog.products ?? []) {
    const id = (ids[p.ref] = newId('prod'));
    await products.insertProduct(tx, {
      brand_id: brandId, id, hub_id: p.hub ? ids[p.hub] : null, type: p.type, status: p.status ?? 'published', title: p.title,
      description: p.description ?? null, image_url: p.imageUrl ?? null, url: p.url ?? null, visibility: p.visibility ?? 'public',
      is_free: p.tiers.filter((t) => !t.archived).every((t) => t.price.amount === 0), keywords: p.keywords ?? [],
      event_type: p.event?.eventType ?? null, event_venue: p.event?.venue ?? null,
      event_date_time: p.event?.dateTime ? new Date(p.event.dateTime) : null, event_end_date: p.event?.endDate ? new Date(p.event.endDate) : null,
      created_at: createdAt(),
    });
    for (const item of p.items ?? []) ids[item.ref] = newId('item');
    for (const [position, item] of (p.items ?? []).entries()) {
      await products.insertItem(tx, {
        brand_id: brandId, id: ids[item.ref], product_id: id, position, type: item.type, title: item.title,
        description: item.description ?? null, image: item.image ?? null, duration: item.duration ?? null,
        is_addon: item.isAddon ?? false, parent_id: item.parent ? ids[item.parent] : null,
        price_amount: item.price ? toMinor(item.price.amount, item.price.currency) : null, currency: item.price?.currency ?? null,
      });
    }
    await insertTiers(tx, brandId, { hub_id: null, product_id: id }, p.tiers, ids);
    for (const [position, field] of (p.checkoutFields ?? []).entries()) {
      await products.insertCheckoutField(tx, {
        brand_id: brandId, product_id: id, id: fieldIdFromLabel(field.label), position, label: field.label, type: field.type,
        required: field.required ?? false, options: field.options ?? null,
      });
    }
  }
  return ids;
}

async function insertTiers(
  tx: Queryable,
  brandId: string,
  owner: { hub_id: string | null; product_id: string | null },
  tiers: CatalogTier[],
  ids: Record<string, string>,
) {
  const explicitDefault = tiers.some((t) => t.isDefault);
  for (const [position, t] of tiers.entries()) {
    const id = (ids[t.ref] = newId('tier'));
    await products.insertTier(tx, {
      brand_id: brandId, id, ...owner, position, name: t.name,
      type: t.type ?? (t.recurrence ? 'recurring' : t.price.amount === 0 ? 'free' : 'one_off'),
      price_amount: toMinor(t.price.amount, t.price.currency)!, currency: t.price.currency,
      discount_amount: t.discount ? toMinor(t.discount.amount, t.price.currency) : null,
      recurrence_periodic: t.recurrence?.periodic ?? null,
      recurrence_interval: t.recurrence ? t.recurrence.interval ?? 1 : null,
      recurrence_count: t.recurrence ? t.recurrence.count ?? 0 : null,
      perks: t.perks ?? [], button_text: t.buttonText ?? null, time_bound: t.timeBound ? new Date(t.timeBound) : null,
      slots: t.slots ?? null, no_of_tickets: t.noOfTickets ?? 1, item_ids: (t.items ?? []).map((ref) => ids[ref]),
      is_default: explicitDefault ? t.isDefault === true : position === 0, archived: t.archived ?? false, status: t.status ?? 'active',
    });
  }
}

/** Checks the file's shape, then what a schema cannot: refs resolve, amounts fit the currency, ids are unique. */
export function parseCatalog(input: unknown): Catalog {
  if (!Value.Check(Catalog, input)) {
    const details = Value.Errors(Catalog, input).slice(0, 20).map((e) => ({
      field: e.instancePath.replace(/^\//, '').replaceAll('/', '.') || '(file)',
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
  const checkTiers = (tiers: CatalogTier[], path: string, itemRefs: Set<string>) => {
    if (tiers.filter((t) => t.isDefault).length > 1) problems.push({ field: `${path}.tiers`, message: 'at most one tier may be isDefault' });
    tiers.forEach((t, i) => {
      claim(t.ref, `${path}.tiers.${i}.ref`);
      if (toMinor(t.price.amount, t.price.currency) === null) problems.push({ field: `${path}.tiers.${i}.price.amount`, message: `has more decimals than ${t.price.currency} allows` });
      if (t.discount && t.discount.amount > t.price.amount) problems.push({ field: `${path}.tiers.${i}.discount.amount`, message: 'is more than the price' });
      for (const ref of t.items ?? []) {
        if (!itemRefs.has(ref)) problems.push({ field: `${path}.tiers.${i}.items`, message: `"${ref}" is not an item of this product` });
      }
    });
  };
  const hubRefs = new Set<string>();
  (catalog.hubs ?? []).forEach((hub, h) => {
    claim(hub.ref, `hubs.${h}.ref`);
    hubRefs.add(hub.ref);
    checkTiers(hub.tiers, `hubs.${h}`, new Set());
  });
  (catalog.products ?? []).forEach((p, i) => {
    const path = `products.${i}`;
    claim(p.ref, `${path}.ref`);
    if (p.hub && !hubRefs.has(p.hub)) problems.push({ field: `${path}.hub`, message: `"${p.hub}" is not a hub in this file` });
    if (p.type === 'event' && !p.event) problems.push({ field: `${path}.event`, message: 'is required for an event product' });
    const itemRefs = new Set<string>();
    (p.items ?? []).forEach((item, j) => { claim(item.ref, `${path}.items.${j}.ref`); itemRefs.add(item.ref); });
    (p.items ?? []).forEach((item, j) => {
      if (item.parent && !itemRefs.has(item.parent)) problems.push({ field: `${path}.items.${j}.parent`, message: `"${item.parent}" is not an item of this product` });
      if (item.isAddon && !item.price) problems.push({ field: `${path}.items.${j}.price`, message: 'is required for an add-on' });
    });
    checkTiers(p.tiers, path, itemRefs);
    const currencies = new Set(p.tiers.map((t) => t.price.currency));
    if (currencies.size > 1) problems.push({ field: `${path}.tiers`, message: 'all tiers of a product must use one currency' });
    const fieldIds = new Set<string>();
    (p.checkoutFields ?? []).forEach((f, j) => {
      const id = fieldIdFromLabel(f.label);
      if (reserved.has(id)) problems.push({ field: `${path}.checkoutFields.${j}.label`, message: `"${id}" is built in; do not declare it` });
      if (fieldIds.has(id)) problems.push({ field: `${path}.checkoutFields.${j}.label`, message: `gives the id "${id}" twice` });
      if (f.type === 'select' && !f.options) problems.push({ field: `${path}.checkoutFields.${j}.options`, message: 'is required for a select field' });
      fieldIds.add(id);
    });
  });
  if (problems.length) {
    throw new AppError('validation_failed', `The catalog file is invalid: ${problems[0].field} ${problems[0].message}.`, problems.slice(0, 100));
  }
  return catalog;
}
