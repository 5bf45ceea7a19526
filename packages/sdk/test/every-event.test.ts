import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventTypes } from '../../server/src/events/types.ts';
import { createBrand, createKey } from '../../server/src/testing/factories.ts';
import { startReceiver, type Receiver } from '../../server/src/testing/receiver.ts';
import { Client, type WebhookEvent } from '../src/index.ts';
import { startLiveServer, type LiveServer } from './support.ts';

/**
 * Every event type, made from real objects in test mode with the SDK alone: the recipe the
 * server's docs/webhooks.md ("Every event from real objects") and the SDK README give, walked
 * through against a real server whose worker delivers to a real receiver. POST /webhooks/test
 * sends samples with made-up ids; this is how a developer gets the real thing, ids that the API
 * can look up, with test helpers (test cards, the dispute's outcome, the test clock) for what a
 * buyer, a bank or time would do.
 */

let live: LiveServer;
let client: Client;
let rx: Receiver;
let secret: string;

before(async () => {
  live = await startLiveServer({ worker: true });
  const brand = await createBrand(live.t.db);
  client = new Client({ apiKey: (await createKey(live.t.db, brand.id, { mode: 'test' })).key, baseUrl: live.baseUrl, fetch: live.fetch });
  rx = await startReceiver();
});
after(async () => {
  await rx?.close();
  await live?.close();
});

const ok = '4242 4242 4242 4242';
const buyer = (name: string) => ({ form: { formData: { fullName: name, email: `${name.toLowerCase().replace(/\W+/g, '.')}@example.com` } } });

describe('every event type from real objects, with the SDK\'s test helpers', () => {
  it('delivers each of them, signed, about the objects the calls made', async () => {
    const endpoint = await client.webhooks.create({ url: rx.url, events: [...eventTypes] });
    secret = endpoint.signingSecret;
    const made: Record<string, string> = {};

    // transaction.succeeded, member.joined: a buyer pays a link (the hosted page's flow).
    const guide = await client.products.create({ type: 'digital', title: 'Field guide', status: 'published', tiers: [{ name: 'Standard', price: { amount: 12, currency: 'USD' } }] });
    const sold = await client.testHelpers.payPaymentLink((await client.paymentLinks.create({ items: [{ id: guide.id, plan: guide.tiers[0].id, type: 'digital' }], ...buyer('Ada Lovelace') })).id, { card: ok });
    assert.equal(sold.status, 'succeeded');
    made.sold = sold.txref;
    // transaction.failed: the declined test card.
    const declined = await client.testHelpers.payPaymentLink((await client.paymentLinks.create({ items: [{ id: guide.id, plan: guide.tiers[0].id, type: 'digital' }], ...buyer('Bob Declined') })).id, { card: '4000 0000 0000 0002' });
    assert.equal(declined.status, 'failed');
    made.declined = declined.txref;
    // transaction.disputed: the card that pays, then is disputed by its bank.
    made.disputed = (await client.testHelpers.payPaymentLink((await client.paymentLinks.create({ items: [{ id: guide.id, plan: guide.tiers[0].id, type: 'digital' }], ...buyer('Carol Disputes') })).id, { card: '4000 0000 0000 0259' })).txref;
    // transaction.refunded: a refund of the first sale.
    await client.transactions.refund(made.sold, { amount: 2, reason: 'Promised discount' });

    // subscription.renewed and .completed: a plan of two monthly payments, then a month goes by.
    // subscription.expired: a plan cancelled at its period's end; member.removed follows it.
    const club = await client.hubs.create({
      name: 'Club',
      tiers: [
        { name: 'Two months', price: { amount: 5, currency: 'USD' }, recurrence: { periodic: 'monthly', interval: 1, count: 2 } },
        { name: 'Monthly', price: { amount: 4, currency: 'USD' }, recurrence: { periodic: 'monthly', interval: 1, count: 0 } },
      ],
    });
    made.club = club.id;
    for (const [tier, name] of [[club.tiers[0], 'Dee Twice'], [club.tiers[1], 'Eve Leaves']] as const) {
      const paid = await client.testHelpers.payPaymentLink((await client.paymentLinks.create({ items: [{ id: club.id, plan: tier.id, type: 'membership' }], ...buyer(name) })).id, { card: ok });
      assert.equal(paid.status, 'succeeded');
    }
    const leaving = (await client.hubs.members.list(club.id).toArray({ max: 10 })).find((m) => m.email === 'eve.leaves@example.com')!;
    await client.memberships.cancel(leaving.membershipId, { atPeriodEnd: true });

    // booking.confirmed, .rescheduled, .cancelled: a bookable call, booked, moved, called off.
    const allDay = Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, [{ start: '00:00', end: '24:00' }]]));
    const call = await client.products.create({
      type: 'appointment', title: 'Portfolio review', status: 'published', tiers: [{ name: 'Call', price: { amount: 0, currency: 'USD' } }],
      availability: { timezone: 'UTC', sessionMinutes: 60, weeklyHours: allDay, minNoticeMinutes: 0, changeNoticeMinutes: 0 },
    });
    const from = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 2 * 86_400_000);
    const { slots } = await client.products.availability(call.id, { from: from.toISOString(), to: new Date(from.getTime() + 3 * 3_600_000).toISOString() });
    await client.testHelpers.payPaymentLink((await client.paymentLinks.create({ items: [{ id: call.id, plan: call.tiers[0].id, type: 'appointment' }], ...buyer('Fay Books'), booking: { startsAt: slots[0].startsAt } })).id, { card: ok });
    const [booking] = await client.bookings.list({ productID: call.id }).toArray({ max: 10 });
    made.booking = booking.id;
    await client.bookings.reschedule(booking.id, { startsAt: slots[1].startsAt });
    await client.bookings.cancel(booking.id, { reason: 'Travelling' });

    // order.shipped and order.ready_for_pickup: a print sent by post, and one collected.
    const address = { line1: '1 Market St', city: 'San Francisco', region: 'CA', postalCode: '94105', country: 'US' };
    const print = await client.products.create({
      type: 'physical', title: 'Print', status: 'published', tiers: [{ name: 'Print', price: { amount: 20, currency: 'USD' } }],
      shipping: {
        deliveryZones: [{ id: 'us', name: 'United States', countries: ['US'], prices: [{ amount: 5, currency: 'USD' }] }],
        pickupLocations: [{ id: 'studio', name: 'Our studio', openingHours: 'Mon–Fri 10:00–18:00', address }],
      },
    });
    const printItems = [{ id: print.id, plan: print.tiers[0].id, type: 'physical' }];
    made.shipped = (await client.testHelpers.payPaymentLink((await client.paymentLinks.create({ items: printItems, ...buyer('Gus Posts'), deliveryLocation: 'us', address })).id, { card: ok })).txref;
    await client.transactions.fulfil(made.shipped, { status: 'shipped', carrier: 'USPS', trackingNumber: '9400111899223197428490' });
    made.pickup = (await client.testHelpers.payPaymentLink((await client.paymentLinks.create({ items: printItems, ...buyer('Hal Collects'), pickupLocation: 'studio' })).id, { card: ok })).txref;
    await client.transactions.fulfil(made.pickup, { status: 'ready_for_pickup' });

    // The rest is time: renewals and period ends fall due, and the week's sales are paid out.
    await client.testHelpers.advanceClock({ by: '32d' });

    const byType = new Map<string, WebhookEvent[]>();
    const deadline = Date.now() + 60_000;
    while (eventTypes.some((type) => !byType.has(type)) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      byType.clear();
      for (const d of rx.received) {
        const event = await client.webhooks.verify(d.raw, d.headers as Record<string, string>, secret);
        byType.set(event.type, [...(byType.get(event.type) ?? []), event]);
      }
    }
    assert.deepEqual(eventTypes.filter((type) => !byType.has(type)), [], 'every event type was delivered');

    // About the real objects, never the samples' made-up ids.
    const about = (type: string) => (byType.get(type) ?? []).map((e) => e.data as Record<string, any>);
    assert.ok(about('transaction.succeeded').some((d) => d.txref === made.sold));
    assert.ok(about('transaction.failed').some((d) => d.txref === made.declined));
    assert.ok(about('transaction.disputed').some((d) => d.txref === made.disputed));
    assert.ok(about('transaction.refunded').some((d) => d.txref === made.sold && d.refund.amount === 2));
    assert.ok(about('member.joined').some((d) => d.hubID === made.club));
    assert.ok(about('member.removed').some((d) => d.email === 'eve.leaves@example.com'));
    assert.ok(about('subscription.completed').some((d) => d.membership.email === 'dee.twice@example.com'));
    assert.ok(about('subscription.expired').some((d) => d.membership.email === 'eve.leaves@example.com'));
    for (const type of ['booking.confirmed', 'booking.rescheduled', 'booking.cancelled']) assert.ok(about(type).some((d) => d.id === made.booking), type);
    assert.ok(about('order.shipped').some((d) => d.txref === made.shipped));
    assert.ok(about('order.ready_for_pickup').some((d) => d.txref === made.pickup));
    assert.ok(!rx.received.some((d) => d.raw.toString('utf8').includes('_sample_')), 'no sample ids');
  });
});
