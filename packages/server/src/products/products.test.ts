import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';
import { loadCatalog } from '../catalog/load.ts';

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

describe('GET /products', () => {
  runCommonRouteTests('GET /products', {
    method: 'GET',
    scope: 'products:read',
    foreign: 'hidden',
    modeScoped: false,
    async setup({ t, brandId }) {
      const ids = await loadCatalog(t.db, brandId, { products: [{ ref: 'p', type: 'digital', title: 'Guide', tiers: [{ ref: 't', name: 'Free', price: { amount: 0, currency: 'USD' } }] }] });
      return { url: '/api/v1/products', marker: ids.p };
    },
  }, () => t);

  it('lists the catalog newest first in the list form', async () => {
    const { testKey, ids } = await createBrandWithCatalog(t.db);
    const res = await t.request({ method: 'GET', url: '/api/v1/products', key: testKey });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.status, 'success');
    assert.equal(typeof body.message, 'string');
    const { items, hasMore, nextCursor } = body.data;
    assert.deepEqual(items.map((p: any) => p.id), [ids['live-workshop'], ids['sketch-club'], ids['brush-course'], ids['palette-guide']]);
    assert.equal(hasMore, false);
    assert.equal(nextCursor, '');
    const event = items[0];
    assert.deepEqual(event.event, { eventType: 'hybrid', venue: 'The Studio, 12 Canal St', dateTime: '2027-03-14T15:00:00.000Z', endDate: '2027-03-14T18:00:00.000Z' });
    assert.equal(event.tiers, undefined, 'tiers are detail-only');
    assert.equal(items[3].isFree, true);
    assert.equal(items[2].isFree, false);
    assert.match(items[0].createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('shows the same catalog to test and live keys', async () => {
    const { testKey, liveKey } = await createBrandWithCatalog(t.db);
    const a = (await t.request({ method: 'GET', url: '/api/v1/products', key: testKey })).json().data.items;
    const b = (await t.request({ method: 'GET', url: '/api/v1/products', key: liveKey })).json().data.items;
    assert.deepEqual(a, b);
  });
});

describe('GET /products/{id}', () => {
  runCommonRouteTests('GET /products/{id}', {
    method: 'GET',
    scope: 'products:read',
    foreign: 404,
    modeScoped: false,
    async setup({ t, brandId }) {
      const ids = await loadCatalog(t.db, brandId, { products: [{ ref: 'p', type: 'digital', title: 'Guide', tiers: [{ ref: 't', name: 'Free', price: { amount: 0, currency: 'USD' } }] }] });
      return { url: `/api/v1/products/${ids.p}`, marker: ids.p };
    },
  }, () => t);

  it('returns tiers, items and checkout fields with amounts as decimal numbers', async () => {
    const { testKey, ids } = await createBrandWithCatalog(t.db);
    const res = await t.request({ method: 'GET', url: `/api/v1/products/${ids['brush-course']}`, key: testKey });
    assert.equal(res.statusCode, 200);
    const p = res.json().data;
    assert.equal(p.title, 'Brushwork fundamentals');
    assert.deepEqual(p.tiers.map((x: any) => x.id), [ids['brush-standard'], ids['brush-pwyw']]);
    const standard = p.tiers[0];
    assert.deepEqual(standard.price, { amount: 49.5, currency: 'USD' });
    assert.deepEqual(standard.discount, { amount: 10, currency: 'USD' });
    assert.deepEqual(standard.itemIDs, [ids['lesson-1'], ids['lesson-2']]);
    assert.equal(standard.isDefault, true);
    assert.equal(p.tiers[1].isDefault, false);
    assert.equal(p.tiers[1].type, 'pay_what_you_want');
    const kit = p.items.find((i: any) => i.id === ids['brush-kit']);
    assert.deepEqual(kit, { id: ids['brush-kit'], type: 'addon', title: 'Brush kit', isAddon: true, price: { amount: 15, currency: 'USD' } });
    assert.deepEqual(p.checkoutFields, [
      { id: 'companyName', label: 'Company name', type: 'text', required: false },
      { id: 'experienceLevel', label: 'Experience level', type: 'select', required: true, options: ['Beginner', 'Intermediate', 'Advanced'] },
    ]);
  });

  it('renders a recurring tier with its recurrence', async () => {
    const { testKey, ids } = await createBrandWithCatalog(t.db);
    const p = (await t.request({ method: 'GET', url: `/api/v1/products/${ids['sketch-club']}`, key: testKey })).json().data;
    assert.deepEqual(p.tiers[0].recurrence, { periodic: 'monthly', interval: 1, count: 0 });
    assert.equal(p.tiers[0].type, 'recurring');
  });

  it('answers an unknown id with 404 in the envelope', async () => {
    const { testKey } = await createBrandWithCatalog(t.db);
    const res = await t.request({ method: 'GET', url: '/api/v1/products/prod_nope', key: testKey });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().data.code, 'not_found');
  });
});
