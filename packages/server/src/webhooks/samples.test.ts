import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Value from 'typebox/value';
import { resourceOf } from '../events/resources.ts';
import { eventPayloads } from './payloads.ts';
import { eventTypes } from '../events/types.ts';
import { sampleEventData } from './samples.ts';

describe('test event samples', () => {
  it('gives every event type a sample shaped exactly like the real event\'s data', () => {
    for (const type of eventTypes) {
      const data = sampleEventData(type);
      const errors = [...Value.Errors(eventPayloads[type], data)].map((e) => `${e.instancePath} ${e.message}`);
      assert.deepEqual(errors, [], `${type}: ${errors.join('; ')}`);
    }
  });

  it('names what each sample is about, as the delivery log shows it', () => {
    const kinds = Object.fromEntries(eventTypes.map((type) => [type, resourceOf(type, sampleEventData(type) as Record<string, unknown>).type]));
    assert.deepEqual(kinds, {
      'transaction.succeeded': 'transaction', 'transaction.failed': 'transaction', 'transaction.refunded': 'transaction', 'transaction.disputed': 'transaction', 'payout.settled': 'payout',
      'subscription.renewed': 'membership', 'subscription.expired': 'membership', 'subscription.completed': 'membership',
      'member.joined': 'membership', 'member.removed': 'membership',
      'booking.confirmed': 'booking', 'booking.cancelled': 'booking', 'booking.rescheduled': 'booking',
      'order.shipped': 'transaction', 'order.ready_for_pickup': 'transaction',
    });
  });
});
