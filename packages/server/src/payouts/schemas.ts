import { Type, type Static } from 'typebox';
import { Mode } from '../http/shapes.ts';
import { VersionFields } from '../object-version.ts';

/** payout.settled: settled earnings of one currency and mode, net of fees and refunds. */
export const Payout = Type.Object({
  id: Type.String({ description: '`po_…`' }),
  amount: Type.Number({ description: 'Net amount paid out: gross minus fees, as a decimal.' }),
  currency: Type.String(),
  fee: Type.Number({ description: 'Platform fees deducted, as a decimal.' }),
  transactionCount: Type.Integer({ minimum: 0 }),
  refunded: Type.Number({ description: 'Our addition: refunds deducted, as a decimal (docs/refunds.md). amount = gross - fee - refunded.' }),
  refundCount: Type.Integer({ minimum: 0, description: 'Our addition: how many refunds were deducted.' }),
  gross: Type.Optional(Type.Number({ description: 'Our addition: the payments\' amounts in all, as a decimal. amount = gross - fee - refunded - affiliateCommission, to the cent.' })),
  affiliateCommission: Type.Optional(Type.Number({ description: 'Our addition: affiliate commissions deducted (earned, past their hold), as a decimal (docs/affiliates.md).' })),
  commissionCount: Type.Optional(Type.Integer({ minimum: 0, description: 'Our addition: how many affiliate commissions were deducted.' })),
  periodStart: Type.String({ format: 'date-time' }),
  periodEnd: Type.String({ format: 'date-time' }),
  settledAt: Type.String({ format: 'date-time' }),
  mode: Mode,
  ...VersionFields,
}, { $id: 'Payout' });
export type Payout = Static<typeof Payout>;

/** One line of a payout (docs/payouts.md): its signed amounts add up to the payout's amount, to the cent. */
export const PayoutLine = Type.Object({
  type: Type.Union([Type.Literal('payment'), Type.Literal('fee'), Type.Literal('refund'), Type.Literal('affiliate_commission')], {
    description: '`payment` (its amount, positive), `fee` (the platform fee on that payment), `refund` and `affiliate_commission` (deducted, negative).',
  }),
  amount: Type.Number({ description: 'Signed decimal amount in the payout\'s currency.' }),
  txref: Type.String({ description: 'The transaction the line is about.' }),
  id: Type.Optional(Type.String({ description: 'The refund (`rfd_…`) or commission (`com_…`).' })),
  affiliateID: Type.Optional(Type.String({ description: 'On `affiliate_commission`: the affiliate owed it.' })),
}, {
  $id: 'PayoutLine',
  examples: [{ type: 'affiliate_commission', amount: -1.84, txref: 'tx_4kP9qR2mVx7LwT3b', id: 'com_2Lm8Qx4rT9vW7yZb1kPn', affiliateID: 'aff_3kTq9ZrV7mXw2PaLbN4c' }],
});
export type PayoutLine = Static<typeof PayoutLine>;

export const PayoutDetail = Type.Object({
  ...Payout.properties,
  lines: Type.Array(PayoutLine, { description: 'Our addition, on GET /payouts/{id}: every payment, fee, refund and affiliate commission in it, oldest payment first.' }),
}, {
  $id: 'PayoutDetail',
  examples: [{
    id: 'po_7hQ2mXk9LrT4vW1yZb3n', amount: 7.36, currency: 'USD', fee: 0.8, transactionCount: 1, refunded: 0, refundCount: 0,
    gross: 10, affiliateCommission: 1.84, commissionCount: 1,
    periodStart: '2026-11-01T00:00:00.000Z', periodEnd: '2026-11-02T00:00:00.000Z', settledAt: '2026-11-02T00:00:00.000Z', mode: 'live',
    version: 1, updatedAt: '2026-11-02T00:00:00.000Z',
    lines: [
      { type: 'payment', amount: 10, txref: 'tx_4kP9qR2mVx7LwT3b' },
      { type: 'fee', amount: -0.8, txref: 'tx_4kP9qR2mVx7LwT3b' },
      { type: 'affiliate_commission', amount: -1.84, txref: 'tx_4kP9qR2mVx7LwT3b', id: 'com_2Lm8Qx4rT9vW7yZb1kPn', affiliateID: 'aff_3kTq9ZrV7mXw2PaLbN4c' },
    ],
  }],
});
export type PayoutDetail = Static<typeof PayoutDetail>;
