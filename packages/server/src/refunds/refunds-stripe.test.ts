import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { courseBody, eventsOf } from '../testing/checkout-fixtures.ts';
import { recurringBrand } from '../testing/subscriptions.ts';
import type { TestApp } from '../testing/app.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';
import type { StripeFake } from '../testing/stripe-fake.ts';
import { buyLive as buyLiveOn, startStripeApp, type StripeApp } from '../testing/stripe-app.ts';

/**
 * Live refunds through Stripe (docs/refunds.md): the official `stripe` package against
 * testing/stripe-fake.ts, whose /v1/refunds follows Stripe's documented rules. Purchases are made
 * and settled the way live checkout does it (payments/stripe/stripe.test.ts), then refunded
 * through our API.
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

const refund = (key: string, txref: string, body: object = {}) => t.request({ method: 'POST', url: `/api/v1/transactions/${txref}/refund`, key, payload: body });
const refundCalls = () => stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds');

describe('refunds through Stripe', () => {
  it('refunds a Checkout payment in parts through Stripe\'s refunds API, to the cent, then refuses more', async () => {
    const { brand, ids, liveKey } = await createBrandWithCatalog(t.db);
    const { txref, intent } = await buyLive(liveKey, brand.id, courseBody(ids));
    const before = refundCalls().length;

    const part = await refund(liveKey, txref, { amount: 10, reason: 'Late delivery' });
    assert.equal(part.statusCode, 200, part.body);
    assert.equal(part.json().data.refundedAmount, 10);
    const [call] = refundCalls().slice(before);
    assert.equal(call.body.payment_intent, intent.id);
    assert.equal(call.body.amount, '1000');
    assert.equal(call.body.metadata.txref, txref);
    assert.equal(call.body.metadata.reason, 'Late delivery');
    assert.equal(call.body.metadata.refund_id, part.json().data.refunds[0].id);

    const rest = await refund(liveKey, txref);
    assert.equal(rest.statusCode, 200, rest.body);
    assert.equal(rest.json().data.status, 'refunded');
    assert.equal(rest.json().data.refundedAmount, 39.5);
    assert.equal(intent._refunded, 3950, 'Stripe gave back exactly what was paid');
    assert.equal(refundCalls().length, before + 2);
    const events = await eventsOf(t, brand.id, 'transaction.refunded');
    assert.deepEqual(events.map((e) => [e.mode, e.data.refund.amount]), [['live', 10], ['live', 29.5]]);
    assert.equal((await eventsOf(t, brand.id, 'member.removed')).length, 1, 'the full refund ended the access');

    assert.equal((await refund(liveKey, txref, { amount: 1 })).statusCode, 409);
    assert.equal(refundCalls().length, before + 2, 'Stripe is not asked again');
  });

  it('reports Stripe\'s refusal as 409 and lists the refund as failed when the payment was refunded in Stripe\'s dashboard', async () => {
    const { brand, ids, liveKey } = await createBrandWithCatalog(t.db);
    const { txref, intent } = await buyLive(liveKey, brand.id, courseBody(ids));
    stripe.refundInDashboard(intent.id); // not delivered to us: the event is the subject of the Stripe webhook's own handling
    const res = await refund(liveKey, txref);
    assert.equal(res.statusCode, 409);
    assert.match(res.json().message, /Stripe refused the refund: Charge ch_\w+ has already been refunded/);
    const now = (await t.request({ method: 'GET', url: `/api/v1/transactions/${txref}`, key: liveKey })).json().data;
    assert.equal(now.status, 'succeeded');
    assert.equal(now.refundedAmount, 0);
    assert.deepEqual(now.refunds.map((r: any) => r.status), ['failed']);
    assert.equal((await eventsOf(t, brand.id, 'transaction.refunded')).length, 0);
    assert.equal((await eventsOf(t, brand.id, 'member.removed')).length, 0, 'a failed refund ends nothing');
  });

  it('refunds a subscription\'s first payment through its invoice, and tells Stripe to stop billing it', async () => {
    const b = await recurringBrand(t);
    const { txref, session, intent } = await buyLive(b.liveKey, b.brandId, {
      items: [{ id: b.ids.club, plan: b.ids.monthly, type: 'membership' }],
      form: { formData: { fullName: 'Ada Lovelace', email: 'ada@example.com' } },
    });
    const res = await refund(b.liveKey, txref);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(refundCalls().at(-1)!.body.payment_intent, intent.id);
    assert.equal(intent._refunded, 500);
    assert.equal(stripe.subscriptions.get(session.subscription)!.status, 'canceled', 'Stripe bills it no more');
    const [m] = await t.db.query<{ status: string; subscription_id: string }>('SELECT * FROM memberships WHERE brand_id = $1', [b.brandId]);
    assert.equal(m.status, 'removed');
    const [sub] = await t.db.query<{ status: string }>('SELECT status FROM subscriptions WHERE brand_id = $1', [b.brandId]);
    assert.equal(sub.status, 'cancelled');
  });

  it('refunds a renewal Stripe billed, through that invoice\'s payment', async () => {
    const b = await recurringBrand(t);
    const { session } = await buyLive(b.liveKey, b.brandId, {
      items: [{ id: b.ids.club, plan: b.ids.monthly, type: 'membership' }],
      form: { formData: { fullName: 'Ada Lovelace', email: 'ada@example.com' } },
    });
    const renewal = stripe.renewal(session.subscription, 'paid');
    assert.equal((await stripe.deliver(renewal, hook)).status, 200);
    const [tx] = await t.db.query<{ txref: string; provider_reference: string }>('SELECT * FROM transactions WHERE brand_id = $1 AND type = \'renewal\'', [b.brandId]);
    assert.equal(tx.provider_reference, renewal.data.object.id);
    const res = await refund(b.liveKey, tx.txref, { amount: 2.5 });
    assert.equal(res.statusCode, 200, res.body);
    const call = refundCalls().at(-1)!;
    assert.equal(stripe.intents.get(call.body.payment_intent)!._refunded, 250);
    assert.notEqual(call.body.payment_intent, stripe.intentOfSession(session.id).id, 'the renewal\'s own payment, not the first one');
  });

  it('keeps a refund Stripe is still processing pending, holding its amount, and finishes it on the next request', async () => {
    const { brand, ids, liveKey } = await createBrandWithCatalog(t.db);
    const { txref } = await buyLive(liveKey, brand.id, courseBody(ids));
    stripe.refundStatus = 'pending';
    try {
      const res = await refund(liveKey, txref, { amount: 30 });
      assert.equal(res.statusCode, 200, res.body);
      const data = res.json().data;
      assert.deepEqual(data.refunds.map((r: any) => r.status), ['pending']);
      assert.equal(data.refundedAmount, 0);
      assert.equal((await eventsOf(t, brand.id, 'transaction.refunded')).length, 0);
      assert.equal((await refund(liveKey, txref, { amount: 10 })).statusCode, 400, 'the pending 30.00 is held: 9.50 is left');

      const [row] = await t.db.query<{ provider_reference: string }>('SELECT provider_reference FROM refunds WHERE brand_id = $1', [brand.id]);
      stripe.settleRefund(row.provider_reference, 'succeeded');
      // A minute later, the next refund request looks the pending one up first.
      await t.db.query('UPDATE refunds SET updated_at = now() - interval \'2 minutes\' WHERE brand_id = $1', [brand.id]);
      stripe.refundStatus = 'succeeded';
      const next = await refund(liveKey, txref, { amount: 9.5, revokeAccess: false });
      assert.equal(next.statusCode, 200, next.body);
      assert.deepEqual(next.json().data.refunds.map((r: any) => [r.amount, r.status]), [[30, 'succeeded'], [9.5, 'succeeded']]);
      assert.equal(next.json().data.status, 'refunded');
      assert.equal((await eventsOf(t, brand.id, 'transaction.refunded')).length, 2);
    } finally {
      stripe.refundStatus = 'succeeded';
    }
  });
});

describe('refunds Stripe reports by webhook', () => {
  it('records a refund made in Stripe\'s dashboard once, with transaction.refunded, and ends the access of a full one', async () => {
    const { brand, ids, liveKey } = await createBrandWithCatalog(t.db);
    const { txref, intent } = await buyLive(liveKey, brand.id, courseBody(ids));
    const { events } = stripe.refundInDashboard(intent.id);
    const created = events.find((e) => e.type === 'refund.created')!;
    assert.deepEqual((await stripe.deliver(created, hook)).json.data, { received: true, outcome: 'applied' });
    assert.equal((await stripe.deliver(created, hook)).json.data.outcome, 'duplicate');
    for (const e of events) assert.equal((await stripe.deliver(e, hook)).status, 200, 'charge.refunded is taken and ignored');
    const now = (await t.request({ method: 'GET', url: `/api/v1/transactions/${txref}`, key: liveKey })).json().data;
    assert.equal(now.status, 'refunded');
    assert.equal(now.refundedAmount, 39.5);
    assert.deepEqual(now.refunds.map((r: any) => [r.amount, r.status, r.reason]), [[39.5, 'succeeded', 'requested by customer (refunded in Stripe)']]);
    const refunded = await eventsOf(t, brand.id, 'transaction.refunded');
    assert.equal(refunded.length, 1);
    assert.equal((await eventsOf(t, brand.id, 'member.removed')).length, 1);
    // A refund through our API after that is refused here, before Stripe is asked.
    assert.equal((await refund(liveKey, txref)).statusCode, 409);
  });

  it('settles a refund of ours Stripe left pending when Stripe reports its outcome, and ignores the report of one already settled', async () => {
    const { brand, ids, liveKey } = await createBrandWithCatalog(t.db);
    const { txref } = await buyLive(liveKey, brand.id, courseBody(ids));
    stripe.refundStatus = 'pending';
    try {
      assert.equal((await refund(liveKey, txref, { amount: 20 })).statusCode, 200);
    } finally {
      stripe.refundStatus = 'succeeded';
    }
    const [row] = await t.db.query<{ provider_reference: string }>('SELECT provider_reference FROM refunds WHERE brand_id = $1', [brand.id]);
    const [failedUpdate, failed] = stripe.settleRefund(row.provider_reference, 'failed');
    assert.equal((await stripe.deliver(failedUpdate, hook)).json.data.outcome, 'applied');
    assert.equal((await stripe.deliver(failed, hook)).json.data.outcome, 'ignored', 'settled by the first report');
    let now = (await t.request({ method: 'GET', url: `/api/v1/transactions/${txref}`, key: liveKey })).json().data;
    assert.deepEqual(now.refunds.map((r: any) => r.status), ['failed']);
    assert.equal(now.refundedAmount, 0);
    assert.equal((await eventsOf(t, brand.id, 'transaction.refunded')).length, 0);

    // A refund that succeeded at once: Stripe's refund.created for it changes nothing more.
    const ok = await refund(liveKey, txref, { amount: 5 });
    assert.equal(ok.statusCode, 200);
    const made = [...stripe.refunds.values()].at(-1)!;
    assert.equal((await stripe.deliver(stripe.event('refund.created', made), hook)).json.data.outcome, 'ignored');
    now = (await t.request({ method: 'GET', url: `/api/v1/transactions/${txref}`, key: liveKey })).json().data;
    assert.equal(now.refundedAmount, 5);
    assert.equal((await eventsOf(t, brand.id, 'transaction.refunded')).length, 1);
  });
});
