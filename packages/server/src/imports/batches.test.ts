import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadCatalog } from '../catalog/load.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { testDbKind } from '../testing/db.ts';
import { createBrand, createKey, createMembership } from '../testing/factories.ts';
import { registerEndpoint } from '../testing/receiver.ts';
import { hubWithFreeTier, people, principal } from './test-support.ts';
import { queueHubImport } from './service.ts';
import { processNextBatch } from './jobs.ts';

/**
 * Batches as the set-based worker runs them (issue 14): records stored in chunks and taken a
 * batch at a time whatever the chunk size, two batches of one import at once, and every person's
 * membership, member.joined and webhook delivery written once.
 */

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

async function setup() {
  const brand = await createBrand(t.db);
  const ids = await loadCatalog(t.db, brand.id, hubWithFreeTier);
  const key = (await createKey(t.db, brand.id, { mode: 'test' })).key;
  return { brandId: brand.id, hubId: ids.h, key };
}

/** Queues straight through the service, with the API's IMPORT_BATCH_SIZE as `apiBatchSize` (it sizes the stored chunks). */
const queue = (brandId: string, hubId: string, records: unknown[], apiBatchSize: number) =>
  t.db.transaction((tx) => queueHubImport(tx, principal(brandId), hubId, { records }, apiBatchSize));

async function batchSizes(batchSize: number) {
  const sizes: number[] = [];
  for (;;) {
    const batch = await processNextBatch(t.db, { batchSize });
    if (!batch) return sizes;
    sizes.push(batch.taken);
  }
}

const count = async (sql: string, params: unknown[]) => (await t.db.query<{ n: number }>(sql, params))[0].n;

describe('import batches', () => {
  it('takes exactly IMPORT_BATCH_SIZE records per batch, whatever size the API stored them in', async () => {
    const { brandId, hubId } = await setup();
    await queue(brandId, hubId, people(1234, 'a'), 1000);
    assert.deepEqual(await batchSizes(250), [250, 250, 250, 250, 234], 'chunks of 100 split to batches of 250');
    await queue(brandId, hubId, people(1234, 'b'), 25);
    assert.deepEqual(await batchSizes(1000), [1000, 234], 'chunks of 25 gathered into batches of 1,000');
    await queue(brandId, hubId, people(7, 'c'), 3);
    assert.deepEqual(await batchSizes(2), [2, 2, 2, 1]);
    assert.equal(await count('SELECT count(*)::int AS n FROM memberships WHERE brand_id = $1', [brandId]), 2475);
    assert.equal(await count('SELECT count(*)::int AS n FROM import_chunks WHERE brand_id = $1', [brandId]), 0);
  });

  it('runs two batches of one import at once, each person created and announced once', async () => {
    const { brandId, hubId } = await setup();
    const { importID } = await queue(brandId, hubId, people(2000), 1000);
    const rounds: number[][] = [];
    for (;;) {
      const round = await Promise.all([processNextBatch(t.db, { batchSize: 250 }), processNextBatch(t.db, { batchSize: 250 })]);
      if (!round.some(Boolean)) break;
      rounds.push(round.map((b) => b?.taken ?? 0));
    }
    if (testDbKind === 'postgres') assert.deepEqual(rounds[0], [250, 250], 'the second batch did not wait for the first');
    assert.equal(rounds.flat().reduce((a, b) => a + b, 0), 2000);
    const [row] = await t.db.query<{ status: string; created_count: number; pending_count: number }>(
      'SELECT status, created_count, pending_count FROM imports WHERE brand_id = $1 AND id = $2', [brandId, importID]);
    assert.deepEqual(row, { status: 'completed', created_count: 2000, pending_count: 0 });
    const [events] = await t.db.query<{ n: number; people: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT data->>'email')::int AS people FROM events WHERE brand_id = $1 AND type = 'member.joined'`, [brandId]);
    assert.deepEqual(events, { n: 2000, people: 2000 });
  });

  it('reports a mix of new, repeated and already-present people, with one delivery per member.joined in event order', async () => {
    const { brandId, hubId, key } = await setup();
    const endpoint = await registerEndpoint(t, key, 'http://127.0.0.1:9/hook', ['member.joined']);
    await registerEndpoint(t, key, 'http://127.0.0.1:9/other', ['transaction.succeeded']);
    for (const i of [3, 40, 41, 199]) await createMembership(t.db, { brandId, hubId, email: `person${i}@example.com` });
    const records = [...people(200), ...people(25).map((p) => ({ ...p, fullName: 'Again', email: p.email.toUpperCase() }))];
    const url = `/api/v1/hubs/${hubId}/members/import`;

    const refused = await t.request({ method: 'POST', url, key, payload: { records: [...records, { fullName: '', email: 'x@example.com' }, { fullName: 'Y', email: 'nope' }] } });
    assert.equal(refused.statusCode, 400);
    assert.deepEqual(refused.json().data.details, [
      { index: 225, field: 'fullName', message: 'must not be empty' },
      { index: 226, field: 'email', message: 'is not a valid email address' },
    ]);
    assert.equal(await count('SELECT count(*)::int AS n FROM imports WHERE brand_id = $1', [brandId]), 0, 'nothing queued');

    const res = await t.request({ method: 'POST', url, key, payload: { records } });
    assert.equal(res.statusCode, 202, res.body);
    assert.deepEqual(res.json().data.count, 200);
    assert.deepEqual(res.json().data.duplicates, 25);
    await Promise.all([batchSizes(64), batchSizes(64)]);
    const done = (await t.request({ method: 'GET', url: `/api/v1/imports/${res.json().data.importID}`, key })).json().data;
    assert.deepEqual([done.status, done.count, done.duplicates, done.created, done.alreadyPresent, done.failed, done.pending], ['completed', 200, 25, 196, 4, 0, 0]);
    assert.equal(await count(`SELECT count(*)::int AS n FROM memberships WHERE brand_id = $1 AND name = 'Again'`, [brandId]), 0, 'the first occurrence is imported');

    const events = await t.db.query<{ id: string; seq: number; resource_id: string }>(
      `SELECT id, seq, resource_id FROM events WHERE brand_id = $1 AND type = 'member.joined' ORDER BY seq`, [brandId]);
    assert.equal(events.length, 196);
    const deliveries = await t.db.query<{ id: string; event_id: string; endpoint_id: string; order_key: string; order_seq: number; resource_type: string; resource_id: string; behind_earlier: boolean }>(
      `SELECT d.id, d.event_id, d.endpoint_id, q.order_key, q.order_seq, d.resource_type, d.resource_id, q.behind_earlier
       FROM webhook_deliveries d JOIN webhook_queue q ON q.brand_id = d.brand_id AND q.delivery_id = d.id
       WHERE d.brand_id = $1 ORDER BY q.order_seq`, [brandId]);
    assert.equal(deliveries.length, 196, 'one per member.joined, none for the endpoint that does not subscribe');
    assert.equal(new Set(deliveries.map((d) => d.id)).size, 196);
    deliveries.forEach((d, i) => {
      const e = events[i];
      assert.deepEqual(
        [d.event_id, d.endpoint_id, d.order_seq, d.order_key, d.resource_type, d.resource_id, d.behind_earlier],
        [e.id, endpoint.id, e.seq, `membership:${e.resource_id}`, 'membership', e.resource_id, false],
      );
    });
  });
});
