/** The event types of the reference's Events section. */
export const eventTypes = [
  'transaction.succeeded',
  'transaction.failed',
  'transaction.refunded',
  'transaction.disputed',
  'payout.settled',
  'subscription.renewed',
  'subscription.expired',
  'subscription.completed',
  'member.joined',
  'member.removed',
  // Our addition (docs/bookings.md).
  'booking.confirmed',
  'booking.cancelled',
  'booking.rescheduled',
  // Our addition (docs/shipping.md).
  'order.shipped',
  'order.ready_for_pickup',
] as const;

export type EventType = (typeof eventTypes)[number];

export const isEventType = (s: string): s is EventType => (eventTypes as readonly string[]).includes(s);
