import type { EventType } from './types.ts';

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
