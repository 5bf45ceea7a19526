import { randomBytes } from 'node:crypto';
import type { EventType } from '../events/types.ts';

/**
 * Sample events for POST /webhooks/test: `data` has the shape the real event's data has (a
 * Transaction, a Membership record, a payout), with ids marked `sample` so nobody mistakes one
 * for a real object.
 */
export function sampleEventData(type: EventType, now = new Date()): Record<string, unknown> {
  const tag = randomBytes(6).toString('hex');
  const transaction = (status: string, kind = 'purchase') => ({
    txref: `tx_sample_${tag}`,
    type: kind,
    status,
    amount: 25.5,
    currency: 'USD',
    customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
    createdAt: now.toISOString(),
    resourceID: `prod_sample_${tag}`,
    metadata: { sample: 'true' },
  });
  const membership = (status: string) => ({
    membershipId: `mem_sample_${tag}`,
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    hubID: `hub_sample_${tag}`,
    status,
    plan: `tier_sample_${tag}`,
    joinedAt: now.toISOString(),
  });
  switch (type) {
    case 'transaction.succeeded': return transaction('succeeded');
    case 'transaction.failed': return transaction('failed');
    case 'subscription.renewed': return transaction('succeeded', 'renewal');
    case 'subscription.expired': return membership('expired');
    case 'subscription.completed': return membership('expired');
    case 'member.joined': return membership('active');
    case 'member.removed': return membership('removed');
    case 'payout.settled': return {
      id: `po_sample_${tag}`,
      status: 'settled',
      amount: 1250,
      currency: 'USD',
      settledAt: now.toISOString(),
    };
  }
}

/**
 * What a delivery is about, for the delivery log's resourceType/resourceID: read from the event's
 * data by shape, so events other domains record get it without telling us.
 */
export function resourceOf(data: Record<string, unknown>): { type: string | null; id: string | null } {
  if (typeof data.txref === 'string') return { type: 'transaction', id: data.txref };
  if (typeof data.membershipId === 'string') return { type: 'membership', id: data.membershipId };
  if (typeof data.id === 'string') {
    const prefix = /^([a-z]+)_/.exec(data.id)?.[1];
    const names: Record<string, string> = { po: 'payout', txn: 'transaction', mem: 'membership', sub: 'subscription', prod: 'product', imp: 'import' };
    return { type: (prefix && names[prefix]) ?? null, id: data.id };
  }
  return { type: null, id: null };
}
