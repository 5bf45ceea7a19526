import { Type, type Static } from 'typebox';
import { Money } from '../money.ts';
import { OneOf, Timestamp } from '../http/shapes.ts';

/**
 * Coupons (our addition, docs/coupons.md): a code a buyer types at checkout for a percentage or an
 * amount off, with optional scope, validity window, caps and minimum. Amounts are decimal, as
 * everywhere in the API; they are stored in minor units.
 */

const Ids = (what: string) => Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100, uniqueItems: true, description: `Only lines of these ${what}.` });

const AmountsOff = Type.Array(Money, {
  minItems: 1, maxItems: 20,
  description: 'An amount off in each currency the coupon is good for (one entry per currency); an order in another currency cannot use it.',
});
const MinimumAmounts = Type.Array(Money, {
  maxItems: 20,
  description: 'The least an order must come to before the discount, per currency; orders in currencies not listed have no minimum.',
});

export const AppliesTo = Type.Object({
  products: Type.Optional(Ids('products')),
  tiers: Type.Optional(Ids('tiers')),
  hubs: Type.Optional(Ids('hubs (their plans, and the products that belong to them)')),
}, {
  additionalProperties: false,
  description: 'What the discount applies to: a line qualifies when its product, tier or hub is listed. Absent or all empty: the whole order, add-ons included.',
});

const durationWords = 'On recurring tiers: `once` discounts the first payment only, `repeating` the first `durationPeriods` payments, `forever` every payment.';
const Duration = Type.Union([Type.Literal('once'), Type.Literal('repeating'), Type.Literal('forever')], { description: durationWords });

const couponFields = {
  id: Type.String(),
  code: Type.String({ description: 'What the buyer types; matched ignoring case.' }),
  name: Type.Optional(Type.String()),
  mode: Type.String({ description: '`test` or `live`, from the key that made it.' }),
  percentOff: Type.Optional(Type.Number({ description: 'Percent taken off the qualifying lines.' })),
  amountsOff: Type.Optional(Type.Array(Money, { description: 'Amount taken off the qualifying lines, per currency.' })),
  appliesTo: Type.Optional(AppliesTo),
  startsAt: Type.Optional(Timestamp),
  endsAt: Type.Optional(Timestamp),
  maxRedemptions: Type.Optional(Type.Integer({ description: 'Total uses allowed (paid and pending payments count).' })),
  maxPerCustomer: Type.Optional(Type.Integer({ description: 'Uses allowed per buyer, by normalised email.' })),
  minimumAmounts: Type.Array(Money),
  duration: Duration,
  durationPeriods: Type.Optional(Type.Integer({ description: 'With `repeating`: how many payments in all are discounted, the first included.' })),
  status: OneOf(['active', 'archived'], { description: '`active`, or `archived` (no new buyer can use it; subscriptions keep their discount).' }),
  redemptions: Type.Integer({ description: 'Paid payments that used it.' }),
  reserved: Type.Integer({ description: 'Payments under way that hold a use of it; released if they fail.' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

const example = {
  id: 'cpn_3xYq0aVt9LkW2mZp4RbN', code: 'SPRING20', name: 'Spring sale', mode: 'test', percentOff: 20,
  appliesTo: { products: ['prod_9QmZ2xT4vRk1LpW8aYbC'] }, endsAt: '2026-06-01T00:00:00.000Z', maxRedemptions: 100, maxPerCustomer: 1,
  minimumAmounts: [{ amount: 10, currency: 'USD' }], duration: 'once', status: 'active', redemptions: 12, reserved: 1,
  createdAt: '2026-03-01T09:00:00.000Z', updatedAt: '2026-03-01T09:00:00.000Z',
};

export const Coupon = Type.Object(couponFields, { $id: 'Coupon', examples: [example] });
export type Coupon = Static<typeof Coupon>;

export const CouponRedemption = Type.Object({
  txref: Type.String(),
  email: Type.String({ description: 'The buyer, as they typed it.' }),
  status: OneOf(['pending', 'succeeded', 'refunded'], { description: '`pending`, `succeeded` or `refunded` (the payment\'s status); released uses are not listed.' }),
  discount: Money,
  paid: Money,
  createdAt: Timestamp,
}, { $id: 'CouponRedemption' });

export const CouponWithRedemptions = Type.Object({
  ...couponFields,
  revenue: Type.Array(Money, { description: 'What the paid payments that used it brought, per currency, after the discount and less refunds.' }),
  discounted: Type.Array(Money, { description: 'What it took off those payments in all, per currency.' }),
  recentRedemptions: Type.Array(CouponRedemption, { description: 'The 50 newest uses.' }),
}, {
  $id: 'CouponWithRedemptions',
  examples: [{
    ...example,
    revenue: [{ amount: 379.2, currency: 'USD' }],
    discounted: [{ amount: 94.8, currency: 'USD' }],
    recentRedemptions: [{ txref: 'tx_Jq2mW9xV0aLk3RtY7pZb', email: 'ada@example.com', status: 'succeeded', discount: { amount: 7.9, currency: 'USD' }, paid: { amount: 31.6, currency: 'USD' }, createdAt: '2026-03-02T10:15:00.000Z' }],
  }],
});
export type CouponWithRedemptions = Static<typeof CouponWithRedemptions>;

const Code = Type.String({ minLength: 2, maxLength: 40, pattern: '^[A-Za-z0-9_-]+$', description: 'Letters, digits, `-` and `_`; matched ignoring case; unique among the brand\'s active coupons.' });
const Name = Type.String({ minLength: 1, maxLength: 200, description: 'Your label (e.g. "Spring sale"); buyers see the code.' });
const Cap = (description: string) => Type.Integer({ minimum: 1, maximum: 10_000_000, description });

export const CouponCreateBody = Type.Object({
  code: Code,
  name: Type.Optional(Name),
  percentOff: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 100, description: 'Percent off, up to two decimals. Give this or `amountsOff`.' })),
  amountsOff: Type.Optional(AmountsOff),
  appliesTo: Type.Optional(AppliesTo),
  startsAt: Type.Optional({ ...Timestamp, description: 'Not usable before this instant.' }),
  endsAt: Type.Optional({ ...Timestamp, description: 'Not usable from this instant on.' }),
  maxRedemptions: Type.Optional(Cap('Total uses allowed.')),
  maxPerCustomer: Type.Optional(Cap('Uses allowed per buyer (by normalised email).')),
  minimumAmounts: Type.Optional(MinimumAmounts),
  duration: Type.Optional(Type.Union([Type.Literal('once'), Type.Literal('repeating'), Type.Literal('forever')], { description: `${durationWords} Default \`once\`.` })),
  durationPeriods: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'With `repeating` only, and required there.' })),
}, {
  additionalProperties: false,
  $id: 'CouponCreateRequest',
  examples: [{ code: 'SPRING20', name: 'Spring sale', percentOff: 20, endsAt: '2026-06-01T00:00:00Z', maxRedemptions: 100, maxPerCustomer: 1 }],
});
export type CouponCreateBody = Static<typeof CouponCreateBody>;

const clearable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(s: T) => Type.Optional(Type.Union([s, Type.Null()]));

/** The discount itself and the code never change (make a new coupon): links and subscriptions already hold what they promised. */
export const CouponUpdateBody = Type.Object({
  name: clearable(Name),
  appliesTo: Type.Optional(AppliesTo),
  startsAt: clearable(Timestamp),
  endsAt: clearable(Timestamp),
  maxRedemptions: clearable(Cap('Total uses allowed; not below the uses made or under way.')),
  maxPerCustomer: clearable(Cap('Uses allowed per buyer.')),
  minimumAmounts: Type.Optional(MinimumAmounts),
}, {
  additionalProperties: false, minProperties: 1, $id: 'CouponUpdateRequest',
  examples: [{ endsAt: '2026-07-01T00:00:00Z', maxRedemptions: 200 }],
});
export type CouponUpdateBody = Static<typeof CouponUpdateBody>;

export const CouponListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size, 1 to 100 (default 20).' })),
  cursor: Type.Optional(Type.String({ description: '`nextCursor` of the previous page.' })),
  status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('archived')], { description: 'Only coupons with this status.' })),
  code: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'The coupon with this code (ignoring case).' })),
});
