import { Type, type Static } from 'typebox';
import type { ErrorDetail } from '../errors.ts';
import { toMinor } from '../money.ts';
import { fieldIdFromLabel } from './field-id.ts';
import { checkoutFieldFields, hubFields, itemFields, productFields, tierFields } from './fields.ts';

/**
 * The catalog's rules beyond shape, one set for the catalog file and the API writes. Both sides
 * turn what they were sent into drafts (a file's entries point at each other by ref, the API's by
 * id or by the ref of an item added in the same request: either way a `key`), and every problem
 * is reported with the path of the field as the sender wrote it: `tiers[1].price.amount` over
 * the API, `products[0].tiers[1].price.amount` in a file.
 */

const TierValues = Type.Object(tierFields);
const ItemValues = Type.Object(itemFields);
const CheckoutFieldValues = Type.Object(checkoutFieldFields);
const ProductValues = Type.Object(productFields);
const HubValues = Type.Object(hubFields);

export type TierValues = Static<typeof TierValues>;
export type ItemValues = Static<typeof ItemValues>;
export type CheckoutFieldValues = Static<typeof CheckoutFieldValues>;
export type ProductValues = Static<typeof ProductValues>;
export type HubValues = Static<typeof HubValues>;

export interface TierDraft extends TierValues {
  /** The ref (file) or id (API) it was given, if any. */
  key?: string;
  /** Keys of the items it includes. */
  itemKeys: string[];
}

export interface ItemDraft extends ItemValues {
  key?: string;
  parentKey?: string;
}

export interface CheckoutFieldDraft extends CheckoutFieldValues {
  /** An existing field's id (API updates); a new field's id is derived from its label. */
  id?: string;
}

/** What the sender calls the pointer fields: the file's `items`/`parent`, the API's `itemIDs`/`parentId`. */
export interface PointerNames {
  tierItems: 'items' | 'itemIDs';
  parent: 'parent' | 'parentId';
}

/** `path('products[0]', 'tiers', 1, 'price')` → `products[0].tiers[1].price`. */
export function path(at: string, ...parts: (string | number)[]): string {
  let out = at;
  for (const part of parts) out = typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${part}` : part;
  return out;
}

/** Built into every checkout; a product does not declare them. */
const builtInFields = new Set(['fullName', 'email', 'phone']);

/**
 * A product's or hub's tiers. `itemKeys` is the set of items a tier may include (none for a
 * hub); `archived` tiers may keep pointing at items that are themselves archived.
 */
export function checkTiers(tiers: TierDraft[], at: string, itemKeys: Set<string>, names: PointerNames, problems: ErrorDetail[]) {
  if (tiers.filter((t) => t.isDefault).length > 1) problems.push({ field: path(at, 'tiers'), message: 'at most one tier may be isDefault' });
  tiers.forEach((t, i) => {
    const here = (...parts: (string | number)[]) => path(at, 'tiers', i, ...parts);
    if (toMinor(t.price.amount, t.price.currency) === null) problems.push({ field: here('price', 'amount'), message: `has more decimals than ${t.price.currency} allows` });
    if (t.discount) {
      if (t.discount.currency !== undefined && t.discount.currency !== t.price.currency) {
        problems.push({ field: here('discount', 'currency'), message: `must be the price's currency, ${t.price.currency}` });
      } else if (t.discount.amount > t.price.amount) {
        problems.push({ field: here('discount', 'amount'), message: 'is more than the price' });
      } else if (toMinor(t.discount.amount, t.price.currency) === null) {
        problems.push({ field: here('discount', 'amount'), message: `has more decimals than ${t.price.currency} allows` });
      }
    }
    t.itemKeys.forEach((key, j) => {
      if (!itemKeys.has(key)) problems.push({ field: here(names.tierItems, j), message: `"${key}" is not an item of this product` });
    });
  });
  if (new Set(tiers.map((t) => t.price.currency)).size > 1) problems.push({ field: path(at, 'tiers'), message: 'all tiers of a product must use one currency' });
}

/** A product's items: add-ons are priced, parents are items of the same product. */
export function checkItems(items: ItemDraft[], at: string, names: PointerNames, problems: ErrorDetail[]) {
  const keys = new Set(items.flatMap((item) => (item.key ? [item.key] : [])));
  items.forEach((item, j) => {
    if (item.parentKey !== undefined && !keys.has(item.parentKey)) {
      problems.push({ field: path(at, 'items', j, names.parent), message: `"${item.parentKey}" is not an item of this product` });
    }
    if (item.isAddon && !item.price) problems.push({ field: path(at, 'items', j, 'price'), message: 'is required for an add-on' });
    if (item.price && toMinor(item.price.amount, item.price.currency) === null) {
      problems.push({ field: path(at, 'items', j, 'price', 'amount'), message: `has more decimals than ${item.price.currency} allows` });
    }
  });
}

/**
 * A product's checkout fields; returns each field's id: the one it has (API updates keep a
 * field's id when its label changes, so answers already stored under it stay connected) or the
 * one derived from its label. Ids must be unique and not a built-in field.
 */
export function checkCheckoutFields(fields: CheckoutFieldDraft[], at: string, problems: ErrorDetail[]): string[] {
  const seen = new Map<string, number>();
  return fields.map((f, j) => {
    const id = f.id ?? fieldIdFromLabel(f.label);
    const here = path(at, 'checkoutFields', j);
    if (f.id === undefined && builtInFields.has(id)) problems.push({ field: path(here, 'label'), message: `gives the id "${id}", which is built in; do not declare it` });
    else if (seen.has(id)) problems.push({ field: path(here, f.id === undefined ? 'label' : 'id'), message: `gives the id "${id}", as checkoutFields[${seen.get(id)}] does; ids must be unique` });
    if (f.type === 'select' && !f.options) problems.push({ field: path(here, 'options'), message: 'is required for a select field' });
    seen.set(id, j);
    return id;
  });
}

/** A product's own fields: an event needs its details. */
export function checkProductValues(p: Pick<ProductValues, 'type' | 'event'>, at: string, problems: ErrorDetail[]) {
  if (p.type === 'event' && !p.event) problems.push({ field: path(at, 'event'), message: 'is required for an event product' });
}

/** Which tier is the default: the one marked, else the first (README, "Catalog files"). */
export function defaultFlags(tiers: Pick<TierDraft, 'isDefault'>[]): boolean[] {
  const explicit = tiers.some((t) => t.isDefault);
  return tiers.map((t, i) => (explicit ? t.isDefault === true : i === 0));
}
