import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadCatalog } from '../../catalog/load.ts';
import { createLink } from '../../testing/checkout-fixtures.ts';
import type { TestApp } from '../../testing/app.ts';
import { createBrand, createKey } from '../../testing/factories.ts';
import type { StripeFake } from '../../testing/stripe-fake.ts';
import { startStripeApp, type StripeApp } from '../../testing/stripe-app.ts';

/**
 * A coupon on a subscription Stripe bills (docs/coupons.md, "Subscriptions billed by Stripe"):
 * the checkout carries a Stripe coupon whose duration is the coupon's, so Stripe's own renewals
 * are discounted while it lasts and charged in full after; our renewal transactions record what
 * Stripe charged. The fake moves a subscription on one billing period per renewal, as Stripe's
 * test clock would, and applies the discount by Stripe's rules (testing/stripe-fake.ts).
 */
let t: TestApp;
let stripe: StripeFake;
let hook: string;
let base: string;

let app: StripeApp;

before(async () => {
  ({ t, stripe, base, hook } = app = await startStripeApp());
});
after(async () => { await app.close(); });

const plan = (ref: string, periodic: string) => ({ ref, name: ref, price: { amount: 5, currency: 'USD' }, recurrence: { periodic, interval: 1, count: 0 } });

async function shop() {
  const brand = await createBrand(t.db);
  const ids = await t.db.transaction((tx) => loadCatalog(tx, brand.id, {
    hubs: [{ ref: 'club', name: 'Club', tiers: [plan('monthly', 'monthly'), plan('weekly', 'weekly')] }],
  }));
  const liveKey = (await createKey(t.db, brand.id, { mode: 'live' })).key;
  return { brandId: brand.id, ids, liveKey };
}

type Shop = Awaited<ReturnType<typeof shop>>;

async function coupon(s: Shop, body: object) {
  const res = await t.request({ method: 'POST', url: '/api/v1/coupons', key: s.liveKey, payload: body });
  assert.equal(res.statusCode, 200, res.body);
}

/** A buyer subscribes to `tier` with `code` and pays on Stripe's page; returns the Stripe subscription and what the checkout asked Stripe for. */
async function subscribe(s: Shop, tier: string, code: string, email: string) {
  const link = await createLink(t, s.liveKey, { items: [{ id: s.ids.club, plan: s.ids[tier], type: 'membership' }], coupon: code, form: { formData: { fullName: 'Ada', email } } });
  const before = stripe.requests.length;
  const res = await fetch(`${base}${link.path}/pay`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
  assert.equal(res.status, 303, await res.text());
  const asked = stripe.requests.slice(before);
  const session = asked.find((r) => r.path === '/v1/checkout/sessions')!;
  const couponMade = asked.find((r) => r.path === '/v1/coupons');
  const [payment] = await t.db.query<{ provider_reference: string }>('SELECT provider_reference FROM transactions WHERE brand_id = $1 AND payment_link_id = $2', [s.brandId, link.id]);
  const { session: paid, events } = stripe.complete(payment.provider_reference);
  for (const e of events) assert.equal((await stripe.deliver(e, hook)).status, 200);
  return { link, session, couponMade, paidSession: paid, stripeSub: paid.subscription as string };
}

/** Stripe bills `n` renewals (one billing period each); every invoice is delivered to our webhook. */
async function renew(stripeSub: string, n: number) {
  const amounts: number[] = [];
  for (let i = 0; i < n; i++) {
    const e = stripe.renewal(stripeSub, 'paid');
    amounts.push(e.data.object.amount_paid);
    assert.equal((await stripe.deliver(e, hook)).json.data.outcome, 'applied');
  }
  return amounts;
}

/** What our transactions say the buyer paid, first payment then renewals, in minor units. */
async function charges(s: Shop, email: string) {
  const rows = await t.db.query<{ amount: string; type: string }>(
    `SELECT amount, type FROM transactions WHERE brand_id = $1 AND customer_email = $2 AND status = 'succeeded' ORDER BY created_at`, [s.brandId, email]);
  return rows.map((r) => [r.type, Number(r.amount)]);
}

describe('a coupon on a subscription Stripe bills', () => {
  it('discounts the renewals for the periods a repeating coupon lasts, through Stripe\'s own coupon duration, then Stripe charges the full price', async () => {
    const s = await shop();
    await coupon(s, { code: 'THREE', percentOff: 40, duration: 'repeating', durationPeriods: 3 });
    const { link, session, couponMade, paidSession, stripeSub } = await subscribe(s, 'monthly', 'three', 'ada@example.com');
    assert.equal(link.amount, 3, '5.00 less 40%');

    // Stripe's coupon: 2.00 off each invoice for 3 months, one use, on the session.
    assert.ok(couponMade, 'a Stripe coupon was made');
    assert.deepEqual([couponMade.body.amount_off, couponMade.body.currency, couponMade.body.duration, couponMade.body.duration_in_months, couponMade.body.max_redemptions],
      ['200', 'usd', 'repeating', '3', '1']);
    const made = [...stripe.coupons.values()].find((c) => c.name === 'Coupon THREE')!;
    assert.deepEqual(session.body.discounts, [{ coupon: made.id }]);
    assert.equal(session.body.line_items.length, 1, 'the recurring price alone: the coupon makes up the difference');
    assert.equal(paidSession.amount_total, 300, 'Stripe charges what the link shows');
    assert.equal(made.times_redeemed, 1);

    // Renewals 2 and 3 are discounted; the 4th (its period starts when the 3 months are over) is full price.
    assert.deepEqual(await renew(stripeSub, 3), [300, 300, 500]);
    assert.deepEqual(await charges(s, 'ada@example.com'), [['purchase', 300], ['renewal', 300], ['renewal', 300], ['renewal', 500]]);
    const [sub] = await t.db.query<{ periods_paid: number; status: string }>('SELECT periods_paid, status FROM subscriptions WHERE brand_id = $1', [s.brandId]);
    assert.deepEqual([sub.periods_paid, sub.status], [4, 'active']);
  });

  it('ends the discount of a weekly plan (Stripe counts coupon durations in months) once its last discounted payment is in', async () => {
    const s = await shop();
    await coupon(s, { code: 'TWOWEEKS', amountsOff: [{ amount: 1, currency: 'USD' }], duration: 'repeating', durationPeriods: 2 });
    const { couponMade, stripeSub } = await subscribe(s, 'weekly', 'TWOWEEKS', 'grace@example.com');
    assert.deepEqual([couponMade!.body.amount_off, couponMade!.body.duration, couponMade!.body.duration_in_months], ['100', 'forever', undefined]);
    const removals = () => stripe.requests.filter((r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/${stripeSub}/discount`).length;

    assert.deepEqual(await renew(stripeSub, 1), [400], 'the second payment is still discounted');
    assert.equal(removals(), 1, 'the discount is removed after the 2nd payment');
    assert.deepEqual(stripe.subscriptions.get(stripeSub)!.discounts, []);
    assert.deepEqual(await renew(stripeSub, 2), [500, 500]);
    assert.equal(removals(), 1, 'removed once');
    assert.deepEqual(await charges(s, 'grace@example.com'), [['purchase', 400], ['renewal', 400], ['renewal', 500], ['renewal', 500]]);
  });

  it('discounts only the first payment of a once coupon, and every renewal of a forever coupon', async () => {
    const s = await shop();
    await coupon(s, { code: 'FIRST', amountsOff: [{ amount: 1.5, currency: 'USD' }], duration: 'once' });
    await coupon(s, { code: 'ALWAYS', percentOff: 10, duration: 'forever' });
    const once = await subscribe(s, 'monthly', 'FIRST', 'first@example.com');
    assert.deepEqual([once.couponMade!.body.amount_off, once.couponMade!.body.duration], ['150', 'once']);
    const always = await subscribe(s, 'monthly', 'ALWAYS', 'always@example.com');
    assert.deepEqual([always.couponMade!.body.amount_off, always.couponMade!.body.duration], ['50', 'forever']);
    assert.deepEqual(await renew(once.stripeSub, 2), [500, 500]);
    assert.deepEqual(await renew(always.stripeSub, 2), [450, 450]);
    assert.deepEqual(await charges(s, 'first@example.com'), [['purchase', 350], ['renewal', 500], ['renewal', 500]]);
    assert.deepEqual(await charges(s, 'always@example.com'), [['purchase', 450], ['renewal', 450], ['renewal', 450]]);
  });
});
