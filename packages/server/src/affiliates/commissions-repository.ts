import type { Queryable } from '../db/client.ts';
import type { Mode } from '../auth/principal.ts';

export interface CommissionRow {
  brand_id: string;
  id: string;
  mode: Mode;
  affiliate_id: string;
  transaction_id: string;
  currency: string;
  rate_bps: number;
  /** When the payment succeeded, in its mode's time (a test clock moves it). */
  paid_at: Date;
  /** Succeeded refunds of the payment, minor units, with their mode time (ISO). */
  refunds: { amount: number; at: string }[];
  /** Fixed by the payout that deducted it, with it. */
  amount: number | null;
  payout_id: string | null;
  created_at: Date;
}

/** A commission with what its amount is computed from: the payment's amount and the fee its payout charged. */
export interface CommissionWithPayment extends CommissionRow {
  payment_amount: number;
  payment_fee: number | null;
}

export async function insertCommission(db: Queryable, c: Pick<CommissionRow, 'brand_id' | 'id' | 'mode' | 'affiliate_id' | 'transaction_id' | 'currency' | 'rate_bps' | 'paid_at'>) {
  await db.query(
    `INSERT INTO affiliate_commissions (brand_id, id, mode, affiliate_id, transaction_id, currency, rate_bps, paid_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (brand_id, transaction_id) DO NOTHING`,
    [c.brand_id, c.id, c.mode, c.affiliate_id, c.transaction_id, c.currency, c.rate_bps, c.paid_at],
  );
}

/** Notes a succeeded refund of an attributed payment (nothing when the payment has no commission). */
export async function noteRefund(db: Queryable, brandId: string, transactionId: string, amount: number, at: Date) {
  await db.query(
    `UPDATE affiliate_commissions SET refunds = refunds || jsonb_build_array(jsonb_build_object('amount', $3::bigint, 'at', $4::text))
     WHERE brand_id = $1 AND transaction_id = $2`,
    [brandId, transactionId, amount, at.toISOString()],
  );
}

const withPayment = `c.*, t.amount AS payment_amount, t.fee AS payment_fee
  FROM affiliate_commissions c JOIN transactions t ON t.brand_id = c.brand_id AND t.id = c.transaction_id`;

export function commissionsOf(db: Queryable, brandId: string, affiliateId: string) {
  return db.query<CommissionWithPayment>(`SELECT ${withPayment} WHERE c.brand_id = $1 AND c.affiliate_id = $2 ORDER BY c.paid_at, c.id`, [brandId, affiliateId]);
}

/**
 * Commissions of a brand and mode whose hold has ended by `until` and that no payout has deducted,
 * locked for settling. Only those of payments already in a payout (or going into this one, the
 * caller's `settling`), so the fee a commission's net is computed on is the one charged.
 */
export function earnedUnsettled(db: Queryable, brandId: string, mode: Mode, until: Date) {
  return db.query<CommissionWithPayment>(
    `SELECT ${withPayment} WHERE c.brand_id = $1 AND c.mode = $2 AND c.payout_id IS NULL AND c.paid_at <= $3
     ORDER BY c.paid_at, c.id FOR UPDATE OF c`,
    [brandId, mode, until],
  );
}

export async function deductInto(db: Queryable, brandId: string, payoutId: string, amounts: { id: string; amount: number }[]): Promise<void> {
  await db.query(
    `UPDATE affiliate_commissions c SET payout_id = $2, amount = a.amount
     FROM jsonb_to_recordset($3::jsonb) AS a(id text, amount bigint)
     WHERE c.brand_id = $1 AND c.id = a.id AND c.payout_id IS NULL`,
    [brandId, payoutId, JSON.stringify(amounts)],
  );
}

/** The purchase that attributed a subscription's first payment: the latest one of this buyer and tier with an affiliate. */
export async function affiliateOfSubscriptionPurchase(db: Queryable, brandId: string, mode: Mode, tierId: string, email: string) {
  const [row] = await db.query<{ affiliate: { id: string; code: string } }>(
    `SELECT t.affiliate FROM transactions t JOIN payment_links l ON l.brand_id = t.brand_id AND l.id = t.payment_link_id
     WHERE t.brand_id = $1 AND t.mode = $2 AND t.type = 'purchase' AND t.affiliate IS NOT NULL AND lower(t.customer_email) = lower($4)
       AND l.purchases @> jsonb_build_array(jsonb_build_object('tierId', $3::text))
     ORDER BY t.created_at DESC LIMIT 1`,
    [brandId, mode, tierId, email],
  );
  return row?.affiliate;
}

/** The commissions a payout deducted (above zero), oldest first, with their payment's txref (its lines). */
export function deductedBy(db: Queryable, brandId: string, payoutId: string) {
  return db.query<CommissionRow & { txref: string }>(
    `SELECT c.*, t.txref FROM affiliate_commissions c JOIN transactions t ON t.brand_id = c.brand_id AND t.id = c.transaction_id
     WHERE c.brand_id = $1 AND c.payout_id = $2 AND c.amount > 0 ORDER BY c.paid_at, c.id`,
    [brandId, payoutId],
  );
}

/** Whether any commission of the brand and mode is still to be deducted (its payout schedule must stay). */
export async function anyUnsettled(db: Queryable, brandId: string, mode: Mode): Promise<boolean> {
  const [row] = await db.query('SELECT 1 FROM affiliate_commissions WHERE brand_id = $1 AND mode = $2 AND payout_id IS NULL LIMIT 1', [brandId, mode]);
  return row !== undefined;
}
