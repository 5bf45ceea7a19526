import { randomBytes } from 'node:crypto';
import type { EventData, EventPayloads } from './payloads.ts';
import type { EventType } from '../events/types.ts';

/**
 * Sample events for POST /webhooks/test: `data` has the shape webhooks/payloads.ts gives the real
 * event's data (checked against it in samples.test.ts), with ids marked `sample` so nobody
 * mistakes one for a real object.
 */
export function sampleEventData<T extends EventType>(type: T, now = new Date(), tag = randomBytes(6).toString('hex')): EventData<T> {
  const at = now.toISOString();
  const transaction = (status: string, kind = 'purchase'): EventPayloads['transaction.succeeded'] => ({
    txref: `tx_sample_${tag}`,
    type: kind,
    status,
    amount: 25.5,
    currency: 'USD',
    customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
    createdAt: at,
    resourceID: `prod_sample_${tag}`,
    metadata: { sample: 'true' },
    refundedAmount: 0,
    refunds: [],
    version: status === 'pending' ? 1 : 2,
    updatedAt: at,
  });
  const membership = (status: string): EventPayloads['member.joined'] => ({
    membershipId: `mem_sample_${tag}`,
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    hubID: `hub_sample_${tag}`,
    status,
    plan: `tier_sample_${tag}`,
    joinedAt: at,
    version: status === 'active' ? 3 : 4,
    updatedAt: at,
  });
  const month = 30 * 86_400_000;
  const subscription = (status: EventPayloads['subscription.renewed']['subscription']['status'], charged?: string): EventPayloads['subscription.renewed'] => ({
    membership: membership(status === 'expired' ? 'expired' : 'active'),
    subscription: {
      status,
      currentPeriodStart: at,
      currentPeriodEnd: new Date(now.getTime() + month).toISOString(),
      periodsPaid: status === 'completed' ? 12 : 2,
      count: 12,
      cancelAtPeriodEnd: false,
      ...(status === 'active' ? { nextBillingAt: new Date(now.getTime() + month).toISOString() } : {}),
      version: status === 'active' ? 2 : 3,
      updatedAt: at,
    },
    ...(charged ? { transaction: transaction(charged, 'renewal') } : {}),
  });
  const booking = (status: EventPayloads['booking.confirmed']['status']): EventPayloads['booking.confirmed'] => {
    const start = new Date(now.getTime() + 3 * 86_400_000);
    start.setUTCHours(9, 0, 0, 0);
    return {
      id: `bkg_sample_${tag}`, productID: `prod_sample_${tag}`, tierID: `tier_sample_${tag}`, status,
      startsAt: start.toISOString(), endsAt: new Date(start.getTime() + 30 * 60_000).toISOString(), timezone: 'Europe/London', places: 1,
      customer: { name: 'Ada Lovelace', email: 'ada@example.com' }, txref: `tx_sample_${tag}`, paymentLinkID: `plink_sample_${tag}`,
      ...(status === 'rescheduled' ? { previousStartsAt: new Date(start.getTime() - 86_400_000).toISOString() } : {}),
      ...(status === 'cancelled' ? { cancelledAt: at, cancelReason: 'The coach is ill' } : {}),
      mode: 'test', createdAt: at, updatedAt: at,
    };
  };
  const samples: { [K in EventType]: () => EventPayloads[K] } = {
    'transaction.succeeded': () => transaction('succeeded'),
    'transaction.failed': () => transaction('failed'),
    'transaction.refunded': () => {
      const refund = { id: `rfd_sample_${tag}`, amount: 10, reason: 'Bought twice by mistake', status: 'succeeded' as const, createdAt: at };
      return { ...transaction('succeeded'), refundedAmount: 10, refunds: [refund], version: 4, refund };
    },
    'transaction.disputed': () => ({
      ...transaction('succeeded'), version: 3,
      dispute: { id: `du_sample_${tag}`, status: 'needs_response', amount: 25.5, reason: 'fraudulent', createdAt: at },
    }),
    'subscription.renewed': () => subscription('active', 'succeeded'),
    'subscription.expired': () => subscription('expired'),
    'subscription.completed': () => subscription('completed', 'succeeded'),
    'member.joined': () => membership('active'),
    'member.removed': () => membership('removed'),
    'booking.confirmed': () => booking('confirmed'),
    'booking.cancelled': () => booking('cancelled'),
    'booking.rescheduled': () => booking('rescheduled'),
    'order.shipped': () => ({
      ...transaction('succeeded'),
      amount: 30.5,
      shipping: {
        method: 'delivery', amount: 5, deliveryLocation: { id: 'us', name: 'United States' },
        address: { line1: '1 Market St', city: 'San Francisco', region: 'CA', postalCode: '94105', country: 'US' },
      },
      fulfilment: { status: 'shipped', carrier: 'USPS', trackingNumber: '9400111899223197428490', shippedAt: at },
      version: 3,
    }),
    'order.ready_for_pickup': () => ({
      ...transaction('succeeded'),
      shipping: {
        method: 'pickup', amount: 0,
        pickupLocation: { id: 'studio', name: 'Our studio', address: { line1: '500 Howard St', city: 'San Francisco', region: 'CA', postalCode: '94105', country: 'US' }, openingHours: 'Mon–Fri 10:00–18:00' },
      },
      fulfilment: { status: 'ready_for_pickup', readyForPickupAt: at },
      version: 3,
    }),
    'payout.settled': () => ({
      id: `po_sample_${tag}`,
      amount: 1187.5,
      currency: 'USD',
      fee: 62.5,
      transactionCount: 48,
      refunded: 0,
      refundCount: 0,
      gross: 1250,
      affiliateCommission: 0,
      commissionCount: 0,
      periodStart: new Date(now.getTime() - 86_400_000).toISOString(),
      periodEnd: at,
      settledAt: at,
      mode: 'test',
      version: 1,
      updatedAt: at,
    }),
  };
  return samples[type]() as EventData<T>;
}
