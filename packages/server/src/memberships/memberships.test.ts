import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadCatalog } from '../catalog/load.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { createBrandWithCatalog, createMembership } from '../testing/factories.ts';

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

const smallHub = { hubs: [{ ref: 'h', name: 'Hub', tiers: [{ ref: 'free', name: 'Free', price: { amount: 0, currency: 'USD' } }] }] };
const smallProduct = { products: [{ ref: 'p', type: 'digital', title: 'Guide', tiers: [{ ref: 't', name: 'Paid', price: { amount: 5, currency: 'USD' } }] }] };

describe('GET /hubs/{hubID}/members', () => {
  runCommonRouteTests('GET /hubs/{hubID}/members', {
    method: 'GET',
    scope: 'customers:read',
    foreign: 404,
    modeScoped: false,
    async setup({ t, brandId, mode }) {
      const ids = await loadCatalog(t.db, brandId, smallHub);
      const m = await createMembership(t.db, { brandId, mode, hubId: ids.h, plan: ids.free });
      return { url: `/api/v1/hubs/${ids.h}/members`, marker: m.id };
    },
  }, () => t);

  it('hides live members from a test key', async () => {
    const { brand, ids, testKey } = await createBrandWithCatalog(t.db);
    const live = await createMembership(t.db, { brandId: brand.id, mode: 'live', hubId: ids['studio-club'] });
    const test = await createMembership(t.db, { brandId: brand.id, mode: 'test', hubId: ids['studio-club'] });
    const res = await t.request({ method: 'GET', url: `/api/v1/hubs/${ids['studio-club']}/members`, key: testKey });
    assert.deepEqual(res.json().data.items.map((m: any) => m.membershipId), [test.id]);
    assert.ok(!res.body.includes(live.id));
  });

  it('renders the reference\'s Membership record, newest first', async () => {
    const { brand, ids, testKey } = await createBrandWithCatalog(t.db);
    const first = await createMembership(t.db, { brandId: brand.id, hubId: ids['studio-club'], name: 'Grace Hopper', email: 'grace@example.com', plan: ids['club-free'], phone: '+15550100' });
    await new Promise((r) => setTimeout(r, 2));
    const second = await createMembership(t.db, { brandId: brand.id, hubId: ids['studio-club'], plan: ids['club-pro'] });
    const res = await t.request({ method: 'GET', url: `/api/v1/hubs/${ids['studio-club']}/members`, key: testKey });
    const items = res.json().data.items;
    assert.deepEqual(items.map((m: any) => m.membershipId), [second.id, first.id]);
    assert.deepEqual(items[1], {
      membershipId: first.id,
      name: 'Grace Hopper',
      email: 'grace@example.com',
      phone: '+15550100',
      hubID: ids['studio-club'],
      status: 'active',
      plan: ids['club-free'],
      joinedAt: first.joined_at.toISOString(),
      version: 1,
      updatedAt: first.updated_at.toISOString(),
    });
  });
});

describe('GET /hubs/{hubID}/members/{id}', () => {
  runCommonRouteTests('GET /hubs/{hubID}/members/{id}', {
    method: 'GET',
    scope: 'customers:read',
    foreign: 404,
    modeScoped: true,
    async setup({ t, brandId, mode }) {
      const ids = await loadCatalog(t.db, brandId, smallHub);
      const m = await createMembership(t.db, { brandId, mode, hubId: ids.h });
      return { url: `/api/v1/hubs/${ids.h}/members/${m.id}`, marker: m.id };
    },
  }, () => t);

  it('answers a member of another hub of the same brand with 404', async () => {
    const { brand, ids, testKey } = await createBrandWithCatalog(t.db);
    const other = await loadCatalog(t.db, brand.id, smallHub);
    const m = await createMembership(t.db, { brandId: brand.id, hubId: other.h });
    const res = await t.request({ method: 'GET', url: `/api/v1/hubs/${ids['studio-club']}/members/${m.id}`, key: testKey });
    assert.equal(res.statusCode, 404);
  });
});

describe('GET /products/{id}/customers', () => {
  runCommonRouteTests('GET /products/{id}/customers', {
    method: 'GET',
    scope: 'customers:read',
    foreign: 404,
    modeScoped: false,
    async setup({ t, brandId, mode }) {
      const ids = await loadCatalog(t.db, brandId, smallProduct);
      const m = await createMembership(t.db, { brandId, mode, productId: ids.p, plan: ids.t });
      return { url: `/api/v1/products/${ids.p}/customers`, marker: m.id };
    },
  }, () => t);

  it('lists only active purchasers of the key\'s mode', async () => {
    const { brand, ids, testKey, liveKey } = await createBrandWithCatalog(t.db);
    const productId = ids['brush-course'];
    const active = await createMembership(t.db, { brandId: brand.id, productId });
    const cancelled = await createMembership(t.db, { brandId: brand.id, productId, status: 'cancelled' });
    const live = await createMembership(t.db, { brandId: brand.id, productId, mode: 'live' });
    const asTest = await t.request({ method: 'GET', url: `/api/v1/products/${productId}/customers`, key: testKey });
    assert.deepEqual(asTest.json().data.items.map((m: any) => m.membershipId), [active.id]);
    assert.ok(!asTest.body.includes(cancelled.id));
    const asLive = await t.request({ method: 'GET', url: `/api/v1/products/${productId}/customers`, key: liveKey });
    assert.deepEqual(asLive.json().data.items.map((m: any) => m.membershipId), [live.id]);
  });
});
