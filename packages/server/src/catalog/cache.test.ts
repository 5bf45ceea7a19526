import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../app.ts';
import { runCommand } from '../cli/commands.ts';
import { openPostgres, type Db } from '../db/client.ts';
import type { App } from '../http/app-type.ts';
import { startTestApp, testDeps, type TestApp } from '../testing/app.ts';
import { createBrand, createKey, createMembership } from '../testing/factories.ts';
import { CatalogCache } from '../catalog-cache/cache.ts';

/**
 * The catalog cache's staleness bounds (docs/catalog.md): a write is visible at once through the
 * process that made it, within the NOTIFY latency through any other (checked here against a
 * 5-second bound, far inside the other app's 60-second fallback check, so only the notification
 * can meet it, and a loaded CI machine does not fail it), and
 * within CATALOG_CACHE_CHECK_MS when the notification is lost; memory stays bounded; the cache
 * never serves mode-scoped data.
 */

/** How long a notified change may take to show in another app: well under its 60 s fallback check. */
const notified = 5000;

const tier = { name: 'Standard', price: { amount: 10, currency: 'USD' } };

/** Polls until check() holds or boundMs passes; returns whether it held. */
async function eventually(check: () => Promise<boolean>, boundMs: number): Promise<boolean> {
  const until = Date.now() + boundMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const get = async (app: App, url: string, key: string) => {
  const res = await app.inject({ method: 'GET', url, headers: { 'x-service-api': key } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data;
};
const titles = (page: { items: { title: string }[] }) => page.items.map((p) => p.title);

describe('the catalog cache', () => {
  let t: TestApp;
  /** A second app: another pool on the same PostgreSQL schema, or another app on the same PGlite. */
  let other: App;
  let otherDb: Db | undefined;
  let brandId: string;
  let key: string;

  before(async () => {
    t = await startTestApp();
    otherDb = t.url ? openPostgres(t.url, { searchPath: t.searchPath }) : undefined;
    // Its safety net is a minute away: only the notification can tell it of the first app's writes.
    other = await buildApp(testDeps(otherDb ?? t.db, { config: { catalogCacheCheckMs: 60_000 } }));
    await other.ready();
    brandId = (await createBrand(t.db)).id;
    key = (await createKey(t.db, brandId, { scopes: ['products:read', 'products:write'] })).key;
  });
  after(async () => {
    await other?.close();
    await otherDb?.close();
    await t?.close();
  });

  it('shows a product write to the writing app on its very next request', async () => {
    await get(t.app, '/api/v1/products', key);
    const created = await t.request({ method: 'POST', url: '/api/v1/products', key, payload: { type: 'digital', title: 'First', tiers: [tier] } });
    assert.equal(created.statusCode, 200, created.body);
    const id = created.json().data.id as string;
    assert.deepEqual(titles(await get(t.app, '/api/v1/products', key)), ['First']);
    assert.equal((await get(t.app, `/api/v1/products/${id}`, key)).title, 'First');

    const patched = await t.request({ method: 'PATCH', url: `/api/v1/products/${id}`, key, payload: { title: 'Renamed' } });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.equal((await get(t.app, `/api/v1/products/${id}`, key)).title, 'Renamed');
    assert.deepEqual(titles(await get(t.app, '/api/v1/products', key)), ['Renamed']);
  });

  it('shows a write to another app long before its fallback check (the notification)', async () => {
    await get(other, '/api/v1/products', key);
    await get(other, '/api/v1/hubs', key);
    const created = await t.request({ method: 'POST', url: '/api/v1/products', key, payload: { type: 'digital', title: 'Second', tiers: [tier] } });
    assert.equal(created.statusCode, 200, created.body);
    assert.ok(await eventually(async () => titles(await get(other, '/api/v1/products', key)).includes('Second'), notified),
      'the other app still serves the list from before the write');

    const hub = await t.request({ method: 'POST', url: '/api/v1/hubs', key, payload: { name: 'Club', tiers: [tier] } });
    assert.equal(hub.statusCode, 200, hub.body);
    const hubId = hub.json().data.id as string;
    assert.ok(await eventually(async () => (await get(other, '/api/v1/hubs', key)).items.some((h: { id: string }) => h.id === hubId), notified));
    assert.equal((await get(other, `/api/v1/hubs/${hubId}`, key)).name, 'Club');
    const renamed = await t.request({ method: 'PATCH', url: `/api/v1/hubs/${hubId}`, key, payload: { name: 'Society' } });
    assert.equal(renamed.statusCode, 200, renamed.body);
    assert.equal((await get(t.app, `/api/v1/hubs/${hubId}`, key)).name, 'Society');
    assert.ok(await eventually(async () => (await get(other, `/api/v1/hubs/${hubId}`, key)).name === 'Society', notified));
  });

  it('shows a CLI catalog load (another connection, as the CLI process has) to the app', async () => {
    const brand = await createBrand(t.db);
    const brandKey = (await createKey(t.db, brand.id, { scopes: ['products:read'] })).key;
    assert.deepEqual((await get(t.app, '/api/v1/hubs', brandKey)).items, []);
    const cli = t.url ? openPostgres(t.url, { searchPath: t.searchPath, max: 1 }) : t.db;
    try {
      await runCommand(cli, undefined, { command: 'catalog load', brandId: brand.id, catalog: { hubs: [{ ref: 'h', name: 'Loaded', tiers: [{ ref: 't', ...tier }] }] } }, t.config);
    } finally {
      if (cli !== t.db) await cli.close();
    }
    assert.ok(await eventually(async () => (await get(t.app, '/api/v1/hubs', brandKey)).items.length === 1, notified));
    assert.ok(await eventually(async () => (await get(other, '/api/v1/hubs', brandKey)).items.length === 1, notified));
  });

  it('heals within CATALOG_CACHE_CHECK_MS when a change comes without a notification', async () => {
    const healing = await buildApp(testDeps(otherDb ?? t.db, { config: { catalogCacheCheckMs: 200 } }));
    await healing.ready();
    try {
      const brand = await createBrand(t.db);
      const brandKey = (await createKey(t.db, brand.id, { scopes: ['products:read', 'products:write'] })).key;
      const created = await t.request({ method: 'POST', url: '/api/v1/products', key: brandKey, payload: { type: 'digital', title: 'Before', tiers: [tier] } });
      const id = created.json().data.id as string;
      assert.equal((await get(healing, `/api/v1/products/${id}`, brandKey)).title, 'Before');
      // Behind the service's back: no catalogChanged, so no notification and no version bump yet.
      await t.db.query(`UPDATE products SET title = 'After' WHERE brand_id = $1 AND id = $2`, [brand.id, id]);
      assert.equal((await get(healing, `/api/v1/products/${id}`, brandKey)).title, 'Before', 'served from the cache');
      await t.db.query('UPDATE catalog_versions SET version = version + 1 WHERE brand_id = $1', [brand.id]);
      assert.ok(await eventually(async () => (await get(healing, `/api/v1/products/${id}`, brandKey)).title === 'After', 2000));
    } finally {
      await healing.close();
    }
  });

  it('gives a test and a live key the same catalog and never each other\'s members', async () => {
    const brand = await createBrand(t.db);
    const testKey = (await createKey(t.db, brand.id, { mode: 'test' })).key;
    const liveKey = (await createKey(t.db, brand.id, { mode: 'live' })).key;
    const hub = await t.request({ method: 'POST', url: '/api/v1/hubs', key: testKey, payload: { name: 'Shared', tiers: [tier] } });
    const hubId = hub.json().data.id as string;
    assert.deepEqual(await get(t.app, `/api/v1/hubs/${hubId}`, liveKey), await get(t.app, `/api/v1/hubs/${hubId}`, testKey));
    assert.deepEqual(await get(t.app, '/api/v1/hubs', liveKey), await get(t.app, '/api/v1/hubs', testKey));
    await createMembership(t.db, { brandId: brand.id, hubId, mode: 'test', email: 'test-buyer@example.com' });
    await createMembership(t.db, { brandId: brand.id, hubId, mode: 'live', email: 'live-buyer@example.com' });
    for (const [k, email] of [[testKey, 'test-buyer@example.com'], [liveKey, 'live-buyer@example.com']]) {
      for (let i = 0; i < 2; i++) {
        const members = await get(t.app, `/api/v1/hubs/${hubId}/members`, k);
        assert.deepEqual(members.items.map((m: { email: string }) => m.email), [email]);
      }
    }
  });

  it('evicts the least recently used brand when over CATALOG_CACHE_MB', async () => {
    const page = 'x'.repeat(1000);
    // Room for two brands' single answers and no more.
    const cache = new CatalogCache(t.db, { maxBytes: 5000, checkMs: 60_000 });
    try {
      const brands = await Promise.all([1, 2, 3].map(async () => (await createBrand(t.db)).id));
      let loads = 0;
      const load = async () => { loads++; return page; };
      await cache.read(brands[0], 'p', load);
      await cache.read(brands[1], 'p', load);
      await cache.read(brands[0], 'p', load);
      assert.equal(loads, 2, 'the first brand was served from the cache');
      await cache.read(brands[2], 'p', load);
      assert.deepEqual(cache.cachedBrands(), [brands[0], brands[2]]);
      assert.ok(cache.usedBytes <= 5000);
      await cache.read(brands[1], 'p', load);
      assert.equal(loads, 4, 'the evicted brand was read again');
    } finally {
      await cache.stop();
    }
  });

  it('does not store what a read started before a change read', async () => {
    const cache = new CatalogCache(t.db, { maxBytes: 1 << 20, checkMs: 60_000 });
    try {
      const brand = (await createBrand(t.db)).id;
      let release!: () => void;
      const slow = cache.read(brand, 'p', async () => { await new Promise<void>((r) => { release = r; }); return 'old'; });
      while (!release) await new Promise((r) => setTimeout(r, 5));
      cache.drop(brand);
      release();
      assert.equal(await slow, 'old');
      assert.equal(await cache.read(brand, 'p', async () => 'new'), 'new');
      assert.equal(await cache.read(brand, 'p', async () => 'newer'), 'new');
    } finally {
      await cache.stop();
    }
  });

  it('is off with CATALOG_CACHE_MB=0', async () => {
    const cache = new CatalogCache(t.db, { maxBytes: 0, checkMs: 1000 });
    const brand = (await createBrand(t.db)).id;
    assert.equal(await cache.read(brand, 'p', async () => 'a'), 'a');
    assert.equal(await cache.read(brand, 'p', async () => 'b'), 'b');
    assert.equal(cache.usedBytes, 0);
    await cache.stop();
  });
});
