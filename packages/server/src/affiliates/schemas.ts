import { Type, type Static } from 'typebox';
import { VersionFields } from '../object-version.ts';
import { OneOf } from '../http/shapes.ts';

/**
 * Affiliates (our addition, docs/affiliates.md): people a brand pays a commission on the sales
 * they bring, attributed by a code on the payment link (items[].affiliate) or the web checkout's
 * address (?ref=CODE).
 */

const Percent = Type.Number({ minimum: 0, maximum: 100, multipleOf: 0.01, description: 'Percent of the payment\'s net (amount less platform fee), 0 to 100, at most two decimals.' });

const Code = Type.String({
  minLength: 2, maxLength: 40, pattern: '^[A-Za-z0-9_-]+$',
  description: 'What links name: letters, digits, `-` and `_`, 2 to 40 characters; case-insensitive, unique among the brand\'s active affiliates of this mode.',
});

export const ProductCommission = Type.Object({
  productID: Type.String({ minLength: 1, maxLength: 100, description: 'A product (or hub) id of your brand.' }),
  commissionPercent: Percent,
}, { additionalProperties: false });

/** What an affiliate brought in one currency. */
export const AffiliateStats = Type.Object({
  currency: Type.String(),
  sales: Type.Integer({ description: 'Attributed payments that succeeded (renewals included when the affiliate earns on them).' }),
  salesAmount: Type.Number({ description: 'Their amounts in all, as a decimal.' }),
  pending: Type.Number({ description: 'Commission still in its hold (AFFILIATE_HOLD): a refund made now reduces it.' }),
  earned: Type.Number({ description: 'Commission past its hold: fixed, owed to the affiliate (deducted from your payouts).' }),
  paidOut: Type.Number({ description: 'The part of `earned` already deducted from a payout.' }),
}, { examples: [{ currency: 'USD', sales: 3, salesAmount: 90, pending: 11.4, earned: 5.7, paidOut: 5.7 }] });

export const Affiliate = Type.Object({
  id: Type.String({ description: '`aff_…`' }),
  mode: Type.String({ description: '`test` or `live`, from the key that made it: a test affiliate earns on test sales only.' }),
  name: Type.String(),
  email: Type.String(),
  code: Type.String(),
  commissionPercent: Type.Number(),
  productCommissions: Type.Array(ProductCommission, { description: 'Products with their own percent; others earn `commissionPercent`.' }),
  recurring: Type.Boolean({ description: 'Whether renewals of a subscription the affiliate brought earn commission too.' }),
  status: OneOf(['active', 'archived'], { description: '`active`, or `archived` (its code attributes nothing new; what it earned stays).' }),
  stats: Type.Array(AffiliateStats, { description: 'Per currency, in this mode.' }),
  createdAt: Type.String({ format: 'date-time' }),
  ...VersionFields,
}, {
  $id: 'Affiliate',
  examples: [{
    id: 'aff_3kTq9ZrV7mXw2PaLbN4c', mode: 'live', name: 'Rita Inks', email: 'rita@example.com', code: 'RITA10',
    commissionPercent: 20, productCommissions: [{ productID: 'prod_8fJ2kLm9QxR4tV7wY1zA', commissionPercent: 30 }], recurring: true, status: 'active',
    stats: [{ currency: 'USD', sales: 3, salesAmount: 90, pending: 11.4, earned: 5.7, paidOut: 5.7 }],
    createdAt: '2026-11-02T10:15:00.000Z', version: 1, updatedAt: '2026-11-02T10:15:00.000Z',
  }],
});
export type Affiliate = Static<typeof Affiliate>;

export const AffiliateCreateBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  email: Type.String({ format: 'email', maxLength: 320, description: 'Where you reach the affiliate; nothing is sent to it.' }),
  code: Code,
  commissionPercent: Percent,
  productCommissions: Type.Optional(Type.Array(ProductCommission, { maxItems: 100 })),
  recurring: Type.Optional(Type.Boolean({ description: 'Default false: only the first payment earns.' })),
}, {
  additionalProperties: false,
  $id: 'AffiliateCreateRequest',
  examples: [{ name: 'Rita Inks', email: 'rita@example.com', code: 'RITA10', commissionPercent: 20, productCommissions: [{ productID: 'prod_8fJ2kLm9QxR4tV7wY1zA', commissionPercent: 30 }], recurring: true }],
});
export type AffiliateCreateBody = Static<typeof AffiliateCreateBody>;

export const AffiliateUpdateBody = Type.Object({
  name: Type.Optional(AffiliateCreateBody.properties.name),
  email: Type.Optional(AffiliateCreateBody.properties.email),
  code: Type.Optional(Code),
  commissionPercent: Type.Optional(Percent),
  productCommissions: Type.Optional(Type.Array(ProductCommission, { maxItems: 100, description: 'The whole list; [] clears it.' })),
  recurring: Type.Optional(Type.Boolean()),
  status: Type.Optional(Type.Enum(['active', 'archived'], { type: 'string', description: '`archived` stops new attributions; `active` restores it (if its code is free).' })),
}, {
  additionalProperties: false,
  minProperties: 1,
  $id: 'AffiliateUpdateRequest',
  examples: [{ commissionPercent: 25 }, { status: 'archived' }],
});
export type AffiliateUpdateBody = Static<typeof AffiliateUpdateBody>;

export const AffiliateListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size, 1 to 100 (default 20).' })),
  cursor: Type.Optional(Type.String({ description: '`nextCursor` of the previous page.' })),
  status: Type.Optional(Type.Enum(['active', 'archived'], { type: 'string', description: 'Only affiliates with this status.' })),
});

/** The affiliate facts on a transaction (additive field). */
export const TransactionAffiliate = Type.Object({
  id: Type.String({ description: 'The affiliate (`aff_…`; GET /affiliates/{id} shows its commissions).' }),
  code: Type.String({ description: 'The code the sale came with.' }),
}, {
  description: 'Our addition: the affiliate the payment is attributed to (docs/affiliates.md).',
  examples: [{ id: 'aff_3kTq9ZrV7mXw2PaLbN4c', code: 'RITA10' }],
});
