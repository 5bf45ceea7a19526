import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { courseBody, eventsOf } from '../testing/checkout-fixtures.ts';
import type { TestApp } from '../testing/app.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';
import type { StripeFake } from '../testing/stripe-fake.ts';
import { buyLive as buyLiveOn, startStripeApp, type StripeApp } from '../testing/stripe-app.ts';

/**
 * Disputes Stripe reports (docs/refunds.md, Disputes): charge.dispute.created and
 * charge.dispute.closed, delivered signed by testing/stripe-fake.ts and verified by the official
 * `stripe` package in our webhook route, for live purchases paid the way live checkout does it.
 */
let t: TestApp;
let stripe: StripeFake;
let hook: string;

let app: StripeApp;

before(async () => {
  ({ t, stripe, hook } = app = await startStripeApp());
});
after(async () => { await app.close(); });

const buyLive = (liveKey: string, brandId: string, body: unknown) => buyLiveOn(app, liveKey, brandId, body);

const get = async (key: string, txref: string) => (await t.request({ method: 'GET', url: `/api/v1/transactions/${txref}`, key })).json().data;

describe('disputes Stripe reports by webhook', () => {
  it('marks a disputed payment, then treats a lost dispute as a full refund: transaction.refunded and the access ended', async () => {
    const { brand, ids, liveKey } = await createBrandWithCatalog(t.db);
    const { txref, intent } = await buyLive(liveKey, brand.id, courseBody(ids));
    const { dispute, events } = stripe.dispute(intent.id, 'fraudulent');
    assert.deepEqual((await stripe.deliver(events[0], hook)).json.data, { received: true, outcome: 'applied' });
    assert.equal((await stripe.deliver(events[0], hook)).json.data.outcome, 'duplicate', 'a redelivery changes nothing');

    const disputed = await get(liveKey, txref);
    assert.equal(disputed.status, 'succeeded');
    assert.deepEqual({ ...disputed.dispute, createdAt: undefined }, { id: dispute.id, status: 'needs_response', amount: 39.5, reason: 'fraudulent', createdAt: undefined });
    const opened = await eventsOf(t, brand.id, 'transaction.disputed');
    assert.equal(opened.length, 1);
    assert.equal(opened[0].data.dispute.id, dispute.id);
    assert.equal(opened[0].mode, 'live');
    assert.equal((await eventsOf(t, brand.id, 'member.removed')).length, 0, 'an open dispute leaves access alone');

    const [closed] = stripe.closeDispute(dispute.id, 'lost');
    assert.equal((await stripe.deliver(closed, hook)).json.data.outcome, 'applied');
    const lost = await get(liveKey, txref);
    assert.equal(lost.status, 'refunded');
    assert.equal(lost.dispute.status, 'lost');
    assert.ok(lost.dispute.closedAt);
    assert.equal(lost.refundedAmount, 39.5);
    assert.deepEqual(lost.refunds.map((r: any) => [r.amount, r.status, r.reason]), [[39.5, 'succeeded', 'dispute lost (fraudulent)']]);
    assert.equal((await eventsOf(t, brand.id, 'transaction.disputed')).length, 2);
    const refunded = await eventsOf(t, brand.id, 'transaction.refunded');
    assert.equal(refunded.length, 1);
    assert.equal(refunded[0].data.refund.reason, 'dispute lost (fraudulent)');
    assert.equal((await eventsOf(t, brand.id, 'member.removed')).length, 1, 'the access it bought ended');
    assert.equal((await stripe.deliver(closed, hook)).json.data.outcome, 'duplicate');
    assert.equal((await eventsOf(t, brand.id, 'transaction.refunded')).length, 1, 'never refunded twice');
    // Nothing is left to refund through our API.
    assert.equal((await t.request({ method: 'POST', url: `/api/v1/transactions/${txref}/refund`, key: liveKey, payload: {} })).statusCode, 409);
  });

  it('keeps the payment and the access when the dispute is won', async () => {
    const { brand, ids, liveKey } = await createBrandWithCatalog(t.db);
    const { txref, intent } = await buyLive(liveKey, brand.id, courseBody(ids));
    const { dispute, events } = stripe.dispute(intent.id, 'product_not_received');
    await stripe.deliver(events[0], hook);
    const [closed] = stripe.closeDispute(dispute.id, 'won');
    assert.equal((await stripe.deliver(closed, hook)).json.data.outcome, 'applied');
    const won = await get(liveKey, txref);
    assert.equal(won.status, 'succeeded');
    assert.equal(won.dispute.status, 'won');
    assert.equal(won.refundedAmount, 0);
    assert.equal((await eventsOf(t, brand.id, 'transaction.refunded')).length, 0);
    assert.equal((await eventsOf(t, brand.id, 'member.removed')).length, 0);
    assert.ok(won.version > 2, 'each dispute change moves the version');
  });

  it('ignores a dispute of a payment that is not ours', async () => {
    const { brand, ids, liveKey } = await createBrandWithCatalog(t.db);
    const { intent } = await buyLive(liveKey, brand.id, courseBody(ids));
    intent.metadata = {}; // another system's payment on the same Stripe account
    const { events } = stripe.dispute(intent.id);
    assert.equal((await stripe.deliver(events[0], hook)).json.data.outcome, 'ignored');
    assert.equal((await eventsOf(t, brand.id, 'transaction.disputed')).length, 0);
  });
});
