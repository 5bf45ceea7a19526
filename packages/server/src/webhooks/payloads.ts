import { Type, type Static, type TSchema } from 'typebox';
import { Membership } from '../memberships/schemas.ts';
import { VersionFields } from '../object-version.ts';
import { Subscription } from '../subscriptions/schemas.ts';
import { Transaction, TransactionRefundedData } from '../transactions/schemas.ts';
import type { EventType } from '../events/types.ts';
import { Mode } from '../http/shapes.ts';
import { Booking } from '../bookings/schemas.ts';
import { Payout } from '../payouts/schemas.ts';

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

