import { Type, type Static, type TSchema } from 'typebox';
import { Membership } from '../memberships/schemas.ts';
import { VersionFields } from '../object-version.ts';
import { Subscription } from '../subscriptions/schemas.ts';
import { Transaction, TransactionRefundedData } from '../transactions/schemas.ts';
import type { EventType } from './types.ts';
import { Mode } from '../http/shapes.ts';
import { Booking } from '../bookings/schemas.ts';

/**
 * The `data` of every event type, one TypeBox shape each (DESIGN.md, Events and the worker). The
 * same map types recordEvent, builds the samples of POST /webhooks/test, and feeds the OpenAPI
 * `webhooks` section that the SDK's event union is generated from.
 */

/** member.*: the Membership record, plus the product for a product's customer (the record names only a hub). */
export const MemberEventData = Type.Object({
  ...Membership.properties,
  productID: Type.Optional(Type.String({ description: 'The product, when the membership is a product\'s customer.' })),
}, { $id: 'MemberEventData' });

/** subscription.*: the membership, its subscription, and the charge that caused the event when there was one. */
export { Subscription };

export const SubscriptionEventData = Type.Object({
  membership: MemberEventData,
  subscription: Subscription,
  transaction: Type.Optional(Transaction),
}, { $id: 'SubscriptionEventData' });

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

export const eventPayloads = {
  'transaction.succeeded': Transaction,
  'transaction.failed': Transaction,
  'transaction.refunded': TransactionRefundedData,
  'transaction.disputed': Transaction,
  'payout.settled': Payout,
  'subscription.renewed': SubscriptionEventData,
  'subscription.expired': SubscriptionEventData,
  'subscription.completed': SubscriptionEventData,
  'member.joined': MemberEventData,
  'member.removed': MemberEventData,
  'booking.confirmed': Booking,
  'booking.cancelled': Booking,
  'booking.rescheduled': Booking,
  'order.shipped': Transaction,
  'order.ready_for_pickup': Transaction,
} as const satisfies Record<EventType, TSchema>;

export type EventPayloads = { [K in EventType]: Static<(typeof eventPayloads)[K]> };
export type EventData<K extends EventType> = EventPayloads[K];

/**
 * What an event is about, for the delivery log's resourceType/resourceID and for ordering one
 * object's deliveries: the transaction (txref), the membership, or the payout.
 */
export function resourceOf(type: EventType, data: Record<string, unknown>): { type: string | null; id: string | null } {
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  const family = type.slice(0, type.indexOf('.'));
  // An order is a transaction of a physical product (docs/shipping.md).
  const found = family === 'transaction' || family === 'order' ? { type: 'transaction', id: text(data.txref) }
    : family === 'member' ? { type: 'membership', id: text(data.membershipId) }
      : family === 'subscription' ? { type: 'membership', id: text((data.membership as Record<string, unknown> | undefined)?.membershipId) }
        : family === 'booking' ? { type: 'booking', id: text(data.id) }
          : { type: 'payout', id: text(data.id) };
  return found.id === null ? { type: null, id: null } : found;
}

/**
 * The object whose deliveries go out in order (docs/webhooks.md, Order and versions): the
 * membership for member.* and subscription.* (a subscription belongs to its membership, and its
 * events change that membership too), the transaction for transaction.*, the payout. A renewal's
 * transaction.succeeded and the subscription.renewed it causes are about two objects, so they are
 * not ordered against each other. Null when the data names no object.
 */
export function orderKeyOf(type: EventType, data: Record<string, unknown>): string | null {
  const resource = resourceOf(type, data);
  return resource.id === null ? null : `${resource.type}:${resource.id}`;
}
