import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadCatalog } from '../catalog/load.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { createBrand, createBrandWithCatalog, createKey, createMembership } from '../testing/factories.ts';

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

const club = () => ({
  name: 'Ink Club',
  description: 'Drawing together.',
  tiers: [
    { name: 'Free member', price: { amount: 0, currency: 'USD' }, perks: ['Feed'] },
    { name: 'Pro member', price: { amount: 8, currency: 'USD' }, recurrence: { periodic: 'monthly', interval: 1, count: 0 } },
  ],
});

const hubFile = (name = 'Club') => ({ hubs: [{ ref: 'h', name, tiers: [{ ref: 'free', name: 'Free', price: { amount: 0, currency: 'USD' } }] }] });

async function owner() {
  const brand = await createBrand(t.db);
  return { brandId: brand.id, key: (await createKey(t.db, brand.id)).key };
}

describe('GET /hubs', () => {
  runCommonRouteTests('GET /hubs', {
    method: 'GET',
    scope: 'products:read',
    foreign: 'hidden',
    modeScoped: false,
    async setup({ t, brandId }) {
      const ids = await loadCatalog(t.db, brandId, hubFile());
      return { url: '/api/v1/hubs', marker: ids.h };
    },
  }, () => t);

  it('lists hubs newest first, a page at a time', async () => {
    const { brandId, key } = await owner();
    const made: string[] = [];
    for (const name of ['A', 'B', 'C']) made.push((await loadCatalog(t.db, brandId, hubFile(name))).h);
    const first = (await t.request({ method: 'GET', url: '/api/v1/hubs?limit=2', key })).json().data;
    assert.deepEqual(first.items.map((h: any) => h.name), ['C', 'B']);
    assert.equal(first.hasMore, true);
    assert.equal(first.items[0].tiers, undefined, 'tiers are detail-only');
    const second = (await t.request({ method: 'GET', url: `/api/v1/hubs?limit=2&cursor=${first.nextCursor}`, key })).json().data;
    assert.deepEqual(second.items.map((h: any) => h.id), [made[0]]);
    assert.equal(second.nextCursor, '');
  });
});

describe('GET /hubs/{id}', () => {
  runCommonRouteTests('GET /hubs/{id}', {
    method: 'GET',
    scope: 'products:read',
    foreign: 404,
    modeScoped: false,
    async setup({ t, brandId }) {
      const ids = await loadCatalog(t.db, brandId, hubFile());
      return { url: `/api/v1/hubs/${ids.h}`, marker: ids.h };
    },
  }, () => t);

  it('returns the hub with its tiers', async () => {
    const { testKey, ids } = await createBrandWithCatalog(t.db);
    const hub = (await t.request({ method: 'GET', url: `/api/v1/hubs/${ids['studio-club']}`, key: testKey })).json().data;
    assert.equal(hub.name, 'Studio Club');
    assert.deepEqual(hub.tiers.map((x: any) => x.id), [ids['club-free'], ids['club-pro']]);
    assert.match(hub.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});

describe('POST /hubs', () => {
  runCommonRouteTests('POST /hubs', {
    method: 'POST',
    scope: 'products:write',
    foreign: 'none',
    modeScoped: false,
    async setup() {
      return { url: '/api/v1/hubs', body: club() };
    },
  }, () => t);

  it('creates a hub whose answer is exactly what GET /hubs/{id} returns', async () => {
    const { key } = await owner();
    const res = await t.request({ method: 'POST', url: '/api/v1/hubs', key, payload: club() });
    assert.equal(res.statusCode, 200, res.body);
    const hub = res.json().data;
    assert.match(hub.id, /^hub_/);
    assert.deepEqual((await t.request({ method: 'GET', url: `/api/v1/hubs/${hub.id}`, key })).json().data, hub);
    assert.deepEqual(hub.tiers.map((x: any) => [x.name, x.type, x.isDefault]), [['Free member', 'free', true], ['Pro member', 'recurring', false]]);
  });

  it('refuses items in a hub tier and bad prices, naming each field', async () => {
    const { key } = await owner();
    const body: any = club();
    body.tiers[0].itemIDs = ['item_x'];
    body.tiers[1].price = { amount: -1, currency: 'usd' };
    const res = await t.request({ method: 'POST', url: '/api/v1/hubs', key, payload: body });
    assert.equal(res.statusCode, 400);
    const fields = res.json().data.details.map((d: any) => d.field);
    assert.ok(fields.includes('tiers[1].price.amount') && fields.includes('tiers[1].price.currency'), JSON.stringify(fields));
  });
});

describe('PATCH /hubs/{id}', () => {
  runCommonRouteTests('PATCH /hubs/{id}', {
    method: 'PATCH',
    scope: 'products:write',
    foreign: 404,
    modeScoped: false,
    async setup({ t, brandId }) {
      const ids = await loadCatalog(t.db, brandId, hubFile());
      return { url: `/api/v1/hubs/${ids.h}`, body: { name: 'Renamed' }, marker: ids.h };
    },
  }, () => t);

  it('renames, adds a tier, deletes an unjoined one and archives one people joined on', async () => {
    const { brandId, key } = await owner();
    const hub = (await t.request({ method: 'POST', url: '/api/v1/hubs', key, payload: {
      ...club(), tiers: [...club().tiers, { name: 'Patron', price: { amount: 50, currency: 'USD' } }],
    } })).json().data;
    const [free, pro, patron] = hub.tiers;
    await createMembership(t.db, { brandId, hubId: hub.id, plan: pro.id });
    const res = await t.request({ method: 'PATCH', url: `/api/v1/hubs/${hub.id}`, key, payload: {
      name: 'Ink Society', description: null,
      tiers: [{ id: free.id, name: 'Free', price: free.price }, { name: 'Pro yearly', price: { amount: 80, currency: 'USD' }, recurrence: { periodic: 'yearly' } }],
    } });
    assert.equal(res.statusCode, 200, res.body);
    const updated = res.json().data;
    assert.deepEqual((await t.request({ method: 'GET', url: `/api/v1/hubs/${hub.id}`, key })).json().data, updated);
    assert.equal(updated.name, 'Ink Society');
    assert.equal(updated.description, '');
    assert.deepEqual(updated.tiers.map((x: any) => [x.name, x.archived]), [['Free', false], ['Pro yearly', false], ['Pro member', true]]);
    assert.ok(!updated.tiers.some((x: any) => x.id === patron.id));
    const members = (await t.request({ method: 'GET', url: `/api/v1/hubs/${hub.id}/members`, key })).json().data.items;
    assert.equal(members[0].plan, pro.id, 'the member still points at a tier that exists');
  });

  it('leaves another brand\'s hub alone', async () => {
    const { key } = await owner();
    const other = await createBrandWithCatalog(t.db);
    const res = await t.request({ method: 'PATCH', url: `/api/v1/hubs/${other.ids['studio-club']}`, key, payload: { name: 'Mine' } });
    assert.equal(res.statusCode, 404);
    const hub = (await t.request({ method: 'GET', url: `/api/v1/hubs/${other.ids['studio-club']}`, key: other.testKey })).json().data;
    assert.equal(hub.name, 'Studio Club');
  });
});
