import type { Queryable } from '../db/client.ts';
import { afterCursor, type PageRequest } from '../db/paging.ts';

export interface ProductRow {
  brand_id: string;
  id: string;
  hub_id: string | null;
  type: string;
  status: string;
  title: string;
  description: string | null;
  image_url: string | null;
  url: string | null;
  visibility: string;
  is_free: boolean;
  keywords: string[];
  event_type: string | null;
  event_venue: string | null;
  event_date_time: Date | null;
  event_end_date: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface TierRow {
  brand_id: string;
  id: string;
  product_id: string | null;
  hub_id: string | null;
  position: number;
  name: string;
  type: string;
  price_amount: number;
  currency: string;
  discount_amount: number | null;
  recurrence_periodic: 'daily' | 'weekly' | 'monthly' | 'yearly' | null;
  recurrence_interval: number | null;
  recurrence_count: number | null;
  perks: string[];
  button_text: string | null;
  time_bound: Date | null;
  slots: number | null;
  no_of_tickets: number;
  item_ids: string[];
  is_default: boolean;
  archived: boolean;
  status: string;
}

export interface ItemRow {
  brand_id: string;
  id: string;
  product_id: string;
  position: number;
  type: string;
  title: string;
  description: string | null;
  image: string | null;
  duration: number | null;
  is_addon: boolean;
  parent_id: string | null;
  price_amount: number | null;
  currency: string | null;
  archived: boolean;
  /** The item's content (docs/files.md): a URL, or a file in the file store (files/); read with SELECT *, never written by the catalog. */
  content_url?: string | null;
  file_key?: string | null;
  file_name?: string | null;
  file_type?: string | null;
  file_size?: number | string | null;
  file_sha256?: string | null;
  file_version?: number;
  file_updated_at?: Date | null;
}

export interface CheckoutFieldRow {
  brand_id: string;
  product_id: string;
  id: string;
  position: number;
  label: string;
  type: string;
  required: boolean;
  options: string[] | null;
}

const productColumns = `brand_id, id, hub_id, type, status, title, description, image_url, url, visibility, is_free,
  keywords, event_type, event_venue, event_date_time, event_end_date, created_at, updated_at`;

/** One page of a brand's products, newest first; fetches limit + 1 rows to tell whether more exist. */
export function listProducts(db: Queryable, brandId: string, page: PageRequest): Promise<ProductRow[]> {
  const after = afterCursor(page, 3);
  return db.query<ProductRow>(
    `SELECT ${productColumns} FROM products
     WHERE brand_id = $1 ${after.sql}
     ORDER BY created_at DESC, id DESC
     LIMIT $2`,
    [brandId, page.limit + 1, ...after.params],
    page.after ? 'list_products_after' : 'list_products_first',
  );
}

export async function findProduct(db: Queryable, brandId: string, id: string): Promise<ProductRow | undefined> {
  const [row] = await db.query<ProductRow>(`SELECT ${productColumns} FROM products WHERE brand_id = $1 AND id = $2`, [brandId, id]);
  return row;
}

export function productTiers(db: Queryable, brandId: string, productId: string): Promise<TierRow[]> {
  return db.query<TierRow>('SELECT * FROM tiers WHERE brand_id = $1 AND product_id = $2 ORDER BY position', [brandId, productId]);
}

export function productItems(db: Queryable, brandId: string, productId: string): Promise<ItemRow[]> {
  return db.query<ItemRow>('SELECT * FROM items WHERE brand_id = $1 AND product_id = $2 ORDER BY position', [brandId, productId]);
}

export function productCheckoutFields(db: Queryable, brandId: string, productId: string): Promise<CheckoutFieldRow[]> {
  return db.query<CheckoutFieldRow>(
    'SELECT * FROM checkout_fields WHERE brand_id = $1 AND product_id = $2 ORDER BY position',
    [brandId, productId],
  );
}

/**
 * One tier. `forShare` holds it until the caller's transaction ends, so a catalog write that
 * removes it (lockTiers) waits and then sees what the caller made of it (a payment link naming it).
 */
export async function findTier(db: Queryable, brandId: string, id: string, opts: { forShare?: boolean } = {}): Promise<TierRow | undefined> {
  const [row] = await db.query<TierRow>(`SELECT * FROM tiers WHERE brand_id = $1 AND id = $2${opts.forShare ? ' FOR SHARE' : ''}`, [brandId, id]);
  return row;
}

/** Locks tiers about to be removed, so nothing can start naming them while it is decided whether they were sold. */
export async function lockTiers(db: Queryable, brandId: string, ids: string[]): Promise<void> {
  if (ids.length) await db.query('SELECT id FROM tiers WHERE brand_id = $1 AND id = ANY($2) ORDER BY id FOR UPDATE', [brandId, ids]);
}

/** A hub's membership tiers (its plans), in catalog order. */
export function hubTiers(db: Queryable, brandId: string, hubId: string): Promise<TierRow[]> {
  return db.query<TierRow>('SELECT * FROM tiers WHERE brand_id = $1 AND hub_id = $2 ORDER BY position', [brandId, hubId]);
}

export type NewProduct = Omit<ProductRow, 'updated_at'>;

export async function insertProduct(db: Queryable, p: NewProduct): Promise<void> {
  await db.query(
    `INSERT INTO products (brand_id, id, hub_id, type, status, title, description, image_url, url, visibility, is_free,
       keywords, event_type, event_venue, event_date_time, event_end_date, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $17)`,
    [p.brand_id, p.id, p.hub_id, p.type, p.status, p.title, p.description, p.image_url, p.url, p.visibility, p.is_free,
      p.keywords, p.event_type, p.event_venue, p.event_date_time, p.event_end_date, p.created_at],
  );
}

export async function insertItem(db: Queryable, i: ItemRow): Promise<void> {
  await db.query(
    `INSERT INTO items (brand_id, id, product_id, position, type, title, description, image, duration, is_addon, parent_id, price_amount, currency, archived)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
    [i.brand_id, i.id, i.product_id, i.position, i.type, i.title, i.description, i.image, i.duration, i.is_addon, i.parent_id, i.price_amount, i.currency, i.archived],
  );
}

export async function insertTier(db: Queryable, t: TierRow): Promise<void> {
  await db.query(
    `INSERT INTO tiers (brand_id, id, product_id, hub_id, position, name, type, price_amount, currency, discount_amount,
       recurrence_periodic, recurrence_interval, recurrence_count, perks, button_text, time_bound, slots, no_of_tickets,
       item_ids, is_default, archived, status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)`,
    [t.brand_id, t.id, t.product_id, t.hub_id, t.position, t.name, t.type, t.price_amount, t.currency, t.discount_amount,
      t.recurrence_periodic, t.recurrence_interval, t.recurrence_count, t.perks, t.button_text, t.time_bound, t.slots, t.no_of_tickets,
      t.item_ids, t.is_default, t.archived, t.status],
  );
}

export async function insertCheckoutField(db: Queryable, f: CheckoutFieldRow): Promise<void> {
  await db.query(
    `INSERT INTO checkout_fields (brand_id, product_id, id, position, label, type, required, options)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [f.brand_id, f.product_id, f.id, f.position, f.label, f.type, f.required, f.options],
  );
}

/**
 * The product, locked until the caller's transaction ends, so two edits of one product run one
 * after the other (each sees the tiers the other left) instead of interleaving.
 */
export async function lockProduct(db: Queryable, brandId: string, id: string): Promise<ProductRow | undefined> {
  const [row] = await db.query<ProductRow>(`SELECT ${productColumns} FROM products WHERE brand_id = $1 AND id = $2 FOR UPDATE`, [brandId, id]);
  return row;
}

export async function updateProduct(db: Queryable, p: Omit<ProductRow, 'created_at' | 'updated_at'>): Promise<void> {
  await db.query(
    `UPDATE products SET hub_id = $3, type = $4, status = $5, title = $6, description = $7, image_url = $8, url = $9,
       visibility = $10, is_free = $11, keywords = $12, event_type = $13, event_venue = $14, event_date_time = $15,
       event_end_date = $16, updated_at = date_trunc('milliseconds', clock_timestamp())
     WHERE brand_id = $1 AND id = $2`,
    [p.brand_id, p.id, p.hub_id, p.type, p.status, p.title, p.description, p.image_url, p.url, p.visibility, p.is_free,
      p.keywords, p.event_type, p.event_venue, p.event_date_time, p.event_end_date],
  );
}

/** Rewrites every column of a tier but its owner. */
export async function updateTier(db: Queryable, t: TierRow): Promise<void> {
  await db.query(
    `UPDATE tiers SET position = $3, name = $4, type = $5, price_amount = $6, currency = $7, discount_amount = $8,
       recurrence_periodic = $9, recurrence_interval = $10, recurrence_count = $11, perks = $12, button_text = $13,
       time_bound = $14, slots = $15, no_of_tickets = $16, item_ids = $17, is_default = $18, archived = $19, status = $20
     WHERE brand_id = $1 AND id = $2`,
    [t.brand_id, t.id, t.position, t.name, t.type, t.price_amount, t.currency, t.discount_amount, t.recurrence_periodic,
      t.recurrence_interval, t.recurrence_count, t.perks, t.button_text, t.time_bound, t.slots, t.no_of_tickets, t.item_ids,
      t.is_default, t.archived, t.status],
  );
}

export async function deleteTiers(db: Queryable, brandId: string, ids: string[]): Promise<void> {
  if (ids.length) await db.query('DELETE FROM tiers WHERE brand_id = $1 AND id = ANY($2)', [brandId, ids]);
}

/** Rewrites every column of an item but its product. */
export async function updateItem(db: Queryable, i: ItemRow): Promise<void> {
  await db.query(
    `UPDATE items SET position = $3, type = $4, title = $5, description = $6, image = $7, duration = $8, is_addon = $9,
       parent_id = $10, price_amount = $11, currency = $12, archived = $13
     WHERE brand_id = $1 AND id = $2`,
    [i.brand_id, i.id, i.position, i.type, i.title, i.description, i.image, i.duration, i.is_addon, i.parent_id,
      i.price_amount, i.currency, i.archived],
  );
}

export async function deleteItems(db: Queryable, brandId: string, ids: string[]): Promise<void> {
  if (ids.length) await db.query('DELETE FROM items WHERE brand_id = $1 AND id = ANY($2)', [brandId, ids]);
}

/** Checkout fields are kept as a list: an edit replaces the product's whole list. */
export async function deleteCheckoutFields(db: Queryable, brandId: string, productId: string): Promise<void> {
  await db.query('DELETE FROM checkout_fields WHERE brand_id = $1 AND product_id = $2', [brandId, productId]);
}

/** One item of one product, locked until the caller's transaction ends when `forUpdate`. */
export async function findItem(db: Queryable, brandId: string, productId: string, itemId: string, opts: { forUpdate?: boolean } = {}): Promise<ItemRow | undefined> {
  const [row] = await db.query<ItemRow>(
    `SELECT * FROM items WHERE brand_id = $1 AND product_id = $2 AND id = $3${opts.forUpdate ? ' FOR UPDATE' : ''}`,
    [brandId, productId, itemId],
  );
  return row;
}

/** The item's content becomes this file (a new version) and its URL is cleared. */
export async function setItemFile(db: Queryable, brandId: string, itemId: string, file: { key: string; name: string; type: string; size: number; sha256: string }): Promise<ItemRow> {
  const [row] = await db.query<ItemRow>(
    `UPDATE items SET content_url = NULL, file_key = $3, file_name = $4, file_type = $5, file_size = $6, file_sha256 = $7,
       file_version = file_version + 1, file_updated_at = date_trunc('milliseconds', clock_timestamp())
     WHERE brand_id = $1 AND id = $2 RETURNING *`,
    [brandId, itemId, file.key, file.name, file.type, file.size, file.sha256],
  );
  return row;
}

/** The item's content becomes this URL (or nothing, with null); a file it had is let go. */
export async function setItemUrl(db: Queryable, brandId: string, itemId: string, url: string | null): Promise<ItemRow> {
  const [row] = await db.query<ItemRow>(
    `UPDATE items SET content_url = $3, file_key = NULL, file_name = NULL, file_type = NULL, file_size = NULL, file_sha256 = NULL,
       file_updated_at = NULL
     WHERE brand_id = $1 AND id = $2 RETURNING *`,
    [brandId, itemId, url],
  );
  return row;
}

/** Whether the brand has made any product (the home's setup checklist). */
export async function hasProducts(db: Queryable, brandId: string): Promise<boolean> {
  const [row] = await db.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM products WHERE brand_id = $1) AS any', [brandId]);
  return row.any;
}
