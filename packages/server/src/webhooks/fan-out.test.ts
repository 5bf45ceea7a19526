import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { recordEvent, recordEvents, type NewEvent } from '../events/service.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrand, createKey } from '../testing/factories.ts';
import { registerEndpoint } from '../testing/receiver.ts';

/**
 * The set-based fan-out of events recorded together (recordEvents, as import batches do): one
 * delivery per event and subscribed endpoint, carrying what fanOutOne gives a single event,
 * including the order of one object's deliveries (docs/webhooks.md, Order and versions).
 */

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

interface DeliveryRow {
  id: string;
  event_id: string;
  endpoint_id: string;
  event_type: string;
  resource_type: string | null;
  resource_id: string | null;
  order_key: string | null;
  order_seq: number;
  behind_earlier: boolean;
  status: string;
}

const deliveriesOf = (brandId: string) => t.db.query<DeliveryRow>(
  `SELECT d.id, d.event_id, d.endpoint_id, d.event_type, d.resource_type, d.resource_id, q.order_key, q.order_seq, q.behind_earlier, d.status
   FROM webhook_deliveries d JOIN webhook_queue q ON q.brand_id = d.brand_id AND q.delivery_id = d.id
   WHERE d.brand_id = $1 ORDER BY q.order_seq, d.endpoint_id`, [brandId]);

const member = (id: string) => ({ membershipId: id, name: 'Ada', email: 'ada@example.com', status: 'active', joinedAt: new Date().toISOString(), version: 1, updatedAt: new Date().toISOString() });

async function owner() {
  const brand = await createBrand(t.db);
  const key = (await createKey(t.db, brand.id, { mode: 'test' })).key;
  return { brandId: brand.id, key };
}

describe('fan-out of events recorded together', () => {
  it('queues one delivery per event and active endpoint of the brand and mode subscribed to its type', async () => {
    const { brandId, key } = await owner();
    const joined = await registerEndpoint(t, key, 'http://127.0.0.1:9/a', ['member.joined']);
    const both = await registerEndpoint(t, key, 'http://127.0.0.1:9/b', ['member.joined', 'member.removed']);
    await registerEndpoint(t, key, 'http://127.0.0.1:9/c', ['transaction.failed']);
    const disabled = await registerEndpoint(t, key, 'http://127.0.0.1:9/d', ['member.joined']);
    await t.request({ method: 'PATCH', url: `/api/v1/webhooks/${disabled.id}`, key, payload: { status: 'disabled' } });
    const live = await createKey(t.db, brandId, { mode: 'live' });
    await registerEndpoint(t, live.key, 'https://hooks.example.com/x', ['member.joined']).catch(() => undefined);

    const events: NewEvent<'member.joined'>[] = ['mem_1', 'mem_2', 'mem_3'].map((id) => ({ brandId, mode: 'test', type: 'member.joined', data: member(id) as never }));
    const recorded = await t.db.transaction((tx) => recordEvents(tx, events));
    assert.deepEqual(recorded.map((e) => e.data.membershipId), ['mem_1', 'mem_2', 'mem_3']);
    assert.ok(recorded[0].seq < recorded[1].seq && recorded[1].seq < recorded[2].seq, 'numbered in the order given');

    const rows = await deliveriesOf(brandId);
    assert.equal(rows.length, 6);
    assert.equal(new Set(rows.map((d) => d.id)).size, 6);
    assert.ok(rows.every((d) => /^whd_[A-Za-z0-9_-]{20}$/.test(d.id)));
    const expected = recorded.flatMap((e) => [joined.id, both.id].sort().map((endpointId) => ({
      event_id: e.id, endpoint_id: endpointId, event_type: 'member.joined', resource_type: 'membership', resource_id: e.data.membershipId,
      order_key: `membership:${e.data.membershipId}`, order_seq: e.seq, behind_earlier: false, status: 'pending',
    })));
    assert.deepEqual(rows.map(({ id: _, ...d }) => d), expected);
  });

  it('puts the later of two events about one object behind the earlier, for the endpoints that get both', async () => {
    const { brandId, key } = await owner();
    const joinedOnly = await registerEndpoint(t, key, 'http://127.0.0.1:9/a', ['member.joined']);
    const both = await registerEndpoint(t, key, 'http://127.0.0.1:9/b', ['member.joined', 'member.removed']);
    const [first, second, other] = await t.db.transaction((tx) => recordEvents(tx, [
      { brandId, mode: 'test', type: 'member.joined', data: member('mem_1') as never },
      { brandId, mode: 'test', type: 'member.removed', data: { ...member('mem_1'), status: 'removed', version: 2 } as never },
      { brandId, mode: 'test', type: 'member.joined', data: member('mem_2') as never },
    ]));
    const rows = await deliveriesOf(brandId);
    const behind = (eventId: string, endpointId: string) => rows.find((d) => d.event_id === eventId && d.endpoint_id === endpointId)?.behind_earlier;
    assert.equal(rows.length, 5);
    assert.equal(behind(first.id, joinedOnly.id), false);
    assert.equal(behind(first.id, both.id), false);
    assert.equal(behind(second.id, both.id), true, 'mem_1 removed waits for mem_1 joined');
    assert.equal(behind(second.id, joinedOnly.id), undefined, 'not subscribed');
    assert.equal(behind(other.id, both.id), false, 'another object is not held up');
  });

  it('puts a delivery behind an undelivered one of its object from an earlier transaction, as a single event is', async () => {
    const { brandId, key } = await owner();
    await registerEndpoint(t, key, 'http://127.0.0.1:9/a', ['member.joined', 'member.removed']);
    await t.db.transaction((tx) => recordEvent(tx, { brandId, mode: 'test', type: 'member.joined', data: member('mem_1') as never }));
    const [removed, other] = await t.db.transaction((tx) => recordEvents(tx, [
      { brandId, mode: 'test', type: 'member.removed', data: { ...member('mem_1'), status: 'removed', version: 2 } as never },
      { brandId, mode: 'test', type: 'member.joined', data: member('mem_2') as never },
    ]));
    const rows = await deliveriesOf(brandId);
    assert.equal(rows.find((d) => d.event_id === removed.id)?.behind_earlier, true);
    assert.equal(rows.find((d) => d.event_id === other.id)?.behind_earlier, false);
  });

  it('queues nothing when no endpoint subscribes, and nothing when the transaction rolls back', async () => {
    const { brandId, key } = await owner();
    await registerEndpoint(t, key, 'http://127.0.0.1:9/a', ['transaction.succeeded']);
    await t.db.transaction((tx) => recordEvents(tx, [{ brandId, mode: 'test', type: 'member.joined', data: member('mem_1') as never }, { brandId, mode: 'test', type: 'member.joined', data: member('mem_2') as never }]));
    assert.equal((await deliveriesOf(brandId)).length, 0);
    await registerEndpoint(t, key, 'http://127.0.0.1:9/b', ['member.joined']);
    await assert.rejects(t.db.transaction(async (tx) => {
      await recordEvents(tx, [{ brandId, mode: 'test', type: 'member.joined', data: member('mem_3') as never }, { brandId, mode: 'test', type: 'member.joined', data: member('mem_4') as never }]);
      throw new Error('the change failed');
    }));
    assert.equal((await deliveriesOf(brandId)).length, 0);
  });
});
