import type { Queryable } from '../db/client.ts';
import { AppError } from '../errors.ts';
import type { AppliedCoupon } from './apply.ts';
import { normaliseEmail } from './apply.ts';
import * as repo from './repository.ts';

/**
 * A coupon's uses, counted like a tier's stock (checkout/stock.ts): a payment takes one when it
 * starts, in the same database transaction that records it as pending, so a link that is never
 * paid uses nothing; a failed payment gives it back, and so does a full refund. Taking one is a
 * conditional UPDATE of the coupon row, so payments racing for the last uses queue on that row:
 * exactly `maxRedemptions` get through, the others are refused before any card is charged.
 */

const usedUp = (message: string) => new AppError('conflict', `${message} Nothing was charged; make a new checkout without the coupon.`);

/** Takes a use of the link's coupon for the payment `txref`; returns the txref to give back on failure, or undefined when the link has no coupon. */
export async function holdCoupon(tx: Queryable, link: { brand_id: string; buyer_email: string; currency: string; extras: Record<string, unknown> }, txref: string): Promise<string | undefined> {
  const applied = link.extras.coupon as AppliedCoupon | undefined;
  if (!applied) return undefined;
  const coupon = await repo.takeUse(tx, link.brand_id, applied.couponId);
  if (!coupon) throw usedUp(`Coupon "${applied.code}" has been used up.`);
  const email = normaliseEmail(link.buyer_email);
  // After takeUse: its row lock makes a second payment of the same buyer wait for this one's count.
  if (coupon.max_per_customer !== null && (await repo.usesByCustomer(tx, link.brand_id, coupon.id, email)) >= coupon.max_per_customer) {
    throw usedUp(`Coupon "${applied.code}" can be used ${coupon.max_per_customer === 1 ? 'once' : `${coupon.max_per_customer} times`} per customer, and ${link.buyer_email} already has.`);
  }
  await repo.insertRedemption(tx, { brand_id: link.brand_id, coupon_id: coupon.id, txref, email, discount: applied.discount, currency: link.currency });
  return txref;
}

/** Gives back the use a payment held (it failed, or was refunded in full); safe to repeat. */
export function releaseCoupon(tx: Queryable, brandId: string, txref: string): Promise<void> {
  return repo.releaseUse(tx, brandId, txref);
}
