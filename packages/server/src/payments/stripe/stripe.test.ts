import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { courseBody, createLink, eventsOf } from '../../testing/checkout-fixtures.ts';
import { runDueSubscription } from '../../subscriptions/flows.ts';
import { recurringBrand } from '../../testing/subscriptions.ts';
import type { TestApp } from '../../testing/app.ts';
import { loadCatalog } from '../../catalog/load.ts';
import { createBrand, createBrandWithCatalog, createKey } from '../../testing/factories.ts';
import type { StripeFake } from '../../testing/stripe-fake.ts';
import { startStripeApp, type StripeApp } from '../../testing/stripe-app.ts';

/**
 * Live payments with Stripe, end to end against testing/stripe-fake.ts: the official `stripe`
 * package talks to the fake, and the fake's events reach the service over HTTP, signed as Stripe
 * signs them. Live-mode webhook endpoints must be public https receivers, so what our own
 * webhooks would deliver is asserted on the outbox (the events table): each event there is
 * delivered once, which the webhook tests prove.
 */
let t: TestApp;
let stripe: StripeFake;
let base: string;
let hook: string;

let app: StripeApp;

before(async () => {
  ({ t, stripe, base, hook } = app = await startStripeApp());
});
after(async () => { await app.close(); });

/** The hosted page's button, as a browser posts it: answers 303 to the Checkout Session. */
async function pay(path: string) {
  const res = await fetch(`${base}${path}/pay`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
  assert.equal(res.status, 303, await res.text());
  return res.headers.get('location')!;
}

async function transaction(brandId: string, linkId: string) {
  const rows = await t.db.query<{ id: string; txref: string; status: string; provider: string; provider_reference: string; type: string }>(
    'SELECT * FROM transactions WHERE brand_id = $1 AND payment_link_id = $2 ORDER BY created_at', [brandId, linkId]);
  assert.equal(rows.length, 1, 'one transaction for the link');
  return rows[0];
}

const sessionCreates = () => stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions');

describe('live checkout through Stripe', () => {
  it('sends the buyer to a Checkout Session for the computed amount and settles once, whatever order and however often the events arrive', async () => {
    const { brand, ids, liveKey } = await createBrandWithCatalog(t.db);
    const link = await createLink(t, liveKey, courseBody(ids));
    assert.equal(link.amount, 39.5);

    const page = await fetch(`${base}${link.path}`);
    const html = await page.text();
    assert.equal(page.status, 200);
    assert.match(html, /Continue to payment/);
    assert.match(html, /Stripe's secure page/);
    assert.match(page.headers.get('content-security-policy')!, new RegExp(`form-action 'self' ${stripe.origin}`));

    const before = sessionCreates().length;
    const location = await pay(link.path);
    const payment = await transaction(brand.id, link.id);
    assert.equal(payment.status, 'pending');
    assert.equal(payment.provider, 'stripe');
    assert.equal(location, stripe.sessionUrl(payment.provider_reference));
    const [created] = sessionCreates().slice(before);
    assert.equal(created.body.mode, 'payment');
    assert.deepEqual(created.body.line_items[0].price_data, { currency: 'usd', unit_amount: '3950', product_data: { name: created.body.line_items[0].price_data.product_data.name } });
    assert.equal(created.body.client_reference_id, payment.txref);
    assert.equal(created.body.metadata.txref, payment.txref);
    assert.equal(created.body.payment_intent_data.metadata.txref, payment.txref);
    assert.equal(created.body.customer_email, 'ada@example.com');
    assert.equal(created.body.success_url, `${t.config.publicUrl}${link.path}/return?txref=${payment.txref}`);
    assert.equal(created.body.cancel_url, `${t.config.publicUrl}${link.path}?cancelled=1`);

    // Pressing the button again (back from Stripe) goes to the same session; nothing new is made.
    assert.equal(await pay(link.path), location);
    assert.equal(sessionCreates().length, before + 1);
    const cancelled = await (await fetch(`${base}${link.path}?cancelled=1`)).text();
    assert.match(cancelled, /You left Stripe(&#39;|')s page without paying; nothing was charged/);

    const { events: [completed, succeeded] } = stripe.complete(payment.provider_reference);
    assert.equal(succeeded.type, 'payment_intent.succeeded');
    // Out of order: the payment intent's event first, then the session's, then both again.
    assert.deepEqual((await stripe.deliver(succeeded, hook)).json.data, { received: true, outcome: 'applied' });
    assert.equal((await stripe.deliver(completed, hook)).status, 200);
    assert.equal((await stripe.deliver(completed, hook)).json.data.outcome, 'duplicate');
    assert.equal((await stripe.deliver(succeeded, hook)).json.data.outcome, 'duplicate');
    // A failure reported after the success changes nothing.
    const late = stripe.event('checkout.session.async_payment_failed', stripe.sessions.get(payment.provider_reference)!);
    assert.equal((await stripe.deliver(late, hook)).status, 200);

    assert.equal((await transaction(brand.id, link.id)).status, 'succeeded');
    const recorded = await eventsOf(t, brand.id, 'transaction.succeeded');
    assert.deepEqual(recorded.map((e) => [e.mode, e.data.txref]), [['live', payment.txref]], 'transaction.succeeded recorded once');
    assert.equal((await eventsOf(t, brand.id, 'transaction.failed')).length, 0);
    const customers = await t.db.query('SELECT id FROM memberships WHERE brand_id = $1 AND mode = \'live\'', [brand.id]);
    assert.equal(customers.length, 1, 'one membership granted');

    // Stripe sends the buyer back to our return page: it shows the outcome.
    const back = await t.app.inject({ method: 'GET', url: `${link.path}/return?txref=${payment.txref}` });
    assert.equal(back.statusCode, 303);
    const result = await t.app.inject({ method: 'GET', url: back.headers.location as string });
    assert.match(result.body, /Payment successful/);
  });

  it('refuses a bad signature with 400 and settles nothing; verify then asks Stripe and settles once', async () => {
    const { brand, ids, liveKey } = await createBrandWithCatalog(t.db);
    const link = await createLink(t, liveKey, courseBody(ids));
    await pay(link.path);
    const payment = await transaction(brand.id, link.id);
    const { events: [completed] } = stripe.complete(payment.provider_reference);

    const wrongSecret = await stripe.deliver(completed, hook, { secret: 'whsec_notthesecretofthisendpoint' });
    assert.equal(wrongSecret.status, 400);
    assert.equal(wrongSecret.json.status, 'error');
    assert.equal(wrongSecret.json.data.code, 'invalid_signature');
    assert.match(wrongSecret.json.message, /STRIPE_WEBHOOK_SECRET/);
    const tampered = await stripe.deliver({ ...completed, id: 'evt_forged' }, hook, {
      signature: `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`,
    });
    assert.equal(tampered.status, 400);
    assert.equal((await transaction(brand.id, link.id)).status, 'pending', 'nothing settled');
    assert.equal((await eventsOf(t, brand.id, 'transaction.succeeded')).length, 0);

    const verify = () => t.request({ method: 'POST', url: '/api/v1/payments/verify', key: liveKey, payload: { txref: payment.txref } });
    const [first, second] = await Promise.all([verify(), verify()]);
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.json().data.status, 'succeeded');
    assert.equal(second.json().data.status, 'succeeded');
    assert.ok(stripe.requests.some((r) => r.method === 'GET' && r.path === `/v1/checkout/sessions/${payment.provider_reference}`), 'verify asked Stripe');
    // The webhook arriving after verify settled it changes nothing.
    assert.equal((await stripe.deliver(completed, hook)).status, 200);
    assert.equal((await eventsOf(t, brand.id, 'transaction.succeeded')).length, 1);
  });

  it('fails the attempt when the session expires, and the buyer can pay on a new session', async () => {
    const { brand, ids, liveKey } = await createBrandWithCatalog(t.db);
    const link = await createLink(t, liveKey, courseBody(ids));
    const first = await pay(link.path);
    const payment = await transaction(brand.id, link.id);
    assert.equal((await stripe.deliver(stripe.expire(payment.provider_reference), hook)).status, 200);
    const [failed] = await t.db.query<{ status: string; failure_code: string }>('SELECT status, failure_code FROM transactions WHERE id = $1', [payment.id]);
    assert.deepEqual(failed, { status: 'failed', failure_code: 'checkout_expired' });
    const second = await pay(link.path);
    assert.notEqual(second, first, 'a new Checkout Session');
  });

  it('never answers junk with a 500', async () => {
    const post = (body: string | undefined, headers: Record<string, string>) => fetch(hook, { method: 'POST', headers, body });
    const signed = async (payload: string) => stripe.appSettings && (await import('stripe')).default.webhooks.generateTestHeaderString({ payload, secret: stripe.appSettings.settings.webhookSecret });
    const cases: [string, Response][] = [
      ['empty body, no header', await post(undefined, {})],
      ['empty body, a header', await post('', { 'stripe-signature': 't=1,v1=abc' })],
      ['bad JSON, no header', await post('{"id":', { 'content-type': 'application/json' })],
      ['bad JSON, bad header', await post('{"id":', { 'content-type': 'application/json', 'stripe-signature': 'nonsense' })],
      ['text body', await post('hello', { 'content-type': 'text/plain', 'stripe-signature': 'v1=' })],
      ['bad JSON, signed', await post('{"id":', { 'content-type': 'application/json', 'stripe-signature': await signed('{"id":') })],
      ['JSON that is no event, signed', await post('{}', { 'content-type': 'application/json', 'stripe-signature': await signed('{}') })],
      ['an array, signed', await post('[1]', { 'content-type': 'application/json', 'stripe-signature': await signed('[1]') })],
    ];
    for (const [name, res] of cases) {
      assert.equal(res.status, 400, name);
      const json = await res.json();
      assert.equal(json.status, 'error', name);
      assert.ok(['invalid_signature', 'invalid_json', 'validation_failed'].includes(json.data.code), `${name}: ${json.data.code}`);
    }
    // Signed events that are not ours are acknowledged and ignored, so Stripe stops resending them.
    const foreign = await stripe.deliver(stripe.event('checkout.session.completed', { id: 'cs_x', object: 'checkout.session', payment_status: 'paid', metadata: { brand_id: 'brand_nope', txref: 'tx_nope' }, client_reference_id: 'tx_nope' }), hook);
    assert.deepEqual([foreign.status, foreign.json.data.outcome], [200, 'ignored']);
    const other = await stripe.deliver(stripe.event('customer.created', { id: 'cus_x', object: 'customer' }), hook);
    assert.deepEqual([other.status, other.json.data.outcome], [200, 'ignored']);
    const noMetadata = await stripe.deliver(stripe.event('invoice.paid', { id: 'in_x', object: 'invoice', parent: null }), hook);
    assert.deepEqual([noMetadata.status, noMetadata.json.data.outcome], [200, 'ignored']);
  });
});

describe('live subscriptions billed by Stripe', () => {
  it('starts a subscription-mode session, maps invoice.paid, invoice.payment_failed and customer.subscription.deleted, and never bills it from our worker', async () => {
    const b = await recurringBrand(t);
    const link = await createLink(t, b.liveKey, {
      items: [{ id: b.ids.club, plan: b.ids.monthly, type: 'membership' }],
      form: { formData: { fullName: 'Ada Lovelace', email: 'ada@example.com' } },
    });
    const before = sessionCreates().length;
    await pay(link.path);
    const payment = await transaction(b.brandId, link.id);
    const [created] = sessionCreates().slice(before);
    assert.equal(created.body.mode, 'subscription');
    assert.deepEqual(created.body.line_items[0].price_data.recurring, { interval: 'month', interval_count: '1' });
    assert.equal(created.body.line_items[0].price_data.unit_amount, '500');
    assert.equal(created.body.subscription_data.metadata.txref, payment.txref);

    // The first invoice's invoice.paid may come before checkout.session.completed.
    const { session, events: [completed, firstInvoice] } = stripe.complete(payment.provider_reference);
    assert.equal(firstInvoice.type, 'invoice.paid');
    assert.equal((await stripe.deliver(firstInvoice, hook)).json.data.outcome, 'applied');
    assert.equal((await stripe.deliver(completed, hook)).status, 200);
    assert.equal((await transaction(b.brandId, link.id)).status, 'succeeded');
    assert.equal((await eventsOf(t, b.brandId, 'transaction.succeeded')).length, 1);
    const [sub] = await t.db.query<{ id: string; provider: string; payment_method: string; status: string; periods_paid: number }>(
      'SELECT * FROM subscriptions WHERE brand_id = $1', [b.brandId]);
    assert.deepEqual([sub.provider, sub.payment_method, sub.status, sub.periods_paid], ['stripe', session.subscription, 'active', 1]);

    // Our worker does not bill it, even once its period is due: Stripe does.
    await t.db.query('UPDATE subscriptions SET due_at = now() - interval \'1 minute\' WHERE brand_id = $1', [b.brandId]);
    while (await runDueSubscription(t.db, t.deps.payments, t.config.renewals)) { /* drain */ }
    const renewals = () => t.db.query<{ status: string; provider_reference: string }>('SELECT status, provider_reference FROM transactions WHERE brand_id = $1 AND type = \'renewal\' ORDER BY created_at', [b.brandId]);
    assert.equal((await renewals()).length, 0, 'the worker billed nothing');

    // Stripe bills the renewal: a renewal transaction, transaction.succeeded then subscription.renewed; once, however often it arrives.
    const paid = stripe.renewal(sub.payment_method, 'paid');
    assert.equal((await stripe.deliver(paid, hook)).json.data.outcome, 'applied');
    assert.equal((await stripe.deliver(paid, hook)).json.data.outcome, 'duplicate');
    assert.deepEqual((await renewals()).map((r) => r.status), ['succeeded']);
    const renewed = await eventsOf(t, b.brandId, 'subscription.renewed');
    assert.equal(renewed.length, 1);
    assert.equal(renewed[0].data.subscription.periodsPaid, 2);
    assert.equal(renewed[0].data.transaction.type, 'renewal');
    // A payment_failed for that invoice arriving late (an earlier attempt) changes nothing.
    const stale = stripe.event('invoice.payment_failed', { ...paid.data.object, status: 'open', amount_paid: 0 });
    assert.equal((await stripe.deliver(stale, hook)).json.data.outcome, 'ignored');

    // Next period's charge fails: transaction.failed, past_due, access kept; Stripe retries itself.
    const failed = stripe.renewal(sub.payment_method, 'failed');
    assert.equal((await stripe.deliver(failed, hook)).json.data.outcome, 'applied');
    assert.deepEqual((await renewals()).map((r) => r.status), ['succeeded', 'failed']);
    assert.equal((await eventsOf(t, b.brandId, 'transaction.failed')).length, 1);
    const [pastDue] = await t.db.query<{ status: string; due_at: Date | null; next_billing_at: Date | null }>('SELECT * FROM subscriptions WHERE id = $1', [sub.id]);
    assert.equal(pastDue.status, 'past_due');
    assert.equal(pastDue.due_at, null, 'our worker schedules no retry');
    assert.ok(pastDue.next_billing_at, 'Stripe\'s next attempt');
    const [stillActive] = await t.db.query<{ status: string }>('SELECT status FROM memberships WHERE brand_id = $1', [b.brandId]);
    assert.equal(stillActive.status, 'active');

    // Stripe gives up and deletes the subscription: expired, subscription.expired then member.removed.
    const deleted = stripe.deleteSubscription(sub.payment_method);
    assert.equal((await stripe.deliver(deleted, hook)).json.data.outcome, 'applied');
    assert.equal((await stripe.deliver(deleted, hook)).json.data.outcome, 'duplicate');
    const [ended] = await t.db.query<{ status: string }>('SELECT status FROM subscriptions WHERE id = $1', [sub.id]);
    assert.equal(ended.status, 'expired');
    const [gone] = await t.db.query<{ status: string }>('SELECT status FROM memberships WHERE brand_id = $1', [b.brandId]);
    assert.equal(gone.status, 'expired');
    const tail = (await eventsOf(t, b.brandId)).map((e) => e.type).filter((type) => type.startsWith('subscription.') || type === 'member.removed');
    assert.deepEqual(tail, ['subscription.renewed', 'subscription.expired', 'member.removed']);
  });

  it('tells Stripe to stop billing when the last of `count` periods is paid', async () => {
    const b = await recurringBrand(t);
    const link = await createLink(t, b.liveKey, {
      items: [{ id: b.ids.club, plan: b.ids.yearly, type: 'membership' }],
      form: { formData: { fullName: 'Grace Hopper', email: 'grace@example.com' } },
    });
    await pay(link.path);
    const payment = await transaction(b.brandId, link.id);
    const { session, events: [completed] } = stripe.complete(payment.provider_reference);
    await stripe.deliver(completed, hook);
    for (let i = 0; i < 3; i++) assert.equal((await stripe.deliver(stripe.renewal(session.subscription, 'paid'), hook)).status, 200);
    const [sub] = await t.db.query<{ status: string; periods_paid: number }>('SELECT status, periods_paid FROM subscriptions WHERE brand_id = $1', [b.brandId]);
    assert.deepEqual([sub.status, sub.periods_paid], ['completed', 4]);
    assert.equal(stripe.subscriptions.get(session.subscription)!.cancel_at_period_end, true);
    assert.equal((await eventsOf(t, b.brandId, 'subscription.completed')).length, 1);
  });

  it('tells Stripe when a live member is cancelled at period end or removed now', async () => {
    const b = await recurringBrand(t);
    const bought = [];
    for (const email of ['one@example.com', 'two@example.com']) {
      const link = await createLink(t, b.liveKey, { items: [{ id: b.ids.club, plan: b.ids.monthly, type: 'membership' }], form: { formData: { fullName: 'Ada', email } } });
      await pay(link.path);
      const payment = await transaction(b.brandId, link.id);
      const { session, events: [completed] } = stripe.complete(payment.provider_reference);
      await stripe.deliver(completed, hook);
      const [m] = await t.db.query<{ id: string }>('SELECT id FROM memberships WHERE brand_id = $1 AND email = $2', [b.brandId, email]);
      bought.push({ membershipId: m.id, stripeSub: session.subscription as string });
    }
    const [atEnd, now] = bought;
    const cancel = await t.request({ method: 'POST', url: `/api/v1/memberships/${atEnd.membershipId}/cancel`, key: b.liveKey, payload: { atPeriodEnd: true } });
    assert.equal(cancel.statusCode, 200, cancel.body);
    assert.equal(cancel.json().data.subscription.cancelAtPeriodEnd, true);
    assert.equal(stripe.subscriptions.get(atEnd.stripeSub)!.cancel_at_period_end, true);
    assert.equal(stripe.subscriptions.get(atEnd.stripeSub)!.status, 'active');

    const removed = await t.request({ method: 'DELETE', url: `/api/v1/hubs/${b.ids.club}/members/${now.membershipId}`, key: b.liveKey });
    assert.equal(removed.statusCode, 200, removed.body);
    assert.equal(removed.json().data.status, 'removed');
    assert.equal(stripe.subscriptions.get(now.stripeSub)!.status, 'canceled');
    // Stripe's customer.subscription.deleted for it then changes nothing: member.removed was sent once.
    assert.equal((await stripe.deliver(stripe.deleteSubscription(now.stripeSub), hook)).status, 200);
    const removedEvents = (await eventsOf(t, b.brandId, 'member.removed')).filter((e) => e.data.membershipId === now.membershipId || e.data.id === now.membershipId);
    assert.equal(removedEvents.length, 1);
  });

  it('refuses a live link with two recurring tiers: one Stripe subscription per checkout', async () => {
    const brand = await createBrand(t.db);
    const monthly = { price: { amount: 5, currency: 'USD' }, recurrence: { periodic: 'monthly', interval: 1, count: 0 } };
    const ids = await t.db.transaction((tx) => loadCatalog(tx, brand.id, {
      hubs: [{ ref: 'a', name: 'A', tiers: [{ ref: 'a-m', name: 'M', ...monthly }] }, { ref: 'b', name: 'B', tiers: [{ ref: 'b-m', name: 'M', ...monthly }] }],
    }));
    const liveKey = (await createKey(t.db, brand.id, { mode: 'live' })).key;
    const res = await t.request({
      method: 'POST', url: '/api/v1/payment-links', key: liveKey,
      payload: { items: [{ id: ids.a, plan: ids['a-m'], type: 'membership' }, { id: ids.b, plan: ids['b-m'], type: 'membership' }], form: { formData: { fullName: 'A', email: 'a@example.com' } } },
    });
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.json().message, /one recurring tier/);
  });
});
