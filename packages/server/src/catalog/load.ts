import Value from 'typebox/value';
import type { Db, Queryable } from '../db/client.ts';
import { AppError, type ErrorDetail } from '../errors.ts';
import { newId } from '../ids.ts';
import { toMinor } from '../money.ts';
import { fieldIdFromLabel } from './field-id.ts';
import { Catalog, type CatalogTier } from './schema.ts';

const reserved = new Set(['fullName', 'email', 'phone']);

/** Loads a catalog file into a brand in one transaction; returns the created ids keyed by ref. */
export async function loadCatalog(db: Db, brandId: string, input: unknown): Promise<Record<string, string>> {
  const catalog = parseCatalog(input);
  return db.transaction(async (tx) => {
    const [brand] = await tx.query('SELECT id FROM brands WHERE id = $1', [brandId]);
    if (!brand) throw new AppError('not_found', `No brand with id ${brandId} exists.`);
    const ids: Record<string, string> = {};
    // Rows of one file share a millisecond; spacing them 1 ms apart keeps newest-first lists in file order.
    const base = Date.now();
    let sequence = 0;
    const createdAt = () => new Date(base + sequence++);
    for (const hub of catalog.hubs ?? []) {
      const id = (ids[hub.ref] = newId('hub'));
      await tx.query('INSERT INTO hubs (brand_id, id, name, description, created_at) VALUES ($1, $2, $3, $4, $5)', [brandId, id, hub.name, hub.description ?? null, createdAt()]);
      await insertTiers(tx, brandId, { hub_id: id, product_id: null }, hub.tiers, ids);
    }
    for (const p of catalog.products ?? []) {
      const id = (ids[p.ref] = newId('prod'));
      const isFree = p.tiers.filter((t) => !t.archived).every((t) => t.price.amount === 0);
      await tx.query(
        `INSERT INTO products (brand_id, id, hub_id, type, status, title, description, image_url, url, visibility, is_free,
           keywords, event_type, event_venue, event_date_time, event_end_date, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $17)`,
        [brandId, id, p.hub ? ids[p.hub] : null, p.type, p.status ?? 'published', p.title, p.description ?? null,
          p.imageUrl ?? null, p.url ?? null, p.visibility ?? 'public', isFree, p.keywords ?? [],
          p.event?.eventType ?? null, p.event?.venue ?? null, p.event?.dateTime ?? null, p.event?.endDate ?? null, createdAt()],
      );
      for (const item of p.items ?? []) ids[item.ref] = newId('item');
      for (const [position, item] of (p.items ?? []).entries()) {
        await tx.query(
          `INSERT INTO items (brand_id, id, product_id, position, type, title, description, image, duration, is_addon, parent_id, price_amount, currency)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
          [brandId, ids[item.ref], id, position, item.type, item.title, item.description ?? null, item.image ?? null,
            item.duration ?? null, item.isAddon ?? false, item.parent ? ids[item.parent] : null,
            item.price ? toMinor(item.price.amount, item.price.currency) : null, item.price?.currency ?? null],
        );
      }
      await insertTiers(tx, brandId, { hub_id: null, product_id: id }, p.tiers, ids);
      for (const [position, field] of (p.checkoutFields ?? []).entries()) {
        await tx.query(
          `INSERT INTO checkout_fields (brand_id, product_id, id, position, label, type, required, options)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [brandId, id, fieldIdFromLabel(field.label), position, field.label, field.type, field.required ?? false, field.options ?? null],
        );
      }
    }
    return ids;
  });
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
    const type = t.type ?? (t.recurrence ? 'recurring' : t.price.amount === 0 ? 'free' : 'one_off');
    await tx.query(
      `INSERT INTO tiers (brand_id, id, product_id, hub_id, position, name, type, price_amount, currency, discount_amount,
         recurrence_periodic, recurrence_interval, recurrence_count, perks, button_text, time_bound, slots, no_of_tickets,
         item_ids, is_default, archived, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)`,
      [brandId, id, owner.product_id, owner.hub_id, position, t.name, type, toMinor(t.price.amount, t.price.currency), t.price.currency,
        t.discount ? toMinor(t.discount.amount, t.price.currency) : null,
        t.recurrence?.periodic ?? null, t.recurrence ? t.recurrence.interval ?? 1 : null, t.recurrence ? t.recurrence.count ?? 0 : null,
        t.perks ?? [], t.buttonText ?? null, t.timeBound ?? null, t.slots ?? null, t.noOfTickets ?? 1,
        (t.items ?? []).map((ref) => ids[ref]), explicitDefault ? t.isDefault === true : position === 0, t.archived ?? false, t.status ?? 'active'],
    );
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
