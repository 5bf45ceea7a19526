import type { EventType } from '@creator-commerce/sdk';

/**
 * Every event type with what it means. `satisfies` ties the list to the SDK's generated union:
 * a new event type on the server fails the dashboard's typecheck until it is described here.
 */
const descriptions = {
  'transaction.succeeded': 'A payment went through.',
  'transaction.failed': 'A payment failed.',
  'transaction.refunded': 'Money was given back on a payment (in full or in part).',
  'transaction.disputed': 'A buyer disputed a payment with their bank, or the dispute was closed (won or lost).',
  'payout.settled': 'A payout reached the bank account.',
  'subscription.renewed': 'A subscription was charged for another period.',
  'subscription.expired': 'A subscription ended without renewal.',
  'subscription.completed': 'A subscription reached its last period.',
  'member.joined': 'Someone joined a hub or bought a product.',
  'member.removed': 'A member or customer was removed.',
  'booking.confirmed': 'A buyer paid for a booking of a bookable product.',
  'booking.cancelled': 'A booking was cancelled.',
  'booking.rescheduled': 'A booking was moved to another time.',
  'order.shipped': 'An order of a physical product was shipped (carrier and tracking number).',
  'order.ready_for_pickup': 'An order of a physical product is ready to collect at its pickup point.',
} satisfies Record<EventType, string>;

export const eventTypes = Object.keys(descriptions) as EventType[];

export function describeEventType(type: EventType): string {
  return descriptions[type];
}
