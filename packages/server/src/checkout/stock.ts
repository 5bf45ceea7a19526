import type { Queryable } from '../db/client.ts';
import type { Mode } from '../auth/principal.ts';
import { AppError } from '../errors.ts';
import { giveSaleBack, takeSale } from '../checkout-links/repository.ts';
import { catalogChanged } from '../catalog-cache/version.ts';
import { holdCoupon, releaseCoupon } from '../coupons/redemptions.ts';
import type { PaymentLinkRow } from './repository.ts';

/**
 * Capacity that can never be oversold: a tier's `slots`, and a checkout link's `maxSales`. A
 * payment takes what it buys when it starts (step 1 of paying, checkout/flows.ts, in the same
 * transaction that records it as pending) and a failed payment gives it back; a paid one keeps it.
 * Each take is one conditional statement on one row, so payments racing on PostgreSQL queue on
 * that row and each sees the count the previous one left: exactly `slots` of them get through,
 * the rest are told the tier is sold out before any card is charged. Test and live mode count
 * separately (tier_stock is per mode), so test purchases never use up live stock.
 */

/** What a payment holds, kept on its transaction so that a failure gives back exactly that. */
export interface StockHeld {
  tiers: { tierId: string; count: number }[];
  checkoutLinkId?: string;
  /** The payment (txref) whose use of the link's coupon is held (coupons/redemptions.ts). */
  coupon?: string;
}

export const soldOut = (what: string) => new AppError('conflict', `Sold out: ${what}. Nothing was charged.`);

export async function holdStock(tx: Queryable, link: PaymentLinkRow & { checkout_link_id?: string | null }, txref: string): Promise<StockHeld | null> {
  const tierIds = link.purchases.map((p) => p.tierId);
  const tiers = await tx.query<{ id: string; name: string; slots: number | null }>(
    'SELECT id, name, slots FROM tiers WHERE brand_id = $1 AND id = ANY($2::text[]) AND slots IS NOT NULL ORDER BY id', [link.brand_id, tierIds]);
  const held: StockHeld = { tiers: [] };
  for (const tier of tiers) {
    const count = link.purchases.filter((p) => p.tierId === tier.id).reduce((n, p) => n + p.count, 0);
    const rows = await tx.query(
      `INSERT INTO tier_stock AS s (brand_id, mode, tier_id, held) SELECT $1, $2, $3, $4::int WHERE $4::int <= $5::int
       ON CONFLICT (brand_id, mode, tier_id) DO UPDATE SET held = s.held + EXCLUDED.held WHERE s.held + EXCLUDED.held <= $5::int
       RETURNING held`,
      [link.brand_id, link.mode, tier.id, count, tier.slots],
      'hold_tier_stock',
    );
    if (!rows.length) throw soldOut(`"${tier.name}" has no places left`);
    held.tiers.push({ tierId: tier.id, count });
  }
  // The pages showing "N left" are cached with the catalog (storefront/page-cache.ts): read them afresh.
  if (held.tiers.length) await catalogChanged(tx, link.brand_id);
  if (link.checkout_link_id) {
    if (!(await takeSale(tx, link.brand_id, link.checkout_link_id))) throw soldOut('this checkout link has reached its sales limit');
    held.checkoutLinkId = link.checkout_link_id;
  }
  const coupon = await holdCoupon(tx, link, txref);
  if (coupon) held.coupon = coupon;
  return held.tiers.length || held.checkoutLinkId || held.coupon ? held : null;
}

/** Gives back what a failed payment held. */
export async function releaseStock(tx: Queryable, brandId: string, mode: Mode, held: StockHeld | null | undefined): Promise<void> {
  if (!held) return;
  for (const { tierId, count } of held.tiers) {
    await tx.query('UPDATE tier_stock SET held = greatest(held - $4, 0) WHERE brand_id = $1 AND mode = $2 AND tier_id = $3', [brandId, mode, tierId, count]);
  }
  if (held.tiers.length) await catalogChanged(tx, brandId);
  if (held.checkoutLinkId) await giveSaleBack(tx, brandId, held.checkoutLinkId);
  if (held.coupon) await releaseCoupon(tx, brandId, held.coupon);
}

/** Places left of each tier with `slots`, in one mode: what the pages show ("3 left"). */
export async function slotsLeft(db: Queryable, brandId: string, mode: Mode, tiers: { id: string; slots: number | null }[]): Promise<Map<string, number>> {
  const limited = tiers.filter((t) => t.slots !== null);
  const left = new Map<string, number>();
  if (!limited.length) return left;
  const rows = await db.query<{ tier_id: string; held: number }>(
    'SELECT tier_id, held FROM tier_stock WHERE brand_id = $1 AND mode = $2 AND tier_id = ANY($3::text[])', [brandId, mode, limited.map((t) => t.id)]);
  for (const t of limited) left.set(t.id, Math.max(t.slots! - (rows.find((r) => r.tier_id === t.id)?.held ?? 0), 0));
  return left;
}
