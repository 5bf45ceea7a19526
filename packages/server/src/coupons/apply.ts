import type { Queryable } from '../db/client.ts';
import type { Mode } from '../auth/principal.ts';
import type { ErrorDetail } from '../errors.ts';
import { exponentOf, toMajor } from '../money.ts';
import * as repo from './repository.ts';
import type { CouponRow } from './repository.ts';

/**
 * Applying a coupon to an order that checkout has priced (docs/coupons.md, "How a discount is
 * worked out"). Checkout calls `applyCoupon` from one place (checkout/service.ts) and keeps what
 * it returns on the payment link: the discount is worked out once, when the link is made, and
 * the link shows and charges exactly that, as it does the catalog's prices.
 */

/** One priced line of the order, with what the coupon's scope looks at. Add-on lines name no tier. */
export interface OrderLine {
  amount: number;
  productId: string | null;
  tierId: string | null;
  hubId: string | null;
  /** On a recurring tier: what each period charges before any coupon. */
  periodAmount?: number;
}

/** What the payment link keeps (extras.coupon) and its transactions record. */
export interface AppliedCoupon {
  couponId: string;
  code: string;
  /** Minor units taken off this payment. */
  discount: number;
  /** "SPRING20: 20% off" — the line the checkout page and receipts show. */
  label: string;
  /** Per recurring line (by tier id): what each discounted period takes off, and how many payments in all are discounted (null: all). */
  renewals: { tierId: string; discount: number; periods: number | null }[];
}

const money = (minor: number, currency: string) => `${toMajor(minor, currency).toFixed(exponentOf(currency))} ${currency}`;

/** How emails are compared for the per-customer cap: trimmed, lower-case, without a +tag (ada+shop@x.com is ada@x.com). */
export function normaliseEmail(email: string): string {
  const [local, domain] = email.trim().toLowerCase().split(/@(?=[^@]*$)/);
  return domain === undefined ? local : `${local.replace(/\+.*$/, '')}@${domain}`;
}

function inScope(c: CouponRow, line: OrderLine): boolean {
  if (!c.product_ids.length && !c.tier_ids.length && !c.hub_ids.length) return true;
  return (line.productId !== null && c.product_ids.includes(line.productId))
    || (line.tierId !== null && c.tier_ids.includes(line.tierId))
    || (line.hubId !== null && c.hub_ids.includes(line.hubId));
}

/** Takes `total` off the lines in proportion to their amounts, in whole minor units that add up exactly. */
function spread(total: number, amounts: number[]): number[] {
  const sum = amounts.reduce((a, b) => a + b, 0);
  if (sum === 0) return amounts.map(() => 0);
  const shares = amounts.map((a) => Math.floor((total * a) / sum));
  shares[shares.length - 1] += total - shares.reduce((a, b) => a + b, 0);
  return shares;
}

/**
 * The coupon a buyer's `code` names, applied to the order; or undefined with the reason pushed
 * onto `problems` under `coupon`, in words. Caps are checked here too so a buyer hears at once
 * that a coupon is used up; the use itself is taken when the payment starts (redemptions.ts).
 */
export async function applyCoupon(
  db: Queryable,
  order: { brandId: string; mode: Mode; code: string; currency: string; email: string; lines: OrderLine[]; now: Date },
  problems: ErrorDetail[],
): Promise<AppliedCoupon | undefined> {
  const refuse = (message: string) => void problems.push({ field: 'coupon', message });
  const c = await repo.findActiveByCode(db, order.brandId, order.mode, order.code.trim());
  const name = `coupon "${order.code}"`;
  if (!c) return refuse(`${name} does not exist (codes are matched ignoring case; an archived coupon cannot be used)`);
  if (c.starts_at && c.starts_at.getTime() > order.now.getTime()) return refuse(`${name} is not valid yet: it starts at ${c.starts_at.toISOString()}`);
  if (c.ends_at && c.ends_at.getTime() <= order.now.getTime()) return refuse(`${name} has expired: it ended at ${c.ends_at.toISOString()}`);
  if (c.max_redemptions !== null && c.held >= c.max_redemptions) return refuse(`${name} has been used up (all ${c.max_redemptions} uses are taken)`);
  if (c.max_per_customer !== null) {
    const used = await repo.usesByCustomer(db, order.brandId, c.id, normaliseEmail(order.email));
    if (used >= c.max_per_customer) return refuse(`${name} can be used ${c.max_per_customer === 1 ? 'once' : `${c.max_per_customer} times`} per customer, and ${order.email} already has`);
  }
  const fixed = c.amounts_off?.[order.currency];
  if (c.amounts_off && fixed === undefined) {
    return refuse(`${name} has no amount off in ${order.currency} (it covers ${Object.keys(c.amounts_off).sort().join(', ')})`);
  }
  const eligible = order.lines.map((l) => inScope(c, l) && l.amount > 0);
  if (!eligible.some(Boolean)) return refuse(`${name} does not apply to anything in this order (it is limited to certain products, tiers or hubs)`);
  const subtotal = order.lines.reduce((s, l) => s + l.amount, 0);
  const minimum = c.minimum_amounts[order.currency];
  if (minimum !== undefined && subtotal < minimum) {
    return refuse(`${name} needs an order of at least ${money(minimum, order.currency)}; this one comes to ${money(subtotal, order.currency)}`);
  }

  const percent = c.percent_off === null ? null : Number(c.percent_off);
  const amounts = order.lines.map((l, i) => (eligible[i] ? l.amount : 0));
  const offs = percent !== null
    ? amounts.map((a) => Math.round((a * percent) / 100))
    : spread(Math.min(Number(fixed), amounts.reduce((a, b) => a + b, 0)), amounts);
  const discount = offs.reduce((a, b) => a + b, 0);
  const periods = c.duration === 'forever' ? null : c.duration === 'repeating' ? c.duration_periods! : 1;
  const renewals = order.lines.flatMap((l, i) => (l.periodAmount !== undefined && l.tierId && offs[i] > 0 && periods !== 1
    ? [{ tierId: l.tierId, discount: percent !== null ? Math.round((l.periodAmount * percent) / 100) : Math.min(offs[i], l.periodAmount), periods }]
    : []));
  const what = percent !== null ? `${percent}% off` : `${money(Number(fixed), order.currency)} off`;
  const lasting = periods === null ? ', every payment' : periods > 1 ? `, the first ${periods} payments` : '';
  return { couponId: c.id, code: c.code, discount, label: `Coupon ${c.code}: ${what}${renewals.length ? lasting : ''}`, renewals };
}

/** What a renewal charges (subscriptions/renewals.ts): the period's price less the coupon's discount while it lasts. */
export function renewalCharge(sub: { amount: number; periods_paid: number; discount_amount?: number | string | null; discount_periods?: number | null }): number {
  if (sub.discount_amount === null || sub.discount_amount === undefined) return sub.amount;
  // periods_paid counts the first payment: the renewal about to be charged is payment periods_paid + 1.
  const lasts = sub.discount_periods === null || sub.discount_periods === undefined || sub.periods_paid < sub.discount_periods;
  return lasts ? Math.max(sub.amount - Number(sub.discount_amount), 0) : sub.amount;
}

/** The shape of checkout's priced order that a coupon reads and changes (checkout/pricing.ts, Priced). */
interface PricedOrder {
  amount: number;
  lineItems: { description: string; unitAmount: number; quantity: number; amount: number }[];
  purchases: { productId: string | null; hubId: string | null; tierId: string; recurrence?: { amount: number }; discount?: { amount: number; periods: number | null } }[];
}

/**
 * The order's lines as applyCoupon reads them: one per item (purchases come first in lineItems),
 * then the add-ons. `hubs[i]` is the hub item i's product belongs to (a course in a hub is in
 * that hub's scope even though buying it does not join the hub).
 */
export function orderLines(priced: PricedOrder, hubs: (string | null)[]): OrderLine[] {
  return priced.lineItems.map((line, i) => {
    const p = priced.purchases[i];
    return p
      ? { amount: line.amount, productId: p.productId, tierId: p.tierId, hubId: p.hubId ?? hubs[i] ?? null, ...(p.recurrence ? { periodAmount: p.recurrence.amount } : {}) }
      : { amount: line.amount, productId: null, tierId: null, hubId: null };
  });
}

/** The order with the coupon taken off: a line that shows it (a negative amount), the lower total, and each recurring purchase's renewal discount. */
export function discountOrder<P extends PricedOrder>(priced: P, applied: AppliedCoupon): P {
  const line = { description: applied.label, unitAmount: -applied.discount, quantity: 1, amount: -applied.discount };
  return {
    ...priced,
    amount: priced.amount - applied.discount,
    lineItems: [...priced.lineItems, line],
    purchases: priced.purchases.map((p) => {
      const r = applied.renewals.find((x) => x.tierId === p.tierId);
      return r ? { ...p, discount: { amount: r.discount, periods: r.periods } } : p;
    }),
  };
}
