import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadCatalog } from '../catalog/load.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrand, createKey, createMembership } from '../testing/factories.ts';
import { drainImports, hubWithFreeTier, productWithEveryField } from './test-support.ts';

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

async function setup() {
  const brand = await createBrand(t.db);
  const ids = await loadCatalog(t.db, brand.id, { ...hubWithFreeTier, ...productWithEveryField });
  const key = (await createKey(t.db, brand.id, { mode: 'test' })).key;
  return { brandId: brand.id, ids, key };
}

async function importInto(key: string, url: string, records: unknown[], plan?: string) {
  const res = await t.request({ method: 'POST', url, key, payload: { records, ...(plan ? { plan } : {}) } });
  assert.equal(res.statusCode, 202, res.body);
  return res.json().data.importID as string;
}

const joinedEvents = (brandId: string) => t.db.query<{ data: { membershipId: string; email: string; status: string; plan: string } }>(
  "SELECT data FROM events WHERE brand_id = $1 AND type = 'member.joined' ORDER BY created_at, id", [brandId]);

describe('an import of people who were members before', () => {
  it('reactivates removed and expired memberships (same id, active, member.joined), leaves active ones, refuses cancelled ones, and says so per record', async () => {
    const { brandId, ids, key } = await setup();
    const active = await createMembership(t.db, { brandId, hubId: ids.h, email: 'still@example.com', plan: ids.pro });
    const removed = await createMembership(t.db, { brandId, hubId: ids.h, email: 'removed@example.com', plan: ids.free });
    const expired = await createMembership(t.db, { brandId, hubId: ids.h, email: 'Expired@Example.com', plan: ids.free, status: 'expired' });
    const cancelled = await createMembership(t.db, { brandId, hubId: ids.h, email: 'cancelled@example.com', plan: ids.free, status: 'cancelled' });
    // Removed the way a brand removes someone: through the API, which announces member.removed.
    const gone = await t.request({ method: 'DELETE', url: `/api/v1/hubs/${ids.h}/members/${removed.id}`, key });
    assert.equal(gone.statusCode, 200, gone.body);

    const records = [
      { fullName: 'New Person', email: 'new@example.com' },
      { fullName: 'Still Here', email: 'still@example.com' },
      { fullName: 'Removed Once', email: 'REMOVED@example.com' },
      { fullName: 'Expired Once', email: 'expired@example.com' },
      { fullName: 'Cancelled Once', email: 'cancelled@example.com' },
    ];
    const importID = await importInto(key, `/api/v1/hubs/${ids.h}/members/import`, records);
    await drainImports(t.db);

    const res = await t.request({ method: 'GET', url: `/api/v1/imports/${importID}?records=true`, key });
    assert.equal(res.statusCode, 200, res.body);
    const status = res.json().data;
    assert.deepEqual(
      [status.status, status.count, status.created, status.reactivated, status.unchanged, status.refused, status.alreadyPresent, status.failed, status.pending],
      ['completed', 5, 1, 2, 1, 1, 2, 0, 0],
    );
    const created = status.records[0].membershipID;
    assert.deepEqual(status.records, [
      { index: 0, outcome: 'created', membershipID: created },
      { index: 1, outcome: 'unchanged', membershipID: active.id },
      { index: 2, outcome: 'reactivated', membershipID: removed.id },
      { index: 3, outcome: 'reactivated', membershipID: expired.id },
      { index: 4, outcome: 'refused', membershipID: cancelled.id },
    ]);
    const plain = (await t.request({ method: 'GET', url: `/api/v1/imports/${importID}`, key })).json().data;
    assert.equal(plain.records, undefined, 'records only when asked for');
    assert.equal(plain.reactivated, 2);

    const member = async (id: string) => (await t.request({ method: 'GET', url: `/api/v1/hubs/${ids.h}/members/${id}`, key })).json().data;
    for (const m of [removed, expired]) {
      const now = await member(m.id);
      assert.equal(now.status, 'active');
      assert.equal(now.plan, ids.free);
      assert.ok(Date.parse(now.joinedAt) > m.joined_at.getTime(), 'joinedAt is the day they came back');
    }
    assert.equal((await member(active.id)).plan, ids.pro, 'an active member keeps their tier');
    assert.equal((await member(cancelled.id)).status, 'cancelled');

    const joined = await joinedEvents(brandId);
    assert.deepEqual(joined.map((e) => e.data.membershipId).sort(), [created, removed.id, expired.id].sort(), 'member.joined for the new and the reactivated, nobody else');
    assert.ok(joined.every((e) => e.data.status === 'active'));

    // The same import again changes nothing and announces nothing.
    const again = await importInto(key, `/api/v1/hubs/${ids.h}/members/import`, records);
    await drainImports(t.db);
    const second = (await t.request({ method: 'GET', url: `/api/v1/imports/${again}?records=true`, key })).json().data;
    assert.deepEqual([second.created, second.reactivated, second.unchanged, second.refused], [0, 0, 4, 1]);
    assert.equal((await joinedEvents(brandId)).length, 3);
  });

  it('reactivates a product customer on the import\'s tier, and keeps outcomes across batches in request order', async () => {
    const { brandId, ids, key } = await setup();
    const expired = await createMembership(t.db, { brandId, productId: ids.p, email: 'p3@example.com', plan: ids.vip, status: 'expired' });
    const records = Array.from({ length: 7 }, (_, i) => ({ fullName: `P ${i}`, email: `p${i}@example.com` }));
    const importID = await importInto(key, `/api/v1/products/${ids.p}/customers/import`, records, ids.seat);
    assert.equal(await drainImports(t.db, { batchSize: 3 }), 3);
    const status = (await t.request({ method: 'GET', url: `/api/v1/imports/${importID}?records=true`, key })).json().data;
    assert.deepEqual([status.created, status.reactivated], [6, 1]);
    assert.deepEqual(status.records.map((r: { index: number }) => r.index), [0, 1, 2, 3, 4, 5, 6]);
    assert.deepEqual(status.records[3], { index: 3, outcome: 'reactivated', membershipID: expired.id });
    const customers = (await t.request({ method: 'GET', url: `/api/v1/products/${ids.p}/customers?email=p3@example.com`, key })).json().data.items;
    assert.deepEqual(customers.map((c: { membershipId: string; status: string; plan: string }) => [c.membershipId, c.status, c.plan]), [[expired.id, 'active', ids.seat]]);
  });

  it('answers 400 naming the field for a records flag that is not a boolean', async () => {
    const { ids, key } = await setup();
    const importID = await importInto(key, `/api/v1/hubs/${ids.h}/members/import`, [{ fullName: 'A', email: 'a@example.com' }]);
    const res = await t.request({ method: 'GET', url: `/api/v1/imports/${importID}?records=maybe`, key });
    assert.equal(res.statusCode, 400);
    assert.match(res.json().message, /records/);
  });
});
