import type { Coupon, CouponCreateParams, CouponUpdateParams } from '@creator-commerce/sdk';

/**
 * The Discounts form (catalog → Discounts) as text the inputs hold, and the API bodies made from
 * it. One currency per form for the fixed amount and the minimum: the API takes several, and the
 * detail page lists every one a coupon has.
 */
export interface CouponForm {
  code: string;
  name: string;
  kind: 'percent' | 'amount';
  percentOff: string;
  amountOff: string;
  currency: string;
  products: string[];
  hubs: string[];
  startsAt: string;
  endsAt: string;
  maxRedemptions: string;
  maxPerCustomer: string;
  minimum: string;
  duration: 'once' | 'repeating' | 'forever';
  durationPeriods: string;
}

export const emptyCouponForm = (): CouponForm => ({
  code: '', name: '', kind: 'percent', percentOff: '', amountOff: '', currency: 'USD', products: [], hubs: [],
  startsAt: '', endsAt: '', maxRedemptions: '', maxPerCustomer: '', minimum: '', duration: 'once', durationPeriods: '',
});

/** An ISO instant as a datetime-local input's value (the reader's local time), and back. */
const toLocal = (iso?: string) => {
  if (!iso) return '';
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const fromLocal = (v: string) => (v ? new Date(v).toISOString() : undefined);
const num = (v: string) => (v.trim() === '' ? undefined : Number(v.trim().replace(',', '.')));

export function couponToForm(c: Coupon): CouponForm {
  const first = c.amountsOff?.[0];
  const min = c.minimumAmounts[0];
  return {
    code: c.code, name: c.name ?? '', kind: c.percentOff !== undefined ? 'percent' : 'amount',
    percentOff: c.percentOff !== undefined ? String(c.percentOff) : '', amountOff: first ? String(first.amount) : '', currency: first?.currency ?? min?.currency ?? 'USD',
    products: c.appliesTo?.products ?? [], hubs: c.appliesTo?.hubs ?? [],
    startsAt: toLocal(c.startsAt), endsAt: toLocal(c.endsAt),
    maxRedemptions: c.maxRedemptions !== undefined ? String(c.maxRedemptions) : '', maxPerCustomer: c.maxPerCustomer !== undefined ? String(c.maxPerCustomer) : '',
    minimum: min ? String(min.amount) : '', duration: c.duration, durationPeriods: c.durationPeriods !== undefined ? String(c.durationPeriods) : '',
  };
}

const scopeOf = (f: CouponForm) => (f.products.length || f.hubs.length ? { appliesTo: { products: f.products, hubs: f.hubs } } : {});

export function createBody(f: CouponForm): CouponCreateParams {
  const body: Record<string, unknown> = { code: f.code.trim(), duration: f.duration, ...scopeOf(f) };
  if (f.name.trim()) body.name = f.name.trim();
  if (f.kind === 'percent') body.percentOff = num(f.percentOff);
  else body.amountsOff = [{ amount: num(f.amountOff), currency: f.currency }];
  if (f.startsAt) body.startsAt = fromLocal(f.startsAt);
  if (f.endsAt) body.endsAt = fromLocal(f.endsAt);
  if (num(f.maxRedemptions) !== undefined) body.maxRedemptions = num(f.maxRedemptions);
  if (num(f.maxPerCustomer) !== undefined) body.maxPerCustomer = num(f.maxPerCustomer);
  if (num(f.minimum) !== undefined) body.minimumAmounts = [{ amount: num(f.minimum), currency: f.currency }];
  if (f.duration === 'repeating') body.durationPeriods = num(f.durationPeriods);
  return body as CouponCreateParams;
}

/** What an edit may change; cleared inputs clear their field (`null`). */
export function updateBody(f: CouponForm): CouponUpdateParams {
  return {
    name: f.name.trim() || null,
    appliesTo: { products: f.products, hubs: f.hubs },
    startsAt: fromLocal(f.startsAt) ?? null,
    endsAt: fromLocal(f.endsAt) ?? null,
    maxRedemptions: num(f.maxRedemptions) ?? null,
    maxPerCustomer: num(f.maxPerCustomer) ?? null,
    minimumAmounts: num(f.minimum) !== undefined ? [{ amount: num(f.minimum)!, currency: f.currency }] : [],
  } as CouponUpdateParams;
}

/** "20% off" or "5.00 USD off" (every currency it covers). */
export function discountWords(c: Coupon): string {
  if (c.percentOff !== undefined) return `${c.percentOff}% off`;
  return `${(c.amountsOff ?? []).map((m) => `${m.amount.toFixed(2)} ${m.currency}`).join(' or ')} off`;
}

export function durationWords(c: Coupon): string {
  if (c.duration === 'forever') return 'every payment';
  if (c.duration === 'repeating') return `first ${c.durationPeriods} payments`;
  return 'first payment';
}
