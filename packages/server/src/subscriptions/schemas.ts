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
