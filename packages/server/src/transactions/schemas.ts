import { Type, type Static } from 'typebox';
import { VersionFields } from '../object-version.ts';
import { TransactionAffiliate } from '../affiliates/schemas.ts';
import { OneOf } from '../http/shapes.ts';
import { Fulfilment, FulfilmentStatus, OrderShipping } from '../shipping/schemas.ts';

/** One refund of a transaction (docs/refunds.md). Our addition. */
export const Refund = Type.Object({
  id: Type.String({ description: '`rfd_…`' }),
  amount: Type.Number({ description: 'Decimal amount given back, in the transaction\'s currency.' }),
  reason: Type.Union([Type.String(), Type.Null()], { description: 'Why, as given when it was asked for; null when none was.' }),
  status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')], {
    description: '`pending` while the provider processes it (its amount is held), then `succeeded` or `failed`.',
  }),
  createdAt: Type.String({ format: 'date-time' }),
}, { $id: 'Refund' });

export type Refund = Static<typeof Refund>;

/** A dispute (chargeback) of a payment, as the provider reports it (docs/refunds.md, Disputes). Our addition. */
export const Dispute = Type.Object({
  id: Type.String({ description: 'The provider\'s id for it (Stripe: `du_…`).' }),
  status: Type.String({ description: 'The provider\'s words: `needs_response`, `under_review`, `won`, `lost` (Stripe also has `warning_*` for inquiries).' }),
  amount: Type.Number({ description: 'Decimal amount disputed.' }),
  reason: Type.Union([Type.String(), Type.Null()], { description: 'Why the buyer disputed it (Stripe: `fraudulent`, `product_not_received`, …).' }),
  createdAt: Type.String({ format: 'date-time' }),
  closedAt: Type.Optional(Type.String({ format: 'date-time', description: 'When it was won or lost.' })),
}, {
  $id: 'Dispute',
  examples: [{ id: 'du_1Q2w3E4r5T6y7U8i', status: 'lost', amount: 39.5, reason: 'fraudulent', createdAt: '2026-11-20T09:12:00.000Z', closedAt: '2026-12-04T16:40:00.000Z' }],
});

export const Transaction = Type.Object({
  txref: Type.String({ description: 'The transaction reference; the id in /transactions/{id}.' }),
  type: OneOf(['purchase', 'renewal'], { description: '`purchase` or `renewal`.' }),
  status: OneOf(['pending', 'succeeded', 'failed', 'refunded'], { description: '`pending`, `succeeded`, `failed`, or `refunded` once refunds have given all of it back (docs/refunds.md).' }),
  amount: Type.Number({ description: 'Decimal amount, e.g. 25.5.' }),
  currency: Type.String(),
  customer: Type.Object({ name: Type.String(), email: Type.String() }),
  createdAt: Type.String({ format: 'date-time' }),
  resourceID: Type.Optional(Type.String({ description: 'What was bought: a product or hub id.' })),
  metadata: Type.Record(Type.String(), Type.String(), { description: 'The metadata given when the payment link was made.' }),
  refundedAmount: Type.Number({ description: 'Our addition: the decimal amount refunds have given back so far (succeeded refunds only).' }),
  refunds: Type.Array(Refund, { description: 'Our addition: the transaction\'s refunds, oldest first.' }),
  fee: Type.Optional(Type.Number({
    description: 'Our addition, on a payment that succeeded (in GET, lists and refund answers): the platform fee, as a decimal. '
      + 'Fixed once the payment is in a payout; before that, what the next payout will charge under the current fee settings (docs/payouts.md).',
  })),
  net: Type.Optional(Type.Number({ description: 'Our addition, with `fee`: what the brand keeps, amount − fee − refundedAmount, as a decimal.' })),
  attribution: Type.Optional(Type.Object({
    utmRef: Type.Optional(Type.String({ description: 'The utm_* parameters of the checkout page\'s address, as a query string.' })),
    adClickID: Type.Optional(Type.String({ description: 'The ad click id (gclid or fbclid).' })),
    adType: Type.Optional(Type.String({ description: '`google` (gclid) or `facebook` (fbclid), or as the payment link said.' })),
  }, { description: 'Our addition: where the buyer came from, from the payment link\'s utmRef, adClickID and adType (the web checkout fills them from its address).' })),
  coupon: Type.Optional(Type.String({ description: 'Our addition: the coupon code the payment used (docs/coupons.md).' })),
  discount: Type.Optional(Type.Number({ description: 'Our addition, with `coupon`: the decimal amount the coupon took off; `amount` is after it.' })),
  affiliate: Type.Optional(TransactionAffiliate),
  // Our addition: present once the buyer disputed the payment with their bank; a lost dispute is also a refund in `refunds`.
  dispute: Type.Optional(Dispute),
  // Our addition, on orders of physical products (docs/shipping.md).
  shipping: Type.Optional(OrderShipping),
  fulfilment: Type.Optional(Fulfilment),
  ...VersionFields,
}, { $id: 'Transaction' });

export type Transaction = Static<typeof Transaction>;

export const RefundBody = Type.Object({
  amount: Type.Optional(Type.Number({
    exclusiveMinimum: 0,
    description: 'Decimal amount to give back, at most what is left (the amount paid less earlier refunds). Omitted: all that is left.',
  })),
  reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Why, in words; kept on the refund and sent to the provider.' })),
  revokeAccess: Type.Optional(Type.Boolean({
    description: 'End the access the transaction bought (memberships removed, subscription cancelled). '
      + 'Default: true when this refund gives back all that is left, false for a partial refund.',
  })),
}, { additionalProperties: false });

export type RefundBody = Static<typeof RefundBody>;

/** POST /test/transactions/{txref}/dispute/close: how the buyer's bank decides a sandbox dispute. */
export const DisputeCloseBody = Type.Object({
  outcome: Type.Union([Type.Literal('won'), Type.Literal('lost')], {
    description: '`won`: the payment stands. `lost`: the disputed amount goes back to the buyer, recorded as a refund (reason "dispute lost (…)").',
  }),
}, { additionalProperties: false });

export type DisputeCloseBody = Static<typeof DisputeCloseBody>;

/** transaction.refunded's data: the transaction as it now stands, and the refund that caused the event. */
export const TransactionRefundedData = Type.Object({
  ...Transaction.properties,
  refund: Refund,
}, { $id: 'TransactionRefundedData' });

/** The filters of GET /transactions and GET /transactions/totals (our addition, issue 26); all optional, all combined. */
export const TransactionFilters = {
  status: Type.Optional(Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed'), Type.Literal('refunded')], {
    description: 'Only transactions in this status.',
  })),
  resourceID: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only what bought this product or hub (its id).' })),
  createdFrom: Type.Optional(Type.String({ format: 'date-time', description: 'Only those created at or after this instant.' })),
  createdBefore: Type.Optional(Type.String({ format: 'date-time', description: 'Only those created before this instant.' })),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 320, description: 'Search: the txref exactly, or part of the customer\'s email (ignoring case).' })),
  fulfilment: Type.Optional({
    ...FulfilmentStatus,
    description: 'Only orders of physical products whose fulfilment stands here (docs/shipping.md); `unfulfilled` with `status=succeeded` is the fulfilment queue.',
  }),
};

export const TransactionListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size, 1 to 100 (default 20).' })),
  cursor: Type.Optional(Type.String({ description: '`nextCursor` of the previous page.' })),
  order: Type.Optional(Type.Union([Type.Literal('newest'), Type.Literal('oldest')], {
    description: 'Our addition: `newest` first (the default) or `oldest` first (the fulfilment queue\'s order). A cursor pages the order it came from.',
  })),
  ...TransactionFilters,
}, { examples: [{ status: 'succeeded', createdFrom: '2026-11-01T00:00:00Z', q: 'ada@' }, { status: 'succeeded', fulfilment: 'unfulfilled', order: 'oldest' }] });

export type TransactionListQuery = Static<typeof TransactionListQuery>;

export const TransactionTotalsQuery = Type.Object(TransactionFilters, { examples: [{ resourceID: 'prod_01jd…', createdFrom: '2026-11-01T00:00:00Z' }] });

export type TransactionTotalsQuery = Static<typeof TransactionTotalsQuery>;

/** What the transactions a filter selects add up to, one entry per currency (never added together). */
export const TransactionTotals = Type.Object({
  items: Type.Array(Type.Object({
    currency: Type.String(),
    count: Type.Integer({ minimum: 0, description: 'Transactions of this currency, whatever their status.' }),
    paidCount: Type.Integer({ minimum: 0, description: 'Of those, the ones that succeeded (refunded since or not).' }),
    paid: Type.Number({ description: 'What the paid ones took, as a decimal.' }),
    refunded: Type.Number({ description: 'What refunds gave back of them, as a decimal.' }),
  }), { description: 'One entry per currency, sorted by code.' }),
}, { $id: 'TransactionTotals', examples: [{ items: [{ currency: 'USD', count: 12, paidCount: 10, paid: 395, refunded: 39.5 }] }] });

export type TransactionTotals = Static<typeof TransactionTotals>;
