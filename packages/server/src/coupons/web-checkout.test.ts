import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { cards, submitCard } from '../testing/checkout-fixtures.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';

/** Coupons in the web checkout (issue 24): the form's coupon field, a checkout link's preset coupon, and the order summary. */

let t: TestApp;
let shop: Awaited<ReturnType<typeof createBrandWithCatalog>>;
before(async () => {
  t = await startTestApp({ publicUrl: 'https://shop.example.com' });
  shop = await createBrandWithCatalog(t.db);
  const res = await api('POST', '/coupons', { code: 'SPRING20', percentOff: 20 });
  assert.equal(res.statusCode, 200, res.body);
});
after(async () => { await t.close(); });

const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, key = shop.testKey) =>
  t.request({ method, url: `/api/v1${url}`, key, ...(payload ? { payload } : {}) });

const course = () => ({ id: shop.ids['brush-course'], plan: shop.ids['brush-standard'] });

async function makeLink(body: object) {
  const res = await api('POST', '/checkout-links', { items: [course()], ...body });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data as { id: string; url: string; coupon?: string };
}

const submitForm = (path: string, fields: Record<string, string>) => t.app.inject({
  method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString(),
});

const buyer = (n: string) => ({ fullName: `Buyer ${n}`, email: `buyer-${n}@example.com`, countryCode: 'PT', field_experienceLevel: 'Beginner' });

describe('a checkout link\'s preset coupon', () => {
  it('is kept on the link, refused when it names no active coupon of the mode, and changed or cleared by PATCH', async () => {
    const link = await makeLink({ coupon: 'spring20' });
    assert.equal(link.coupon, 'spring20');
    for (const code of ['NOPE']) {
      const res = await api('POST', '/checkout-links', { items: [course()], coupon: code });
      assert.equal(res.statusCode, 400);
      assert.match(res.json().message, /^Invalid body field `coupon`: "NOPE" is not an active coupon of this brand in test mode/);
    }
    const live = await t.request({ method: 'POST', url: '/api/v1/checkout-links', key: shop.liveKey, payload: { items: [course()], coupon: 'SPRING20' } });
    assert.equal(live.statusCode, 400, 'a test coupon is not a live link\'s');
    const cleared = await api('PATCH', `/checkout-links/${link.id}`, { coupon: null });
    assert.equal(cleared.statusCode, 200, cleared.body);
    assert.equal(cleared.json().data.coupon, undefined);
  });
});

describe('the web checkout\'s coupon field', () => {
  it('starts with the preset coupon, says what it takes off, and the next page charges the discounted total', async () => {
    const link = await makeLink({ coupon: 'SPRING20' });
    const path = new URL(link.url).pathname;
    const page = await t.app.inject({ method: 'GET', url: path });
    assert.equal(page.statusCode, 200);
    assert.ok(page.body.includes('name="coupon" value="SPRING20"'), 'the field holds the preset code');
    assert.ok(page.body.includes('Coupon SPRING20: 20% off'), 'the summary says what it takes off');

    const made = await submitForm(path, { ...buyer('preset'), coupon: 'SPRING20' });
    assert.equal(made.statusCode, 303, made.body);
    const hosted = await t.app.inject({ method: 'GET', url: String(made.headers.location) });
    assert.ok(hosted.body.includes('Coupon SPRING20: 20% off'), 'the order summary lists the discount');
    assert.ok(hosted.body.includes('-7.90 USD'));
    assert.ok(hosted.body.includes('31.60 USD'), 'and the total after it');
    assert.equal((await submitCard(t, String(made.headers.location), cards.ok)).statusCode, 303);
    const [tx] = await t.db.query<{ amount: string; coupon_code: string; discount: string }>(
      `SELECT t.amount, t.coupon_code, t.discount FROM transactions t JOIN payment_links p ON p.brand_id = t.brand_id AND p.id = t.payment_link_id
       WHERE p.brand_id = $1 AND p.checkout_link_id = $2`, [shop.brand.id, link.id]);
    assert.deepEqual([Number(tx.amount), tx.coupon_code, Number(tx.discount)], [3160, 'SPRING20', 790]);
  });

  it('takes a code from the address, and a buyer may clear the field to pay the full price', async () => {
    const link = await makeLink({});
    const path = new URL(link.url).pathname;
    const page = await t.app.inject({ method: 'GET', url: `${path}?coupon=spring20` });
    assert.ok(page.body.includes('name="coupon" value="spring20"'));
    const made = await submitForm(path, { ...buyer('cleared'), coupon: '' });
    assert.equal(made.statusCode, 303, made.body);
    const hosted = await t.app.inject({ method: 'GET', url: String(made.headers.location) });
    assert.ok(!hosted.body.includes('Coupon'), 'no coupon line');
    assert.ok(hosted.body.includes('39.50 USD'));
  });

  it('shows why a coupon cannot be used beside the field, in words, and makes nothing', async () => {
    const link = await makeLink({});
    const path = new URL(link.url).pathname;
    const res = await submitForm(path, { ...buyer('bad'), coupon: 'WINTER' });
    assert.equal(res.statusCode, 400);
    assert.ok(res.body.includes('<p class="error-text" id="coupon-error">Coupon &quot;WINTER&quot; does not exist'), res.body.slice(res.body.indexOf('coupon')));
    assert.ok(res.body.includes('aria-describedby="coupon-hint coupon-error"'), 'the field points at its error');
    assert.ok(res.body.includes('name="coupon" value="WINTER"'), 'what the buyer typed is kept');
    const [{ n }] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payment_links WHERE brand_id = $1 AND checkout_link_id = $2', [shop.brand.id, link.id]);
    assert.equal(n, 0);
  });
});
