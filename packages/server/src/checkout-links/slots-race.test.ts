import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadCatalog } from '../catalog/load.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { cards } from '../testing/checkout-fixtures.ts';
import { testDbKind } from '../testing/db.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';
import { startServerProcess, urlWithSchema, type ServerProcess } from '../testing/processes.ts';

/**
 * Issue 24, item 4, as the issue states it: 100 buyers race for a tier's 10 slots through two API
 * processes on one PostgreSQL. Exactly 10 are paid; every other buyer is told "Sold out" before the
 * payment provider is asked for anything (no sandbox payment exists for them).
 * checkout-links.test.ts races inside one process; here the two processes share only the database.
 */
const skip = testDbKind !== 'postgres' && 'needs PostgreSQL (TEST_DATABASE_URL): two API processes share one database only with DATABASE_URL';

let t: TestApp;
const apis: ServerProcess[] = [];

describe('100 buyers racing for 10 slots through two API processes', { skip }, () => {
  before(async () => {
    t = await startTestApp({ publicUrl: 'https://shop.example.com' });
    const env = {
      DATABASE_URL: urlWithSchema(t.url!, t.searchPath!),
      WEBHOOK_SECRET_KEY: t.deps.secrets.webhookKey.toString('base64'),
      PUBLIC_URL: 'https://shop.example.com',
      // Every buyer comes from 127.0.0.1 here; sold-out answers are not failures, but keep the
      // address limit out of the way so the test proves stock, not card-testing limits.
      CHECKOUT_FAILURES_PER_ADDRESS: '100000',
    };
    apis.push(...(await Promise.all([startServerProcess({ ...env, ROLES: 'api' }), startServerProcess({ ...env, ROLES: 'api' })])));
  });
  after(async () => {
    await Promise.all(apis.map((a) => a.stop()));
    await t?.close();
  });

  it('pays exactly 10 and tells the other 90 "Sold out" before any payment is made', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const refs = await loadCatalog(t.db, shop.brand.id, { products: [{ ref: 'race', type: 'event', title: 'Popular class',
      event: { eventType: 'online', venue: 'Online', dateTime: '2030-01-01T10:00:00Z' },
      tiers: [{ ref: 'seat', name: 'Seat', price: { amount: 10, currency: 'USD' }, slots: 10 }] }] });
    const [a, b] = apis;
    const made = await fetch(`${a.url}/api/v1/checkout-links`, {
      method: 'POST', headers: { 'x-service-api': shop.testKey, 'content-type': 'application/json' },
      body: JSON.stringify({ items: [{ id: refs.race, plan: refs.seat }] }),
    });
    assert.equal(made.status, 200, await made.clone().text());
    const link = (await made.json() as { data: { id: string; url: string } }).data;
    const path = new URL(link.url).pathname;

    // Each buyer fills in the form on one process (alternating) and pays on the other, all at once.
    const buyers = 100;
    const buy = async (i: number) => {
      const [formApi, payApi] = i % 2 ? [a, b] : [b, a];
      const form = await fetch(`${formApi.url}${path}`, {
        method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ fullName: `Buyer ${i}`, email: `race${i}@example.com`, countryCode: 'PT' }),
      });
      const checkout = form.headers.get('location');
      if (form.status !== 303 || !checkout) return { stage: 'form', status: form.status, body: await form.text() };
      const pay = await fetch(`${payApi.url}${new URL(checkout, payApi.url).pathname}/pay`, {
        method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ card: cards.ok }),
      });
      return { stage: 'pay', status: pay.status, body: await pay.text() };
    };
    const answers = await Promise.all(Array.from({ length: buyers }, (_, i) => buy(i)));

    const paid = answers.filter((r) => r.stage === 'pay' && r.status === 303);
    const soldOut = answers.filter((r) => r.status === 409 && r.body.includes('Sold out'));
    const other = answers.filter((r) => !paid.includes(r) && !soldOut.includes(r));
    assert.deepEqual(other.map((r) => `${r.stage} ${r.status} ${r.body.slice(0, 200)}`), [], 'every buyer is either paid or told "Sold out"');
    assert.equal(paid.length, 10);
    assert.equal(soldOut.length, buyers - 10);
    assert.ok(soldOut.every((r) => r.body.includes('Nothing was charged')));

    const [tx] = await t.db.query<{ succeeded: number; other: number }>(
      `SELECT count(*) FILTER (WHERE t.status = 'succeeded')::int AS succeeded, count(*) FILTER (WHERE t.status <> 'succeeded')::int AS other
       FROM transactions t JOIN payment_links p ON p.brand_id = t.brand_id AND p.id = t.payment_link_id
       WHERE p.brand_id = $1 AND p.checkout_link_id = $2`, [shop.brand.id, link.id]);
    assert.deepEqual(tx, { succeeded: 10, other: 0 }, 'sold-out buyers have no transaction at all');
    const [charges] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM sandbox_payments WHERE brand_id = $1', [shop.brand.id]);
    assert.equal(charges.n, 10, 'the payment provider was asked only for the 10 that got a place');
    const [members] = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM memberships WHERE brand_id = $1 AND status = 'active'`, [shop.brand.id]);
    assert.equal(members.n, 10);

    // Both processes now show the tier as sold out.
    for (const api of apis) {
      const page = await (await fetch(`${api.url}${path}`)).text();
      assert.ok(page.includes('Sold out'), 'the form says Sold out');
    }
  });
});
