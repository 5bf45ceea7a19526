import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cards, courseBody } from '../testing/checkout-fixtures.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { testDbKind } from '../testing/db.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';
import { startServerProcess, urlWithSchema, type ServerProcess } from '../testing/processes.ts';

/**
 * A coupon's cap holds under concurrency (docs/coupons.md, Redemptions): 50 buyers, each with a
 * link made with the coupon, pay at once through two API processes on one PostgreSQL for a
 * coupon capped at 10. Exactly 10 pay; the rest are refused before anything is charged.
 */
const skip = testDbKind === 'pglite' ? 'needs PostgreSQL: two API processes share one database only with TEST_DATABASE_URL' : false;

let t: TestApp;
const apis: ServerProcess[] = [];

describe('50 buyers racing for a coupon capped at 10, through two API processes', { skip }, () => {
  before(async () => {
    t = await startTestApp();
    const env = {
      DATABASE_URL: urlWithSchema(t.url!, t.searchPath!),
      WEBHOOK_SECRET_KEY: t.deps.secrets.webhookKey.toString('base64'),
      ROLES: 'api',
      CHECKOUT_FAILURES_PER_ADDRESS: '1000000',
    };
    apis.push(...(await Promise.all([startServerProcess(env), startServerProcess(env)])));
  });
  after(async () => {
    await Promise.all(apis.map((a) => a.stop()));
    await t?.close();
  });

  const call = (api: ServerProcess, key: string, path: string, body: unknown) => fetch(`${api.url}/api/v1${path}`, {
    method: 'POST', headers: { 'x-service-api': key, 'content-type': 'application/json' }, body: JSON.stringify(body),
  });

  it('redeems exactly 10', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const made = await call(apis[0], shop.testKey, '/coupons', { code: 'TEN', percentOff: 25, maxRedemptions: 10 });
    const madeText = await made.text();
    assert.equal(made.status, 200, madeText);
    const coupon = (JSON.parse(madeText) as { data: { id: string } }).data;

    const buyers = 50;
    const links: string[] = [];
    for (let i = 0; i < buyers; i++) {
      const res = await call(apis[i % 2], shop.testKey, '/payment-links', courseBody(shop.ids, {
        coupon: 'ten', form: { formData: { fullName: `Buyer ${i}`, email: `buyer${i}@example.com`, experienceLevel: 'Beginner' } },
      }));
      const text = await res.text();
      assert.equal(res.status, 200, text);
      links.push((JSON.parse(text) as { data: { id: string } }).data.id);
    }
    const answers = await Promise.all(links.map(async (id, i) => {
      const res = await call(apis[i % 2], shop.testKey, `/test/payment-links/${id}/pay`, { card: cards.ok });
      return { status: res.status, body: await res.text() };
    }));
    const paid = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 409 && a.body.includes('has been used up'));
    assert.equal(paid.length, 10, JSON.stringify(answers.filter((a) => a.status !== 200 && a.status !== 409).slice(0, 3)));
    assert.equal(refused.length, buyers - 10);

    const [{ n, charged }] = await t.db.query<{ n: number; charged: number }>(
      `SELECT count(*) FILTER (WHERE status = 'succeeded')::int AS n, count(*) FILTER (WHERE coupon_code IS NOT NULL)::int AS charged
       FROM transactions WHERE brand_id = $1`, [shop.brand.id]);
    assert.equal(n, 10);
    assert.equal(charged, 10, 'the refused buyers got no transaction at all: nothing was charged');
    const got = await fetch(`${apis[1].url}/api/v1/coupons/${coupon.id}`, { headers: { 'x-service-api': shop.testKey } });
    const data = (await got.json() as { data: { redemptions: number; reserved: number; revenue: { amount: number }[] } }).data;
    assert.equal(data.redemptions, 10);
    assert.equal(data.reserved, 0);
    assert.deepEqual(data.revenue, [{ amount: 296.2, currency: 'USD' }], '10 × 29.62 (39.50 less 25%, 9.875 rounded to 9.88)');
  });
});
