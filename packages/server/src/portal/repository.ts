import type { Mode } from '../auth/principal.ts';
import type { Queryable } from '../db/client.ts';

/** portal_links, portal_sessions and item_downloads (migration 026). */

export interface PortalLinkRow {
  token_hash: string;
  brand_id: string;
  mode: Mode;
  email: string;
  deep_link: string | null;
  return_url: string | null;
  expires_at: Date;
  used_at: Date | null;
  created_at: Date;
}

export interface PortalSessionRow {
  token_hash: string;
  brand_id: string;
  mode: Mode;
  email: string;
  return_url: string | null;
  expires_at: Date;
}

export async function insertLink(db: Queryable, l: Pick<PortalLinkRow, 'token_hash' | 'brand_id' | 'mode' | 'email' | 'deep_link' | 'return_url'> & { ttlMs: number }): Promise<PortalLinkRow> {
  const [row] = await db.query<PortalLinkRow>(
    `INSERT INTO portal_links (token_hash, brand_id, mode, email, deep_link, return_url, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, clock_timestamp() + make_interval(secs => $7::double precision / 1000)) RETURNING *`,
    [l.token_hash, l.brand_id, l.mode, l.email, l.deep_link, l.return_url, l.ttlMs],
  );
  return row;
}

/** Sign-in links sent to this address by this brand lately: the emailed link's rate limit. */
export async function recentLinks(db: Queryable, brandId: string, email: string, sinceMs: number): Promise<number> {
  const [row] = await db.query<{ n: string }>(
    `SELECT count(*) AS n FROM portal_links
     WHERE brand_id = $1 AND lower(email) = lower($2) AND created_at > clock_timestamp() - make_interval(secs => $3::double precision / 1000)`,
    [brandId, email, sinceMs],
  );
  return Number(row.n);
}

/** Uses a link once: the row if it was unused and unexpired, now marked used; else undefined. */
export async function useLink(db: Queryable, brandId: string, tokenHash: string): Promise<PortalLinkRow | undefined> {
  const [row] = await db.query<PortalLinkRow>(
    `UPDATE portal_links SET used_at = clock_timestamp()
     WHERE token_hash = $1 AND brand_id = $2 AND used_at IS NULL AND expires_at > clock_timestamp() RETURNING *`,
    [tokenHash, brandId],
  );
  return row;
}

export async function insertSession(db: Queryable, s: Omit<PortalSessionRow, 'expires_at'> & { ttlMs: number }): Promise<void> {
  await db.query(
    `INSERT INTO portal_sessions (token_hash, brand_id, mode, email, return_url, expires_at)
     VALUES ($1, $2, $3, $4, $5, clock_timestamp() + make_interval(secs => $6::double precision / 1000))`,
    [s.token_hash, s.brand_id, s.mode, s.email, s.return_url, s.ttlMs],
  );
}

export async function findSession(db: Queryable, brandId: string, tokenHash: string): Promise<PortalSessionRow | undefined> {
  const [row] = await db.query<PortalSessionRow>(
    'SELECT * FROM portal_sessions WHERE token_hash = $1 AND brand_id = $2 AND expires_at > clock_timestamp()', [tokenHash, brandId]);
  return row;
}

export async function deleteSession(db: Queryable, tokenHash: string): Promise<void> {
  await db.query('DELETE FROM portal_sessions WHERE token_hash = $1', [tokenHash]);
}

/** Whether this address bought anything from the brand in this mode (a membership or a transaction). */
export async function isBuyer(db: Queryable, brandId: string, mode: Mode, email: string): Promise<boolean> {
  const [row] = await db.query<{ yes: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM memberships WHERE brand_id = $1 AND mode = $2 AND lower(email) = lower($3))
         OR EXISTS (SELECT 1 FROM transactions WHERE brand_id = $1 AND mode = $2 AND lower(customer_email) = lower($3)) AS yes`,
    [brandId, mode, email],
  );
  return row.yes;
}

export interface BuyerMembershipRow {
  id: string;
  status: string;
  hub_id: string | null;
  product_id: string | null;
  plan: string | null;
  joined_at: Date;
  name: string;
  tier_name: string | null;
  subscription_id: string | null;
  sub_status: string | null;
  cancel_at_period_end: boolean | null;
  current_period_end: Date | null;
  amount: string | null;
  currency: string | null;
  periodic: string | null;
  /** When the next charge (a renewal, or the retry of a failed one) is made. */
  next_billing_at: Date | null;
  provider: string | null;
}

/** The buyer's memberships with what they are of and the subscription paying for them, newest first. */
export function buyerMemberships(db: Queryable, brandId: string, mode: Mode, email: string): Promise<BuyerMembershipRow[]> {
  return db.query<BuyerMembershipRow>(
    `SELECT m.id, m.status, m.hub_id, m.product_id, m.plan, m.joined_at,
       coalesce(p.title, h.name, '') AS name, t.name AS tier_name,
       s.id AS subscription_id, s.status AS sub_status, s.cancel_at_period_end, s.current_period_end, s.amount::text AS amount, s.currency, s.periodic,
       s.next_billing_at, s.provider
     FROM memberships m
     LEFT JOIN products p ON p.brand_id = m.brand_id AND p.id = m.product_id
     LEFT JOIN hubs h ON h.brand_id = m.brand_id AND h.id = m.hub_id
     LEFT JOIN tiers t ON t.brand_id = m.brand_id AND t.id = m.plan
     LEFT JOIN subscriptions s ON s.brand_id = m.brand_id AND s.id = m.subscription_id
     WHERE m.brand_id = $1 AND m.mode = $2 AND lower(m.email) = lower($3)
     ORDER BY m.created_at DESC, m.id DESC`,
    [brandId, mode, email],
  );
}

export interface BuyerTransactionRow {
  id: string;
  txref: string;
  type: string;
  status: string;
  amount: string;
  currency: string;
  created_at: Date;
  invoice_number: number | null;
}

export function buyerTransactions(db: Queryable, brandId: string, mode: Mode, email: string): Promise<BuyerTransactionRow[]> {
  return db.query<BuyerTransactionRow>(
    `SELECT t.id, t.txref, t.type, t.status, t.amount::text AS amount, t.currency, t.created_at, i.number AS invoice_number
     FROM transactions t LEFT JOIN invoices i ON i.brand_id = t.brand_id AND i.transaction_id = t.id
     WHERE t.brand_id = $1 AND t.mode = $2 AND lower(t.customer_email) = lower($3)
     ORDER BY t.created_at DESC, t.id DESC LIMIT 200`,
    [brandId, mode, email],
  );
}

export interface EntitledItemRow {
  id: string;
  product_id: string;
  title: string;
  type: string;
  content_url: string | null;
  file_key: string | null;
  file_name: string | null;
  file_type: string | null;
  file_size: string | null;
  file_version: number;
  downloads: number | null;
}

/**
 * The items with content that the buyer's active memberships include: every item of a product
 * they hold (or of a hub's product, for a hub membership), narrowed to the tier's items when
 * their tier lists some. `itemId` asks about one item (a download).
 */
export function entitledItems(db: Queryable, brandId: string, mode: Mode, email: string, itemId?: string): Promise<EntitledItemRow[]> {
  return db.query<EntitledItemRow>(
    `SELECT DISTINCT ON (i.id) i.id, i.product_id, i.title, i.type, i.content_url, i.file_key, i.file_name, i.file_type, i.file_size::text AS file_size,
       i.file_version, d.count AS downloads
     FROM memberships m
     JOIN products p ON p.brand_id = m.brand_id AND (p.id = m.product_id OR (m.hub_id IS NOT NULL AND p.hub_id = m.hub_id))
     JOIN items i ON i.brand_id = p.brand_id AND i.product_id = p.id
     LEFT JOIN tiers t ON t.brand_id = m.brand_id AND t.id = m.plan AND t.product_id = p.id
     LEFT JOIN item_downloads d ON d.brand_id = m.brand_id AND d.mode = m.mode AND d.email = lower(m.email) AND d.item_id = i.id
     WHERE m.brand_id = $1 AND m.mode = $2 AND lower(m.email) = lower($3) AND m.status = 'active'
       AND (i.content_url IS NOT NULL OR i.file_key IS NOT NULL)
       AND (t.id IS NULL OR cardinality(t.item_ids) = 0 OR i.id = ANY (t.item_ids))
       AND ($4::text IS NULL OR i.id = $4)
     ORDER BY i.id`,
    [brandId, mode, email, itemId ?? null],
  );
}

export async function countDownload(db: Queryable, brandId: string, mode: Mode, email: string, itemId: string): Promise<void> {
  await db.query(
    `INSERT INTO item_downloads (brand_id, mode, email, item_id, count, last_at) VALUES ($1, $2, lower($3), $4, 1, clock_timestamp())
     ON CONFLICT (brand_id, mode, email, item_id) DO UPDATE SET count = item_downloads.count + 1, last_at = clock_timestamp()`,
    [brandId, mode, email, itemId],
  );
}
