import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, type Booking } from '@creator-commerce/sdk';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { cards } from '../testing/checkout-fixtures.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';
import { bookBody, callAvailability } from '../testing/bookings.ts';

/** The SDK's typed calls for bookable products, against the real server over HTTP (docs/bookings.md). */
let t: TestApp;
let baseUrl: string;
before(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}/api/v1`;
});
after(async () => { await t.close(); });

describe('the SDK and bookings', () => {
  it('creates a bookable product, reads its slots, books, pays, lists, reschedules and cancels', async () => {
    const { testKey } = await createBrandWithCatalog(t.db);
    const client = new Client({ apiKey: testKey, baseUrl });
    await client.testClock.advance({ to: '2027-06-06T08:00:00.000Z' });
    const product = await client.products.create({
      type: 'appointment', title: '1:1 coaching call', tiers: [{ name: 'Call', price: { amount: 40, currency: 'USD' } }], availability: callAvailability(),
    });
    assert.equal(product.availability?.timezone, 'Europe/London');
    const { slots } = await client.products.availability(product.id, { from: '2027-06-08T00:00:00Z', to: '2027-06-09T00:00:00Z', timezone: 'America/New_York' });
    assert.deepEqual(slots.map((s) => s.localStart), ['2027-06-08T04:00:00.000-04:00', '2027-06-08T04:30:00.000-04:00']);

    const call = { id: product.id, tier: product.tiers[0].id };
    const link = await client.paymentLinks.create(bookBody(call, slots[0].startsAt, 1));
    await client.testHelpers.payPaymentLink(link.id, { card: cards.ok });
    const bookings: Booking[] = [];
    for await (const b of client.bookings.list({ status: 'confirmed' })) bookings.push(b);
    assert.equal(bookings.length, 1);
    const moved = await client.bookings.reschedule(bookings[0].id, { startsAt: slots[1].startsAt });
    assert.equal(moved.status, 'rescheduled');
    const cancelled = await client.bookings.cancel(moved.id, { reason: 'Cannot make it' });
    assert.equal(cancelled.status, 'cancelled');
    assert.equal((await client.bookings.get(moved.id)).cancelReason, 'Cannot make it');
  });
});
