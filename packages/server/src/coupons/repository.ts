import type { Queryable } from '../db/client.ts';
import type { Mode } from '../auth/principal.ts';
import { afterCursor, type PageRequest } from '../db/paging.ts';

export interface CouponRow {
  brand_id: string;
  id: string;
  mode: Mode;
  code: string;
  name: string | null;
  /** numeric comes back from PostgreSQL as text. */
  percent_off: string | number | null;
  /** Minor units per currency. */
  amounts_off: Record<string, number> | null;
  product_ids: string[];
  tier_ids: string[];
  hub_ids: string[];
  starts_at: Date | null;
  ends_at: Date | null;
  max_redemptions: number | null;
  max_per_customer: number | null;
  minimum_amounts: Record<string, number>;
  duration: 'once' | 'repeating' | 'forever';
  duration_periods: number | null;
  status: 'active' | 'archived';
  held: number;
  created_at: Date;
  updated_at: Date;
  /** Counted by the queries below: held uses whose payment succeeded (or was partly refunded), and those still pending. */
  redemptions: number;
  reserved: number;
}

// A held use is a redemption once its payment is paid (a partly refunded one stays one) and
// reserved while it is pending; the payment's own status says which, so settling needs no second write here.
const withCounts = `c.*,
  (SELECT count(*)::int FROM coupon_redemptions r JOIN transactions t ON t.brand_id = r.brand_id AND t.txref = r.txref
   WHERE r.brand_id = c.brand_id AND r.coupon_id = c.id AND r.status = 'held' AND t.status <> 'pending') AS redemptions,
  (SELECT count(*)::int FROM coupon_redemptions r JOIN transactions t ON t.brand_id = r.brand_id AND t.txref = r.txref
   WHERE r.brand_id = c.brand_id AND r.coupon_id = c.id AND r.status = 'held' AND t.status = 'pending') AS reserved`;

export type NewCoupon = Omit<CouponRow, 'status' | 'held' | 'created_at' | 'updated_at' | 'redemptions' | 'reserved'>;

/** Inserts an active coupon; undefined when an active coupon of the brand already has this code (any case). */
export async function insertCoupon(db: Queryable, c: NewCoupon): Promise<CouponRow | undefined> {
  const [row] = await db.query<CouponRow>(
    `INSERT INTO coupons (brand_id, id, mode, code, name, percent_off, amounts_off, product_ids, tier_ids, hub_ids, starts_at, ends_at,
       max_redemptions, max_per_customer, minimum_amounts, duration, duration_periods, status)
     VALUES ($1, $2, $3, $4, $5, $6, $7::text::jsonb, $8::text[], $9::text[], $10::text[], $11, $12, $13, $14, $15::text::jsonb, $16, $17, 'active')
     ON CONFLICT (brand_id, mode, lower(code)) WHERE status = 'active' DO NOTHING
     RETURNING *, 0 AS redemptions, 0 AS reserved`,
    [c.brand_id, c.id, c.mode, c.code, c.name, c.percent_off, c.amounts_off ? JSON.stringify(c.amounts_off) : null, c.product_ids, c.tier_ids, c.hub_ids,
      c.starts_at, c.ends_at, c.max_redemptions, c.max_per_customer, JSON.stringify(c.minimum_amounts), c.duration, c.duration_periods],
  );
  return row;
}

/** A coupon of the brand in this mode (a test key never sees live coupons). */
export async function findCoupon(db: Queryable, brandId: string, mode: Mode, id: string): Promise<CouponRow | undefined> {
  const [row] = await db.query<CouponRow>(`SELECT ${withCounts} FROM coupons c WHERE c.brand_id = $1 AND c.mode = $2 AND c.id = $3`, [brandId, mode, id]);
  return row;
}

/** The active coupon with this code, ignoring case (what a buyer's code names). */
export async function findActiveByCode(db: Queryable, brandId: string, mode: Mode, code: string): Promise<CouponRow | undefined> {
  const [row] = await db.query<CouponRow>(
    `SELECT ${withCounts} FROM coupons c WHERE c.brand_id = $1 AND c.mode = $2 AND lower(c.code) = lower($3) AND c.status = 'active'`,
    [brandId, mode, code],
  );
  return row;
}

export function listCoupons(db: Queryable, brandId: string, mode: Mode, page: PageRequest, filter: { status?: string; code?: string }) {
  const after = afterCursor(page, 6);
  return db.query<CouponRow>(
    `SELECT ${withCounts} FROM coupons c
     WHERE c.brand_id = $1 AND c.mode = $2 AND ($4::text IS NULL OR c.status = $4) AND ($5::text IS NULL OR lower(c.code) = lower($5))
       ${after.sql.replace('(created_at, id)', '(c.created_at, c.id)')}
     ORDER BY c.created_at DESC, c.id DESC
     LIMIT $3`,
    [brandId, mode, page.limit + 1, filter.status ?? null, filter.code ?? null, ...after.params],
  );
}

export type CouponChange = Partial<Pick<CouponRow, 'name' | 'product_ids' | 'tier_ids' | 'hub_ids' | 'starts_at' | 'ends_at' | 'max_redemptions'
  | 'max_per_customer' | 'minimum_amounts' | 'status'>>;

const columnCasts: Record<keyof CouponChange, string> = {
  name: '', product_ids: '::text[]', tier_ids: '::text[]', hub_ids: '::text[]', starts_at: '', ends_at: '', max_redemptions: '',
  max_per_customer: '', minimum_amounts: '::text::jsonb', status: '',
};

/** Writes the fields given; the caller holds the row's lock (lockCoupon), so a cap it checked against `held` still holds. */
export async function updateCoupon(db: Queryable, brandId: string, id: string, change: CouponChange): Promise<void> {
  const columns = (Object.keys(columnCasts) as (keyof CouponChange)[]).filter((c) => change[c] !== undefined);
  const values = columns.map((c) => (c === 'minimum_amounts' ? JSON.stringify(change.minimum_amounts) : change[c] ?? null));
  await db.query(
    `UPDATE coupons SET ${columns.map((c, i) => `${c} = $${i + 3}${columnCasts[c]}`).join(', ')}${columns.length ? ', ' : ''}
       updated_at = date_trunc('milliseconds', clock_timestamp())
     WHERE brand_id = $1 AND id = $2`,
    [brandId, id, ...values],
  );
}

/** Locks the coupon row (PATCH and archive), so its checks see the uses held at that moment. */
export async function lockCoupon(db: Queryable, brandId: string, mode: Mode, id: string): Promise<CouponRow | undefined> {
  const [row] = await db.query<CouponRow>(`SELECT *, 0 AS redemptions, 0 AS reserved FROM coupons WHERE brand_id = $1 AND mode = $2 AND id = $3 FOR UPDATE`, [brandId, mode, id]);
  return row;
}

/** Whether an active coupon other than `id` holds this code. */
export async function codeTaken(db: Queryable, brandId: string, mode: Mode, code: string, exceptId: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM coupons WHERE brand_id = $1 AND mode = $2 AND lower(code) = lower($3) AND status = \'active\' AND id <> $4', [brandId, mode, code, exceptId]);
  return rows.length > 0;
}

export interface RedemptionRow {
  txref: string;
  email: string;
  status: string;
  discount: number;
  amount: number;
  refunded_amount: number;
  currency: string;
  created_at: Date;
}

/** The newest held uses with their payments (what GET /coupons/{id} lists). */
export function recentRedemptions(db: Queryable, brandId: string, couponId: string, limit = 50) {
  return db.query<RedemptionRow>(
    `SELECT t.txref, t.customer_email AS email, t.status, r.discount, t.amount, t.refunded_amount, r.currency, r.created_at
     FROM coupon_redemptions r JOIN transactions t ON t.brand_id = r.brand_id AND t.txref = r.txref
     WHERE r.brand_id = $1 AND r.coupon_id = $2 AND r.status = 'held'
     ORDER BY r.created_at DESC LIMIT $3`,
    [brandId, couponId, limit],
  );
}

/** Per currency: what paid payments that used the coupon brought (less refunds) and what it took off them. */
export function revenueOf(db: Queryable, brandId: string, couponId: string) {
  return db.query<{ currency: string; revenue: string; discounted: string }>(
    `SELECT r.currency, sum(t.amount - t.refunded_amount)::text AS revenue, sum(r.discount)::text AS discounted
     FROM coupon_redemptions r JOIN transactions t ON t.brand_id = r.brand_id AND t.txref = r.txref
     WHERE r.brand_id = $1 AND r.coupon_id = $2 AND r.status = 'held' AND t.status IN ('succeeded', 'refunded')
     GROUP BY r.currency ORDER BY r.currency`,
    [brandId, couponId],
  );
}

/**
 * Takes one use of the coupon for a payment. The conditional UPDATE locks the coupon row, so
 * payments racing for the last uses queue on it and each sees what the one before left: never
 * more than `max_redemptions` held. The per-customer count runs after that lock, so it sees
 * every use committed before. Undefined when the total cap is reached.
 */
export async function takeUse(db: Queryable, brandId: string, couponId: string): Promise<CouponRow | undefined> {
  const [row] = await db.query<CouponRow>(
    `UPDATE coupons SET held = held + 1 WHERE brand_id = $1 AND id = $2 AND (max_redemptions IS NULL OR held < max_redemptions)
     RETURNING *, 0 AS redemptions, 0 AS reserved`,
    [brandId, couponId],
    'take_coupon_use',
  );
  return row;
}

export async function usesByCustomer(db: Queryable, brandId: string, couponId: string, email: string): Promise<number> {
  const [{ n }] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM coupon_redemptions WHERE brand_id = $1 AND coupon_id = $2 AND email = $3 AND status = 'held'`,
    [brandId, couponId, email],
  );
  return n;
}

export async function insertRedemption(db: Queryable, r: { brand_id: string; coupon_id: string; txref: string; email: string; discount: number; currency: string }) {
  await db.query(
    `INSERT INTO coupon_redemptions (brand_id, coupon_id, txref, email, discount, currency, status) VALUES ($1, $2, $3, $4, $5, $6, 'held')`,
    [r.brand_id, r.coupon_id, r.txref, r.email, r.discount, r.currency],
  );
}

/** Gives a payment's use back (failed, or fully refunded): once, however often it is asked. */
export async function releaseUse(db: Queryable, brandId: string, txref: string): Promise<void> {
  const [released] = await db.query<{ coupon_id: string }>(
    `UPDATE coupon_redemptions SET status = 'released' WHERE brand_id = $1 AND txref = $2 AND status = 'held' RETURNING coupon_id`,
    [brandId, txref],
  );
  if (released) await db.query('UPDATE coupons SET held = greatest(held - 1, 0) WHERE brand_id = $1 AND id = $2', [brandId, released.coupon_id]);
}
