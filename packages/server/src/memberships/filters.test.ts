import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadCatalog } from '../catalog/load.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { createBrandWithCatalog, createMembership } from '../testing/factories.ts';

// The `email` and `status` filters of the member and customer lists (our addition, used by the
// dashboard's people pages).

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

const smallHub = { hubs: [{ ref: 'h', name: 'Hub', tiers: [{ ref: 'free', name: 'Free', price: { amount: 0, currency: 'USD' } }] }] };
const smallProduct = { products: [{ ref: 'p', type: 'digital', title: 'Guide', tiers: [{ ref: 't', name: 'Paid', price: { amount: 5, currency: 'USD' } }] }] };

const ids = (res: { json: () => any }) => res.json().data.items.map((m: any) => m.membershipId);
const tick = () => new Promise((r) => setTimeout(r, 2));

/** Pages through a list two at a time, following nextCursor; the ids in order. */
async function pageAll(url: string, key: string): Promise<string[]> {
  const seen: string[] = [];
  let cursor = '';
  for (let i = 0; i < 20; i++) {
    const res = await t.request({ method: 'GET', url: `${url}&limit=2${cursor ? `&cursor=${cursor}` : ''}`, key });
    assert.equal(res.statusCode, 200, res.body);
    const data = res.json().data;
    seen.push(...data.items.map((m: any) => m.membershipId));
    if (!data.hasMore) return seen;
    cursor = data.nextCursor;
  }
  throw new Error('the list did not end');
}

describe('GET /hubs/{hubID}/members?email&status', () => {
  runCommonRouteTests('GET /hubs/{hubID}/members?status=active&email=…', {
    method: 'GET',
    scope: 'customers:read',
    foreign: 404,
    modeScoped: false,
    async setup({ t, brandId, mode }) {
      const ids = await loadCatalog(t.db, brandId, smallHub);
      const m = await createMembership(t.db, { brandId, mode, hubId: ids.h, email: 'Find.Me@example.com' });
      return { url: `/api/v1/hubs/${ids.h}/members?status=active&email=find.me%40example.com`, marker: m.id };
    },
  }, () => t);

  it('finds one person by email, ignoring case', async () => {
    const { brand, ids: c, testKey } = await createBrandWithCatalog(t.db);
    const hub = c['studio-club'];
    const grace = await createMembership(t.db, { brandId: brand.id, hubId: hub, email: 'Grace@Example.com' });
    await createMembership(t.db, { brandId: brand.id, hubId: hub, email: 'grace.other@example.com' });
    await createMembership(t.db, { brandId: brand.id, hubId: hub, email: 'grace@example.com', mode: 'live' });
    const res = await t.request({ method: 'GET', url: `/api/v1/hubs/${hub}/members?email=GRACE%40example.com`, key: testKey });
    assert.deepEqual(ids(res), [grace.id]);
    const none = await t.request({ method: 'GET', url: `/api/v1/hubs/${hub}/members?email=nobody%40example.com`, key: testKey });
    assert.deepEqual(none.json().data, { items: [], hasMore: false, nextCursor: '' });
  });

  it('filters by status and pages through the filtered list exactly once each', async () => {
    const { brand, ids: c, testKey } = await createBrandWithCatalog(t.db);
    const hub = c['studio-club'];
    const removed: string[] = [];
    for (let i = 0; i < 5; i++) {
      removed.unshift((await createMembership(t.db, { brandId: brand.id, hubId: hub, status: 'removed' })).id);
      await tick();
      await createMembership(t.db, { brandId: brand.id, hubId: hub });
      await tick();
    }
    assert.deepEqual(await pageAll(`/api/v1/hubs/${hub}/members?status=removed`, testKey), removed);
    const all = await pageAll(`/api/v1/hubs/${hub}/members?`, testKey);
    assert.equal(all.length, 10);
  });

  it('refuses a cursor from another filter of the same list', async () => {
    const { brand, ids: c, testKey } = await createBrandWithCatalog(t.db);
    const hub = c['studio-club'];
    for (let i = 0; i < 3; i++) await createMembership(t.db, { brandId: brand.id, hubId: hub, status: 'expired' });
    const first = await t.request({ method: 'GET', url: `/api/v1/hubs/${hub}/members?status=expired&limit=1`, key: testKey });
    const cursor = first.json().data.nextCursor;
    assert.ok(cursor);
    const other = await t.request({ method: 'GET', url: `/api/v1/hubs/${hub}/members?status=active&limit=1&cursor=${cursor}`, key: testKey });
    assert.equal(other.statusCode, 400);
    assert.equal(other.json().data.code, 'validation_failed');
    const unfiltered = await t.request({ method: 'GET', url: `/api/v1/hubs/${hub}/members?limit=1&cursor=${cursor}`, key: testKey });
    assert.equal(unfiltered.statusCode, 400);
  });

  it('answers a bad status or email with 400 naming the parameter', async () => {
    const { ids: c, testKey } = await createBrandWithCatalog(t.db);
    for (const query of ['status=gone', 'status=', 'email=not-an-email', `email=${'a'.repeat(320)}%40example.com`]) {
      const res = await t.request({ method: 'GET', url: `/api/v1/hubs/${c['studio-club']}/members?${query}`, key: testKey });
      assert.equal(res.statusCode, 400, query);
      const body = res.json();
      assert.equal(body.data.code, 'validation_failed');
      assert.match(body.message, /query parameter `(status|email)`/, query);
    }
  });
});

describe('GET /products/{id}/customers?email&status', () => {
  runCommonRouteTests('GET /products/{id}/customers?status=cancelled', {
    method: 'GET',
    scope: 'customers:read',
    foreign: 404,
    modeScoped: false,
    async setup({ t, brandId, mode }) {
      const ids = await loadCatalog(t.db, brandId, smallProduct);
      const m = await createMembership(t.db, { brandId, mode, productId: ids.p, plan: ids.t, status: 'cancelled' });
      return { url: `/api/v1/products/${ids.p}/customers?status=cancelled`, marker: m.id };
    },
  }, () => t);

  it('lists active customers by default and others by status', async () => {
    const { brand, ids: c, testKey } = await createBrandWithCatalog(t.db);
    const productId = c['brush-course'];
    const active = await createMembership(t.db, { brandId: brand.id, productId, email: 'ada@example.com' });
    const cancelled = await createMembership(t.db, { brandId: brand.id, productId, status: 'cancelled', email: 'bob@example.com' });
    const base = `/api/v1/products/${productId}/customers`;
    assert.deepEqual(ids(await t.request({ method: 'GET', url: base, key: testKey })), [active.id]);
    assert.deepEqual(ids(await t.request({ method: 'GET', url: `${base}?status=cancelled`, key: testKey })), [cancelled.id]);
    assert.deepEqual(ids(await t.request({ method: 'GET', url: `${base}?email=ADA%40example.com`, key: testKey })), [active.id]);
    // Without a status the email filter still lists active customers only.
    assert.deepEqual(ids(await t.request({ method: 'GET', url: `${base}?email=bob%40example.com`, key: testKey })), []);
    assert.deepEqual(ids(await t.request({ method: 'GET', url: `${base}?email=bob%40example.com&status=cancelled`, key: testKey })), [cancelled.id]);
  });

  it('pages through the filtered customers exactly once each', async () => {
    const { brand, ids: c, testKey } = await createBrandWithCatalog(t.db);
    const productId = c['brush-course'];
    const expired: string[] = [];
    for (let i = 0; i < 5; i++) {
      expired.unshift((await createMembership(t.db, { brandId: brand.id, productId, status: 'expired' })).id);
      await tick();
      await createMembership(t.db, { brandId: brand.id, productId });
      await tick();
    }
    assert.deepEqual(await pageAll(`/api/v1/products/${productId}/customers?status=expired`, testKey), expired);
  });

  it('answers a bad status or email with 400', async () => {
    const { ids: c, testKey } = await createBrandWithCatalog(t.db);
    for (const query of ['status=ACTIVE', 'email=x']) {
      const res = await t.request({ method: 'GET', url: `/api/v1/products/${c['brush-course']}/customers?${query}`, key: testKey });
      assert.equal(res.statusCode, 400, query);
      assert.equal(res.json().data.code, 'validation_failed');
    }
  });
});
