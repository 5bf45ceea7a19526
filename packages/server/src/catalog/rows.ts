import { toMinor } from '../money.ts';
import type { CheckoutFieldRow, ItemRow, NewProduct, TierRow } from '../products/repository.ts';
import type { CheckoutFieldDraft, ItemDraft, ProductValues, TierDraft } from './rules.ts';

/**
 * Checked drafts (catalog/rules.ts) to the rows the products repository stores: the one place
 * that says how a written value is stored (amounts in minor units, defaults filled in), for the
 * catalog file and the API alike.
 */

export function tierRow(
  t: TierDraft,
  at: { brandId: string; id: string; productId: string | null; hubId: string | null; position: number; isDefault: boolean; itemIds: string[] },
): TierRow {
  return {
    brand_id: at.brandId, id: at.id, product_id: at.productId, hub_id: at.hubId, position: at.position, name: t.name,
    type: t.type ?? (t.recurrence ? 'recurring' : t.price.amount === 0 ? 'free' : 'one_off'),
    price_amount: toMinor(t.price.amount, t.price.currency)!, currency: t.price.currency,
    discount_amount: t.discount ? toMinor(t.discount.amount, t.price.currency) : null,
    recurrence_periodic: t.recurrence?.periodic ?? null,
    recurrence_interval: t.recurrence ? t.recurrence.interval ?? 1 : null,
    recurrence_count: t.recurrence ? t.recurrence.count ?? 0 : null,
    perks: t.perks ?? [], button_text: t.buttonText ?? null, time_bound: t.timeBound ? new Date(t.timeBound) : null,
    slots: t.slots ?? null, no_of_tickets: t.noOfTickets ?? 1, item_ids: at.itemIds,
    is_default: at.isDefault, archived: t.archived ?? false, status: t.status ?? 'active',
  };
}

export function itemRow(item: ItemDraft, at: { brandId: string; id: string; productId: string; position: number; parentId: string | null }): ItemRow {
  return {
    brand_id: at.brandId, id: at.id, product_id: at.productId, position: at.position, type: item.type, title: item.title,
    description: item.description ?? null, image: item.image ?? null, duration: item.duration ?? null,
    is_addon: item.isAddon ?? false, parent_id: at.parentId,
    price_amount: item.price ? toMinor(item.price.amount, item.price.currency) : null, currency: item.price?.currency ?? null,
    archived: item.archived ?? false,
  };
}

export function checkoutFieldRow(f: CheckoutFieldDraft, at: { brandId: string; productId: string; id: string; position: number }): CheckoutFieldRow {
  return {
    brand_id: at.brandId, product_id: at.productId, id: at.id, position: at.position, label: f.label, type: f.type,
    required: f.required ?? false, options: f.options ?? null,
  };
}

/** A product's own columns; `is_free` is worked out from its tiers (isFree). */
export function productColumns(p: ProductValues): Omit<NewProduct, 'brand_id' | 'id' | 'hub_id' | 'is_free' | 'created_at'> {
  return {
    type: p.type, status: p.status ?? 'published', title: p.title, description: p.description ?? null,
    image_url: p.imageUrl ?? null, url: p.url ?? null, visibility: p.visibility ?? 'public', keywords: p.keywords ?? [],
    event_type: p.event?.eventType ?? null, event_venue: p.event?.venue ?? null,
    event_date_time: p.event?.dateTime ? new Date(p.event.dateTime) : null, event_end_date: p.event?.endDate ? new Date(p.event.endDate) : null,
  };
}

/** A product is free when every tier still on sale costs nothing. */
export const isFree = (tiers: Pick<TierRow, 'archived' | 'price_amount'>[]) => tiers.filter((t) => !t.archived).every((t) => t.price_amount === 0);
