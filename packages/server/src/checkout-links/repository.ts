import type { Queryable } from '../db/client.ts';
import type { Mode } from '../auth/principal.ts';
import { afterCursor, type PageRequest } from '../db/paging.ts';

export interface CheckoutLinkRow {
  brand_id: string;
  id: string;
  mode: Mode;
  name: string | null;
  /** The tiers it sells, each with its preselected add-ons and amount range (stored in the jsonb as sent, checked on write). */
  items: { id: string; plan: string; addons?: string[]; customAmountRange?: { min?: number; max?: number } }[];
  status: 'active' | 'disabled';
  expires_at: Date | null;
  max_sales: number | null;
  sales_held: number;
  redirect_url: string | null;
  /** The preset coupon code (migration 024). */
  coupon?: string | null;
  via: string | null;
  app_id: string | null;
  created_at: Date;
  updated_at: Date;
  /** Completed payments through the link (counted by the queries below). */
  sales: number;
}

// Completed sales: the buyers' payment links that were paid.
const withSales = `c.*, (SELECT count(*)::int FROM payment_links p
  WHERE p.brand_id = c.brand_id AND p.checkout_link_id = c.id AND p.status = 'completed') AS sales`;

export async function insertCheckoutLink(db: Queryable, l: Omit<CheckoutLinkRow, 'sales' | 'sales_held' | 'status' | 'created_at' | 'updated_at'>): Promise<CheckoutLinkRow> {
  const [row] = await db.query<CheckoutLinkRow>(
    `INSERT INTO checkout_links (brand_id, id, mode, name, items, status, expires_at, max_sales, redirect_url, via, app_id, coupon)
     VALUES ($1, $2, $3, $4, $5::text::jsonb, 'active', $6, $7, $8, $9, $10, $11) RETURNING *, 0 AS sales`,
    [l.brand_id, l.id, l.mode, l.name, JSON.stringify(l.items), l.expires_at, l.max_sales, l.redirect_url, l.via, l.app_id, l.coupon ?? null],
  );
  return row;
}

/** A link of the brand in this mode (a test key never sees live links); `mode` undefined: either (the public page). */
export async function findCheckoutLink(db: Queryable, brandId: string, id: string, mode?: Mode, options: { forUpdate?: boolean } = {}) {
  const [row] = await db.query<CheckoutLinkRow>(
    `SELECT ${withSales} FROM checkout_links c WHERE c.brand_id = $1 AND c.id = $2 AND ($3::text IS NULL OR c.mode = $3)${options.forUpdate ? ' FOR UPDATE OF c' : ''}`,
    [brandId, id, mode ?? null],
  );
  return row;
}

export function listCheckoutLinks(db: Queryable, brandId: string, mode: Mode, page: PageRequest, filter: { tier?: string } = {}) {
  const after = afterCursor(page, 5);
  return db.query<CheckoutLinkRow>(
    `SELECT ${withSales} FROM checkout_links c
     WHERE c.brand_id = $1 AND c.mode = $2 AND ($4::text IS NULL OR c.items @> jsonb_build_array(jsonb_build_object('plan', $4::text))) ${after.sql.replace('(created_at, id)', '(c.created_at, c.id)')}
     ORDER BY c.created_at DESC, c.id DESC
     LIMIT $3`,
    [brandId, mode, page.limit + 1, filter.tier ?? null, ...after.params],
  );
}

export type CheckoutLinkChange = Partial<Pick<CheckoutLinkRow, 'name' | 'status' | 'expires_at' | 'max_sales' | 'redirect_url' | 'items' | 'coupon'>>;

export async function updateCheckoutLink(db: Queryable, brandId: string, id: string, change: CheckoutLinkChange) {
  const columns = (['name', 'status', 'expires_at', 'max_sales', 'redirect_url', 'items', 'coupon'] as const).filter((c) => change[c] !== undefined);
  const values = columns.map((c) => (c === 'items' ? JSON.stringify(change.items) : change[c] ?? null));
  await db.query(
    `UPDATE checkout_links SET ${columns.map((c, i) => `${c} = $${i + 3}${c === 'items' ? '::text::jsonb' : ''}`).join(', ')}${columns.length ? ', ' : ''}
       updated_at = date_trunc('milliseconds', clock_timestamp())
     WHERE brand_id = $1 AND id = $2`,
    [brandId, id, ...values],
  );
  return findCheckoutLink(db, brandId, id);
}

/**
 * The newest active link selling this tier, live before test: where a public product page's
 * button for the tier goes.
 */
export async function linkForTier(db: Queryable, brandId: string, tierId: string): Promise<CheckoutLinkRow | undefined> {
  const [row] = await db.query<CheckoutLinkRow>(
    `SELECT ${withSales} FROM checkout_links c
     WHERE c.brand_id = $1 AND c.status = 'active' AND (c.expires_at IS NULL OR c.expires_at > clock_timestamp())
       AND c.items @> jsonb_build_array(jsonb_build_object('plan', $2::text))
     ORDER BY c.mode = 'live' DESC, c.created_at DESC LIMIT 1`,
    [brandId, tierId],
  );
  return row;
}

/** Takes one sale of the link's cap; false when it is used up (pending and paid payments count). */
export async function takeSale(db: Queryable, brandId: string, id: string): Promise<boolean> {
  const rows = await db.query(
    `UPDATE checkout_links SET sales_held = sales_held + 1
     WHERE brand_id = $1 AND id = $2 AND (max_sales IS NULL OR sales_held < max_sales) RETURNING id`,
    [brandId, id],
  );
  return rows.length === 1;
}

export async function giveSaleBack(db: Queryable, brandId: string, id: string): Promise<void> {
  await db.query('UPDATE checkout_links SET sales_held = greatest(sales_held - 1, 0) WHERE brand_id = $1 AND id = $2', [brandId, id]);
}

/** Whether the brand has made a reusable checkout link in either mode (the home's setup checklist). */
export async function hasCheckoutLinks(db: Queryable, brandId: string): Promise<boolean> {
  const [row] = await db.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM checkout_links WHERE brand_id = $1) AS any', [brandId]);
  return row.any;
}
