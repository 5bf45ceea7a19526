import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { cards, courseBody, createLink, submitCard } from '../testing/checkout-fixtures.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';
import { advance, recurringBrand } from '../testing/subscriptions.ts';

/**
 * Applying coupons: `coupon` on POST /payment-links, the rules one by one, uses held while a
 * payment is under way, counted when it is paid, given back on failure and on a full refund,
 * and renewals discounted as long as the coupon lasts (docs/coupons.md).
 */

let t: TestApp;
let shop: Awaited<ReturnType<typeof createBrandWithCatalog>>;
before(async () => {
  t = await startTestApp();
  shop = await createBrandWithCatalog(t.db);
});
after(async () => { await t.close(); });

const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, key = shop.testKey) =>
  t.request({ method, url: `/api/v1${url}`, key, ...(payload ? { payload } : {}) });

let n = 0;
async function coupon(body: object, key = shop.testKey) {
  const res = await api('POST', '/coupons', { code: `C${++n}X`, ...body }, key);
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data as { id: string; code: string };
}

/** The course (Standard, 39.50 USD after the tier's own discount) for `email` with this coupon. */
const course = (code: string, email = 'ada@example.com') => courseBody(shop.ids, {
  coupon: code, form: { formData: { fullName: 'Ada Lovelace', email, experienceLevel: 'Beginner' } },
});

async function refused(body: object, reason: RegExp, key = shop.testKey) {
  const res = await api('POST', '/payment-links', body, key);
  assert.equal(res.statusCode, 400, res.body);
  assert.equal(res.json().data.code, 'validation_failed');
  assert.match(res.json().message, /^Invalid body field `coupon`: /);
  assert.match(res.json().message, reason);
}

const getCoupon = async (id: string) => (await api('GET', `/coupons/${id}`)).json().data;
const getTx = async (txref: string) => (await api('GET', `/transactions/${txref}`)).json().data;

async function pay(path: string, card = cards.ok) {
  const res = await submitCard(t, path, card);
  const [row] = await t.db.query<{ txref: string; status: string }>(
    `SELECT t.txref, t.status FROM transactions t WHERE t.brand_id = $1 AND t.payment_link_id = $2 ORDER BY t.created_at DESC LIMIT 1`,
    [shop.brand.id, path.split('/').pop()]);
  return { res, txref: row?.txref, status: row?.status };
}

describe('coupon on POST /payment-links', () => {
  it('takes a percentage off: the link, its hosted page, the transaction and the coupon\'s revenue show it', async () => {
    const c = await coupon({ percentOff: 20 });
    const link = await createLink(t, shop.testKey, course(c.code.toLowerCase()));
    assert.equal(link.amount, 31.6, '39.50 less 20%');
    const page = await t.app.inject({ method: 'GET', url: link.path });
    assert.ok(page.body.includes(`Coupon ${c.code}: 20% off`), 'the page shows the coupon line');
    assert.ok(page.body.includes('-7.90 USD'));
    assert.ok(page.body.includes('31.60 USD'));
    const before = await getCoupon(c.id);
    assert.equal(before.redemptions + before.reserved, 0, 'making a link uses nothing');

    const { res, txref } = await pay(link.path);
    assert.equal(res.statusCode, 303, res.body);
    const tx = await getTx(txref!);
    assert.equal(tx.amount, 31.6);
    assert.equal(tx.coupon, c.code);
    assert.equal(tx.discount, 7.9);
    const after = await getCoupon(c.id);
    assert.equal(after.redemptions, 1);
    assert.equal(after.reserved, 0);
    assert.deepEqual(after.revenue, [{ amount: 31.6, currency: 'USD' }]);
    assert.deepEqual(after.discounted, [{ amount: 7.9, currency: 'USD' }]);
    assert.equal(after.recentRedemptions[0].txref, txref);
    assert.equal(after.recentRedemptions[0].status, 'succeeded');
  });

  it('takes a fixed amount in the order\'s currency, and refuses a currency it does not cover', async () => {
    const usd = await coupon({ amountsOff: [{ amount: 5, currency: 'USD' }, { amount: 4, currency: 'EUR' }] });
    assert.equal((await createLink(t, shop.testKey, course(usd.code))).amount, 34.5);
    const big = await coupon({ amountsOff: [{ amount: 500, currency: 'USD' }] });
    assert.equal((await createLink(t, shop.testKey, course(big.code))).amount, 0, 'never below zero');
    const eur = await coupon({ amountsOff: [{ amount: 5, currency: 'EUR' }] });
    await refused(course(eur.code), /has no amount off in USD \(it covers EUR\)/);
  });

  it('applies only to the products, tiers or hubs it names', async () => {
    const other = await coupon({ percentOff: 50, appliesTo: { products: [shop.ids['sketch-club']] } });
    await refused(course(other.code), /does not apply to anything in this order/);
    const byTier = await coupon({ percentOff: 50, appliesTo: { tiers: [shop.ids['brush-standard']] } });
    // The add-on (15.00) is outside the tier's scope: half of 39.50 only.
    const withAddon = await createLink(t, shop.testKey, { ...course(byTier.code), addons: [shop.ids['brush-kit']] });
    assert.equal(withAddon.amount, 39.5 + 15 - 19.75);
    const byHub = await coupon({ percentOff: 10, appliesTo: { hubs: [shop.ids['studio-club']] } });
    assert.equal((await createLink(t, shop.testKey, course(byHub.code))).amount, 35.55, 'the course belongs to the hub');
    const otherHub = await coupon({ percentOff: 10, appliesTo: { products: [shop.ids['palette-guide']] } });
    await refused(course(otherHub.code), /does not apply/);
  });

  it('refuses a coupon that does not exist, is archived, not yet valid or expired', async () => {
    await refused(course('NOPE'), /coupon "NOPE" does not exist/);
    const archived = await coupon({ percentOff: 10 });
    await api('DELETE', `/coupons/${archived.id}`);
    await refused(course(archived.code), /does not exist/);
    const later = await coupon({ percentOff: 10, startsAt: '2099-01-01T00:00:00Z' });
    await refused(course(later.code), /is not valid yet: it starts at 2099-01-01T00:00:00.000Z/);
    const past = await coupon({ percentOff: 10, endsAt: '2001-01-01T00:00:00Z' });
    await refused(course(past.code), /has expired: it ended at 2001-01-01T00:00:00.000Z/);
    const live = await coupon({ percentOff: 10 }, shop.liveKey);
    await refused(course(live.code), /does not exist/);
  });

  it('refuses an order below the minimum in its currency', async () => {
    const c = await coupon({ percentOff: 10, minimumAmounts: [{ amount: 50, currency: 'USD' }] });
    await refused(course(c.code), /needs an order of at least 50.00 USD; this one comes to 39.50 USD/);
    const ok = await createLink(t, shop.testKey, { ...course(c.code), addons: [shop.ids['brush-kit']] });
    assert.equal(ok.amount, 49.05, '54.50 less 10%');
  });

  it('counts uses at payment: unpaid links hold nothing, a declined card gives its use back, the cap is then refused', async () => {
    const c = await coupon({ percentOff: 10, maxRedemptions: 1 });
    const a = await createLink(t, shop.testKey, course(c.code, 'a@example.com'));
    const b = await createLink(t, shop.testKey, course(c.code, 'b@example.com'));
    const declined = await pay(a.path, cards.declined);
    assert.equal(declined.status, 'failed');
    assert.equal((await getCoupon(c.id)).reserved, 0, 'the failed payment released its use');
    const paid = await pay(b.path);
    assert.equal(paid.status, 'succeeded');
    assert.equal((await getCoupon(c.id)).redemptions, 1);
    const late = await submitCard(t, a.path, cards.ok);
    assert.equal(late.statusCode, 409, 'the other link is refused when it is paid');
    assert.match(late.body, /has been used up/);
    await refused(course(c.code, 'c@example.com'), /has been used up \(all 1 uses are taken\)/);
  });

  it('limits uses per customer by normalised email', async () => {
    const c = await coupon({ percentOff: 10, maxPerCustomer: 1 });
    const first = await createLink(t, shop.testKey, course(c.code, 'grace@example.com'));
    assert.equal((await pay(first.path)).status, 'succeeded');
    await refused(course(c.code, 'Grace+shop@Example.COM'), /can be used once per customer/);
    await createLink(t, shop.testKey, course(c.code, 'ada.l@example.com'));
  });

  it('gives the use back on a full refund, not on a partial one', async () => {
    const c = await coupon({ percentOff: 10, maxRedemptions: 2 });
    const one = await createLink(t, shop.testKey, course(c.code, 'r1@example.com'));
    const two = await createLink(t, shop.testKey, course(c.code, 'r2@example.com'));
    const p1 = await pay(one.path);
    const p2 = await pay(two.path);
    assert.equal((await getCoupon(c.id)).redemptions, 2);
    assert.equal((await api('POST', `/transactions/${p1.txref}/refund`, { amount: 1 })).statusCode, 200);
    assert.equal((await getCoupon(c.id)).redemptions, 2, 'a partial refund keeps the use');
    const full = await api('POST', `/transactions/${p2.txref}/refund`, {});
    assert.equal(full.statusCode, 200, full.body);
    const now = await getCoupon(c.id);
    assert.equal(now.redemptions, 1, 'the fully refunded payment gave its use back');
    assert.deepEqual(now.revenue, [{ amount: 34.55, currency: 'USD' }], '35.55 paid less the 1.00 refunded');
    await createLink(t, shop.testKey, course(c.code, 'r3@example.com'));
  });
});

describe('renewals', () => {
  it('discounts a subscription for the periods a repeating coupon lasts, then charges the full price', async () => {
    const b = await recurringBrand(t);
    const res = await t.request({ method: 'POST', url: '/api/v1/coupons', key: b.key, payload: { code: 'THREE', percentOff: 40, duration: 'repeating', durationPeriods: 3 } });
    assert.equal(res.statusCode, 200, res.body);
    const link = await createLink(t, b.key, { items: [{ id: b.ids.club, plan: b.ids.monthly, type: 'membership' }], coupon: 'three', form: { formData: { fullName: 'Ada', email: 'ada@example.com' } } });
    assert.equal(link.amount, 3, '5.00 less 40%');
    const page = await t.app.inject({ method: 'GET', url: link.path });
    assert.ok(page.body.includes('Coupon THREE: 40% off, the first 3 payments'), page.body);
    assert.equal((await submitCard(t, link.path, cards.ok)).statusCode, 303);
    for (let i = 0; i < 3; i++) await advance(t, b.key, { by: '32d' });
    const charges = await t.db.query<{ amount: string; type: string }>(
      `SELECT amount, type FROM transactions WHERE brand_id = $1 AND status = 'succeeded' ORDER BY created_at`, [b.brandId]);
    assert.deepEqual(charges.map((c) => [c.type, Number(c.amount)]), [['purchase', 300], ['renewal', 300], ['renewal', 300], ['renewal', 500]]);
  });

  it('discounts every renewal of a forever coupon, and only the first payment of a once coupon', async () => {
    const b = await recurringBrand(t);
    for (const [code, duration] of [['ALWAYS', 'forever'], ['FIRST', 'once']] as const) {
      const res = await t.request({ method: 'POST', url: '/api/v1/coupons', key: b.key, payload: { code, amountsOff: [{ amount: 1, currency: 'USD' }], duration } });
      assert.equal(res.statusCode, 200, res.body);
      const link = await createLink(t, b.key, { items: [{ id: b.ids.club, plan: b.ids.monthly, type: 'membership' }], coupon: code, form: { formData: { fullName: 'Ada', email: `${code}@example.com` } } });
      assert.equal(link.amount, 4);
      assert.equal((await submitCard(t, link.path, cards.ok)).statusCode, 303);
    }
    for (let i = 0; i < 2; i++) await advance(t, b.key, { by: '32d' });
    const charges = await t.db.query<{ amount: string; email: string }>(
      `SELECT amount, customer_email AS email FROM transactions WHERE brand_id = $1 AND status = 'succeeded' AND type = 'renewal' ORDER BY customer_email, created_at`, [b.brandId]);
    assert.deepEqual(charges.map((c) => [c.email, Number(c.amount)]),
      [['ALWAYS@example.com', 400], ['ALWAYS@example.com', 400], ['FIRST@example.com', 500], ['FIRST@example.com', 500]]);
  });
});
