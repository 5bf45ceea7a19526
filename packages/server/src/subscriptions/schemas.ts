import { Type, type Static } from 'typebox';
import { VersionFields } from '../object-version.ts';

/**
 * The recurring side of a membership bought on a recurring tier (docs/subscriptions.md). Our
 * addition: the reference's Membership record carries it as the optional `subscription`, and the
 * subscription.* events carry it beside the membership.
 */
export const Subscription = Type.Object({
  status: Type.Union([Type.Literal('active'), Type.Literal('past_due'), Type.Literal('cancelled'), Type.Literal('expired'), Type.Literal('completed')],
    { description: '`active`, `past_due` (a renewal failed and is being retried), `cancelled`, `expired` or `completed` (every one of `count` periods paid).' }),
  currentPeriodStart: Type.String({ format: 'date-time' }),
  currentPeriodEnd: Type.String({ format: 'date-time' }),
  periodsPaid: Type.Integer({ minimum: 0 }),
  count: Type.Integer({ minimum: 0, description: 'Billing periods agreed; 0 renews until cancelled.' }),
  cancelAtPeriodEnd: Type.Boolean(),
  nextBillingAt: Type.Optional(Type.String({ format: 'date-time', description: 'Absent once nothing more will be billed.' })),
  ...VersionFields,
}, { $id: 'Subscription' });

export type Subscription = Static<typeof Subscription>;

export const CancelBody = Type.Object({
  atPeriodEnd: Type.Boolean({ description: '`true`: keep access until the paid period ends and stop renewing; `false`: remove the member now (no refund).' }),
}, { additionalProperties: false });

/** Where a subscription stands, in the list's words: `active` and `cancelling` are both paid up. */
const subscriptionState = (description: string) =>
  Type.Union([Type.Literal('active'), Type.Literal('past_due'), Type.Literal('cancelling'), Type.Literal('ended')], { description });

/** One subscription as GET /subscriptions lists it (our addition, docs/subscriptions.md). */
export const SubscriptionSummary = Type.Object({
  id: Type.String({ description: '`sub_…`' }),
  membershipID: Type.String({ description: 'The membership it pays for: POST /memberships/{id}/cancel and /resume act on it.' }),
  state: subscriptionState('`active` (renewing), `cancelling` (paid up, ends at the period end), `past_due` (a renewal failed and is retried) or `ended` (`status` says how).'),
  status: Subscription.properties.status,
  productID: Type.Optional(Type.String({ description: 'The product, for a product\'s subscription.' })),
  hubID: Type.Optional(Type.String({ description: 'The hub, for a hub membership\'s subscription.' })),
  tierID: Type.String(),
  amount: Type.Number({ description: 'What each renewal charges, as a decimal.' }),
  currency: Type.String(),
  periodic: Type.Union([Type.Literal('daily'), Type.Literal('weekly'), Type.Literal('monthly'), Type.Literal('yearly')]),
  interval: Type.Integer({ minimum: 1, description: 'Billed every `interval` `periodic` periods (2 and monthly: every 2 months).' }),
  count: Type.Integer({ minimum: 0, description: 'Billing periods agreed; 0 renews until cancelled.' }),
  mrr: Type.Number({ description: 'Its monthly recurring revenue in `currency`: `amount` brought to a month (yearly ÷ 12, weekly × 52 ÷ 12, daily × 365 ÷ 12, '
    + 'each ÷ `interval`), rounded to the currency\'s minor unit; 0 unless `active` or `past_due` (a cancelling one will not renew).' }),
  nextRenewalAt: Type.Optional(Type.String({ format: 'date-time', description: 'When it is next charged; absent once nothing more will be billed.' })),
  currentPeriodEnd: Type.String({ format: 'date-time' }),
  failedAttempts: Type.Integer({ minimum: 0, description: 'Charges tried and failed since the period ended (past due).' }),
  startedAt: Type.String({ format: 'date-time' }),
  endedAt: Type.Optional(Type.String({ format: 'date-time' })),
  customer: Type.Object({
    id: Type.String({ description: 'The customer (`cus_…`, GET /customers/{id}).' }),
    name: Type.String(),
    email: Type.String(),
  }),
}, {
  $id: 'SubscriptionSummary',
  examples: [{
    id: 'sub_01jd…', membershipID: 'mem_01jd…', state: 'active', status: 'active', productID: 'prod_01jd…', tierID: 'tier_01jd…',
    amount: 10, currency: 'USD', periodic: 'monthly', interval: 1, count: 0, mrr: 10, nextRenewalAt: '2026-12-24T09:00:00.000Z',
    currentPeriodEnd: '2026-12-24T09:00:00.000Z', failedAttempts: 0, startedAt: '2026-10-24T09:00:00.000Z',
    customer: { id: 'cus_3f2a9c0d4b5e6f708192a3b4c5d6e7f8', name: 'Ada Lovelace', email: 'ada@example.com' },
  }],
});

export type SubscriptionSummary = Static<typeof SubscriptionSummary>;

export const SubscriptionListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size, 1 to 100 (default 20).' })),
  cursor: Type.Optional(Type.String({ description: '`nextCursor` of the previous page.' })),
  status: Type.Optional(subscriptionState('Only subscriptions in this `state`: active, past_due, cancelling or ended.')),
  product: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only those paying for this product id.' })),
  hub: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only those paying for a membership of this hub id.' })),
  tier: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only those on this tier id.' })),
  customer: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only this customer\'s (`cus_…`).' })),
}, { examples: [{ status: 'past_due' }] });

export type SubscriptionListQuery = Static<typeof SubscriptionListQuery>;
