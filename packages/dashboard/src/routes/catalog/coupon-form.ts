import type { Coupon, CouponCreateParams, CouponUpdateParams } from '@creator-commerce/sdk';
import { money } from '../people/format.ts';

/**
 * The Discounts form (catalog → Discounts) as text the inputs hold, and the API bodies made from
 * it. A fixed amount off and a minimum order are each one row per currency, as the API takes them:
 * a buyer paying in a currency the coupon has no amount for is told so at checkout.
 */
export interface MoneyRow {
  amount: string;
  currency: string;
}

export interface CouponForm {
  code: string;
  name: string;
  kind: 'percent' | 'amount';
  percentOff: string;
  amountsOff: MoneyRow[];
  products: string[];
  hubs: string[];
  startsAt: string;
  endsAt: string;
  maxRedemptions: string;
  maxPerCustomer: string;
  minimums: MoneyRow[];
  duration: 'once' | 'repeating' | 'forever';
  durationPeriods: string;
}

export const emptyCouponForm = (): CouponForm => ({
  code: '', name: '', kind: 'percent', percentOff: '', amountsOff: [{ amount: '', currency: 'USD' }], products: [], hubs: [],
  startsAt: '', endsAt: '', maxRedemptions: '', maxPerCustomer: '', minimums: [], duration: 'once', durationPeriods: '',
});

/** An ISO instant as a datetime-local input's value (the reader's local time), and back. */
const toLocal = (iso?: string) => {
  if (!iso) return '';
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const fromLocal = (v: string) => (v ? new Date(v).toISOString() : undefined);
const num = (v: string) => (v.trim() === '' ? undefined : Number(v.trim().replace(',', '.')));

const rowsOf = (list: { amount: number; currency: string }[] | undefined): MoneyRow[] => (list ?? []).map((m) => ({ amount: String(m.amount), currency: m.currency }));

/** The rows with something typed in them, as the API's list (an empty row is left out, so a blank form row costs nothing). */
const moneyOf = (rows: MoneyRow[]) => rows
  .filter((r) => r.amount.trim() !== '' || r.currency.trim() !== '')
  .map((r) => ({ amount: num(r.amount), currency: r.currency.trim().toUpperCase() }));

export function couponToForm(c: Coupon): CouponForm {
  return {
    code: c.code, name: c.name ?? '', kind: c.percentOff !== undefined ? 'percent' : 'amount',
    percentOff: c.percentOff !== undefined ? String(c.percentOff) : '', amountsOff: rowsOf(c.amountsOff),
    products: c.appliesTo?.products ?? [], hubs: c.appliesTo?.hubs ?? [],
    startsAt: toLocal(c.startsAt), endsAt: toLocal(c.endsAt),
    maxRedemptions: c.maxRedemptions !== undefined ? String(c.maxRedemptions) : '', maxPerCustomer: c.maxPerCustomer !== undefined ? String(c.maxPerCustomer) : '',
    minimums: rowsOf(c.minimumAmounts), duration: c.duration, durationPeriods: c.durationPeriods !== undefined ? String(c.durationPeriods) : '',
  };
}

const scopeOf = (f: CouponForm) => (f.products.length || f.hubs.length ? { appliesTo: { products: f.products, hubs: f.hubs } } : {});

export function createBody(f: CouponForm): CouponCreateParams {
  const body: Record<string, unknown> = { code: f.code.trim(), duration: f.duration, ...scopeOf(f) };
  if (f.name.trim()) body.name = f.name.trim();
  if (f.kind === 'percent') body.percentOff = num(f.percentOff);
  else body.amountsOff = moneyOf(f.amountsOff);
  if (f.startsAt) body.startsAt = fromLocal(f.startsAt);
  if (f.endsAt) body.endsAt = fromLocal(f.endsAt);
  if (num(f.maxRedemptions) !== undefined) body.maxRedemptions = num(f.maxRedemptions);
  if (num(f.maxPerCustomer) !== undefined) body.maxPerCustomer = num(f.maxPerCustomer);
  if (moneyOf(f.minimums).length) body.minimumAmounts = moneyOf(f.minimums);
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
    minimumAmounts: moneyOf(f.minimums),
  } as CouponUpdateParams;
}

/** "20% off" or "USD 5.00 or JPY 700 off" (every currency it covers, each with its own decimals). */
export function discountWords(c: Coupon): string {
  if (c.percentOff !== undefined) return `${c.percentOff}% off`;
  return `${(c.amountsOff ?? []).map((m) => money(m.amount, m.currency)).join(' or ')} off`;
}

export function durationWords(c: Coupon): string {
  if (c.duration === 'forever') return 'every payment';
  if (c.duration === 'repeating') return `first ${c.durationPeriods} payments`;
  return 'first payment';
}
