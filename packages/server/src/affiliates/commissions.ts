import type { Queryable } from '../db/client.ts';
import type { ErrorDetail } from '../errors.ts';
import { newId } from '../ids.ts';
import type { Mode } from '../auth/principal.ts';
import { modeNow } from '../clock/repository.ts';
import { findLink } from '../checkout/repository.ts';
import { findTier } from '../products/repository.ts';
import type { PayoutSettings } from '../config.ts';
import * as transactions from '../transactions/repository.ts';
import type { TransactionRow } from '../transactions/repository.ts';
import * as repo from './commissions-repository.ts';
import type { CommissionWithPayment } from './commissions-repository.ts';
import { findActiveByCode, findAffiliate, type AffiliateRow } from './repository.ts';

/**
 * How a sale is attributed to an affiliate and what it earns (docs/affiliates.md):
 *  - a payment link names a code in items[].affiliate (the web checkout: ?ref=CODE); checked when
 *    the link is made, kept on the link, and attributed when the payment succeeds;
 *  - the commission is the affiliate's percent (the product's own, if set) of the payment's net:
 *    its amount less the platform fee less what refunds made within the hold gave back; so a
 *    refund within the hold claws back the same percent of what it gave back, and a full refund
 *    all of it (the fee is kept, so the net is below zero: nothing is earned);
 *  - held for AFFILIATE_HOLD from the payment (in its mode's time: a test clock moves it), then
 *    earned: fixed, and deducted from the next payout of its currency as its own line.
 */

export type CommissionSettings = Pick<PayoutSettings, 'feeBasisPoints' | 'feeFixed' | 'affiliateHoldMs'>;

/** The code items[].affiliate names, as an active affiliate of the brand in this mode; unknown codes are problems on their field. */
export async function resolveAffiliateCodes(tx: Queryable, brandId: string, mode: Mode, items: { affiliate?: string }[], problems: ErrorDetail[]) {
  let found: AffiliateRow | undefined;
  for (const [i, item] of items.entries()) {
    if (item.affiliate === undefined) continue;
    const field = `items[${i}].affiliate`;
    const affiliate = await findActiveByCode(tx, brandId, mode, item.affiliate);
    if (!affiliate) problems.push({ field, index: i, message: `"${item.affiliate}" is not the code of an active affiliate of this brand` });
    else if (found && found.id !== affiliate.id) problems.push({ field, index: i, message: 'names another affiliate than an earlier item: a payment link is attributed to one affiliate' });
    else found = affiliate;
  }
  return found;
}

/** The percent, in basis points, the affiliate earns on a product (or hub). */
const rateFor = (affiliate: AffiliateRow, productId: string | null | undefined) =>
  (productId && affiliate.product_bps[productId] !== undefined ? affiliate.product_bps[productId] : affiliate.commission_bps);

async function record(tx: Queryable, payment: TransactionRow, affiliate: AffiliateRow, rateBps: number): Promise<TransactionRow> {
  const marked = await transactions.setAffiliate(tx, payment.brand_id, payment.id, { id: affiliate.id, code: affiliate.code });
  if (payment.amount > 0) {
    await repo.insertCommission(tx, {
      brand_id: payment.brand_id, id: newId('com'), mode: payment.mode, affiliate_id: affiliate.id, transaction_id: payment.id,
      currency: payment.currency, rate_bps: rateBps, paid_at: await modeNow(tx, payment.brand_id, payment.mode),
    });
  }
  return marked;
}

/**
 * A link payment that just succeeded (checkout/service.ts settlePayment): attributed to the
 * affiliate its link names, if that affiliate is still active. A link of several products earns
 * the percent of its first item's product. Returns the transaction as it now stands.
 */
export async function attributeSale(tx: Queryable, payment: TransactionRow): Promise<TransactionRow> {
  const link = payment.payment_link_id ? await findLink(tx, payment.brand_id, payment.payment_link_id) : undefined;
  const affiliateId = typeof link?.extras.affiliateId === 'string' ? link.extras.affiliateId : undefined;
  if (!link || !affiliateId) return payment;
  const affiliate = await findAffiliate(tx, payment.brand_id, payment.mode, affiliateId);
  if (!affiliate || affiliate.status !== 'active') return payment;
  const first = link.purchases[0];
  return record(tx, payment, affiliate, rateFor(affiliate, first?.productId ?? first?.hubId));
}

/**
 * A renewal that just succeeded (subscriptions/renewals.ts settleRenewal): attributed to the
 * affiliate of the purchase that started the subscription when that affiliate is active and earns
 * on renewals (`recurring`).
 */
export async function attributeRenewal(tx: Queryable, payment: TransactionRow): Promise<TransactionRow> {
  if (payment.status !== 'succeeded' || payment.type !== 'renewal' || !payment.resource_id) return payment;
  const first = await repo.affiliateOfSubscriptionPurchase(tx, payment.brand_id, payment.mode, payment.resource_id, payment.customer_email);
  const affiliate = first ? await findAffiliate(tx, payment.brand_id, payment.mode, first.id) : undefined;
  if (!affiliate || affiliate.status !== 'active' || !affiliate.recurring) return payment;
  const tier = await findTier(tx, payment.brand_id, payment.resource_id);
  return record(tx, payment, affiliate, rateFor(affiliate, tier?.product_id ?? tier?.hub_id));
}

/** A refund of a payment succeeded (refunds/service.ts): noted with its mode time, so one within the hold reduces the commission. */
export async function noteRefund(tx: Queryable, payment: TransactionRow, amount: number): Promise<void> {
  if (!payment.affiliate) return;
  await repo.noteRefund(tx, payment.brand_id, payment.id, amount, await modeNow(tx, payment.brand_id, payment.mode));
}

export const heldUntil = (c: { paid_at: Date }, settings: Pick<CommissionSettings, 'affiliateHoldMs'>) => new Date(c.paid_at.getTime() + settings.affiliateHoldMs);

/**
 * A commission's amount in minor units: fixed once a payout deducted it; before that, the rate of
 * the net as it stands (`fee`: the fee the payment's payout charged, or the one the next will
 * charge), counting only refunds made within the hold. Half up to the minor unit; never below zero.
 */
export function commissionAmount(c: CommissionWithPayment, settings: Pick<CommissionSettings, 'affiliateHoldMs'>, fee: number): number {
  if (c.amount !== null) return Number(c.amount);
  const until = heldUntil(c, settings).getTime();
  const refunded = c.refunds.filter((r) => Date.parse(r.at) < until).reduce((sum, r) => sum + Number(r.amount), 0);
  const net = Number(c.payment_amount) - fee - refunded;
  return net <= 0 ? 0 : Math.floor((net * c.rate_bps + 5_000) / 10_000);
}
