import { toMajor } from '../money.ts';
import type { CheckoutFieldRow, ItemRow, ProductRow, TierRow } from './repository.ts';
import type { CheckoutField, Item, ItemContent, Product, ProductSummary, Tier } from './schemas.ts';

// Optional fields are left out when the product has no value for them (never null), so every
// field that is present has the type the reference gives it.

/**
 * `pageBase` is the brand's storefront product address without the id (`https://…/s/{slug}/p/`):
 * a product without its own `url` answers its page on this service (docs/storefront.md).
 */
export function renderProductSummary(row: ProductRow, pageBase?: string): ProductSummary {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    title: row.title,
    description: row.description ?? '',
    ...(row.image_url ? { imageUrl: row.image_url } : {}),
    ...(row.url ? { url: row.url } : pageBase ? { url: `${pageBase}${encodeURIComponent(row.id)}` } : {}),
    visibility: row.visibility,
    isFree: row.is_free,
    keywords: row.keywords,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    ...(row.event_type && row.event_date_time
      ? {
          event: {
            eventType: row.event_type,
            venue: row.event_venue ?? '',
            dateTime: row.event_date_time.toISOString(),
            ...(row.event_end_date ? { endDate: row.event_end_date.toISOString() } : {}),
          },
        }
      : {}),
    ...(row.hub_id ? { hubID: row.hub_id } : {}),
  };
}

export function renderTier(row: TierRow): Tier {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    price: { amount: toMajor(row.price_amount, row.currency), currency: row.currency },
    ...(row.discount_amount !== null ? { discount: { amount: toMajor(row.discount_amount, row.currency), currency: row.currency } } : {}),
    ...(row.recurrence_periodic
      ? { recurrence: { periodic: row.recurrence_periodic, interval: row.recurrence_interval ?? 1, count: row.recurrence_count ?? 0 } }
      : {}),
    perks: row.perks,
    ...(row.button_text ? { buttonText: row.button_text } : {}),
    ...(row.time_bound ? { timeBound: row.time_bound.toISOString() } : {}),
    ...(row.slots !== null ? { slots: row.slots } : {}),
    noOfTickets: row.no_of_tickets,
    itemIDs: row.item_ids,
    isDefault: row.is_default,
    archived: row.archived,
    status: row.status,
  };
}

export function renderItem(row: ItemRow): Item {
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    ...(row.description ? { description: row.description } : {}),
    ...(row.image ? { image: row.image } : {}),
    ...(row.duration !== null ? { duration: row.duration } : {}),
    isAddon: row.is_addon,
    ...(row.parent_id ? { parentId: row.parent_id } : {}),
    ...(row.price_amount !== null && row.currency ? { price: { amount: toMajor(row.price_amount, row.currency), currency: row.currency } } : {}),
    ...(row.archived ? { archived: true } : {}),
    ...(renderItemContent(row) ? { content: renderItemContent(row) } : {}),
  };
}

export function renderItemContent(row: ItemRow): ItemContent | undefined {
  if (row.content_url) return { kind: 'url', url: row.content_url };
  if (!row.file_key) return undefined;
  return {
    kind: 'file',
    fileName: row.file_name ?? 'file',
    contentType: row.file_type ?? 'application/octet-stream',
    size: Number(row.file_size ?? 0),
    sha256: row.file_sha256 ?? '',
    version: row.file_version ?? 1,
    ...(row.file_updated_at ? { updatedAt: row.file_updated_at.toISOString() } : {}),
  };
}

export function renderCheckoutField(row: CheckoutFieldRow): CheckoutField {
  return {
    id: row.id,
    label: row.label,
    type: row.type,
    required: row.required,
    ...(row.options ? { options: row.options } : {}),
  };
}

export function renderProduct(row: ProductRow, tiers: TierRow[], items: ItemRow[], fields: CheckoutFieldRow[], pageBase?: string): Product {
  return {
    ...renderProductSummary(row, pageBase),
    tiers: tiers.map(renderTier),
    items: items.map(renderItem),
    checkoutFields: fields.map(renderCheckoutField),
  };
}
