import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { recordEvent } from '../events/service.ts';
import type { EventType } from '../events/types.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrand, createKey } from '../testing/factories.ts';
import { moveEventToDay } from '../testing/log-days.ts';
import { registerEndpoint } from '../testing/receiver.ts';
import { sampleEventData } from './samples.ts';

/**
 * The delivery log's and the event list's filters (issue 12, developer settings): each returns
 * exactly the matching rows, pages through them with its own cursor, and a bad value is a 400
 * that names the parameter.
 */

let t: TestApp;
before(async () => { t = await startTestApp(); }); // no worker: deliveries stay as the test sets them
after(async () => { await t?.close(); });

type Row = { id: string };
const ids = (rows: Row[]) => rows.map((r) => r.id).sort();

async function get(key: string, url: string) {
  const res = await t.request({ method: 'GET', url, key });
  return res;
}

/** Every item of a filtered list, walked one per page through nextCursor. */
async function walk(key: string, path: string, query: Record<string, string>) {
  const items: Row[] = [];
  let cursor = '';
  for (let guard = 0; guard < 100; guard++) {
    const qs = new URLSearchParams({ ...query, limit: '1', ...(cursor ? { cursor } : {}) });
    const res = await get(key, `${path}?${qs}`);
    assert.equal(res.statusCode, 200, res.body);
    const page = res.json().data;
    items.push(...page.items);
    if (!page.hasMore) return items;
    cursor = page.nextCursor;
  }
  throw new Error('more than 100 pages');
}

describe('delivery log and event filters', () => {
  let key: string;
  let brandId: string;
  let a: { id: string };
  let b: { id: string };
  const events: { id: string; type: EventType; resource: string }[] = [];
  let deliveries: { id: string; endpoint_id: string; event_id: string; event_type: string; resource_id: string; status: string }[];

  before(async () => {
    const brand = await createBrand(t.db);
    brandId = brand.id;
    key = (await createKey(t.db, brandId)).key;
    a = await registerEndpoint(t, key, 'http://127.0.0.1:9/a', ['transaction.succeeded', 'member.joined']);
    b = await registerEndpoint(t, key, 'http://127.0.0.1:9/b', ['member.joined']);
    // Three events about two transactions and one membership; another brand's and the live
    // mode's events about the same resource ids must never show.
    const plan: [EventType, string][] = [['transaction.succeeded', 'tx_one'], ['transaction.succeeded', 'tx_two'], ['member.joined', 'mem_one'], ['transaction.succeeded', 'tx_one']];
    for (const [type, resource] of plan) {
      const data = sampleEventData(type) as Record<string, unknown>;
      if (type === 'member.joined') data.membershipId = resource; else data.txref = resource;
      const e = await t.db.transaction((tx) => recordEvent(tx, { brandId, mode: 'test', type, data: data as never }));
      events.push({ id: e.id, type, resource });
    }
    const other = await createBrand(t.db);
    const otherKey = (await createKey(t.db, other.id)).key;
    await registerEndpoint(t, otherKey, 'http://127.0.0.1:9/o', ['transaction.succeeded']);
    const foreign = sampleEventData('transaction.succeeded') as Record<string, unknown>;
    foreign.txref = 'tx_one';
    await t.db.transaction((tx) => recordEvent(tx, { brandId: other.id, mode: 'test', type: 'transaction.succeeded', data: foreign as never }));
    await t.db.transaction((tx) => recordEvent(tx, { brandId, mode: 'live', type: 'transaction.succeeded', data: foreign as never }));
    deliveries = await t.db.query('SELECT id, endpoint_id, event_id, event_type, resource_id, status FROM webhook_deliveries WHERE brand_id = $1 AND mode = $2', [brandId, 'test']);
    // 3 transaction events to A, 1 member event to A and B: 5 deliveries. Two of them failed.
    assert.equal(deliveries.length, 5);
    const failed = deliveries.filter((d) => d.event_type === 'member.joined' || d.event_id === events[1].id).map((d) => d.id);
    await t.db.query(`UPDATE webhook_deliveries SET status = 'failed', failure_reason = 'attempts_exhausted' WHERE brand_id = $1 AND id = ANY ($2::text[])`, [brandId, failed]);
    await t.db.query('DELETE FROM webhook_queue WHERE brand_id = $1 AND delivery_id = ANY ($2::text[])', [brandId, failed]);
    for (const d of deliveries) if (failed.includes(d.id)) d.status = 'failed';
  });

  const expect = (pick: (d: (typeof deliveries)[number]) => boolean) => ids(deliveries.filter(pick));

  it('filters deliveries by status, eventType, endpointID, resourceID and eventID, alone and together', async () => {
    const cases: [Record<string, string>, (d: (typeof deliveries)[number]) => boolean][] = [
      [{}, () => true],
      [{ status: 'failed' }, (d) => d.status === 'failed'],
      [{ status: 'pending' }, (d) => d.status === 'pending'],
      [{ status: 'succeeded' }, () => false],
      [{ eventType: 'member.joined' }, (d) => d.event_type === 'member.joined'],
      [{ endpointID: b.id }, (d) => d.endpoint_id === b.id],
      [{ resourceID: 'tx_one' }, (d) => d.resource_id === 'tx_one'],
      [{ resourceID: 'mem_one' }, (d) => d.resource_id === 'mem_one'],
      [{ eventID: events[2].id }, (d) => d.event_id === events[2].id],
      [{ endpointID: a.id, eventType: 'transaction.succeeded', status: 'pending' }, (d) => d.endpoint_id === a.id && d.event_type === 'transaction.succeeded' && d.status === 'pending'],
      [{ resourceID: 'tx_two', status: 'pending' }, () => false],
      [{ endpointID: 'we_nothing' }, () => false],
    ];
    for (const [query, pick] of cases) {
      const got = await walk(key, '/api/v1/webhooks/deliveries', query);
      assert.deepEqual(ids(got), expect(pick), JSON.stringify(query));
      assert.equal(new Set(got.map((r) => r.id)).size, got.length, 'no row twice across pages');
    }
  });

  it('filters events by type and resourceID, and reaches an event\'s deliveries through eventID', async () => {
    const all = await walk(key, '/api/v1/events', {});
    assert.deepEqual(ids(all), ids(events));
    assert.deepEqual(ids(await walk(key, '/api/v1/events', { type: 'member.joined' })), [events[2].id]);
    assert.deepEqual(ids(await walk(key, '/api/v1/events', { resourceID: 'tx_one' })), ids([events[0], events[3]]));
    assert.deepEqual(ids(await walk(key, '/api/v1/events', { resourceID: 'tx_one', type: 'member.joined' })), []);
    const one = await get(key, `/api/v1/events/${events[2].id}`);
    assert.equal(one.statusCode, 200);
    assert.equal(one.json().data.data.membershipId, 'mem_one');
    const its = await walk(key, '/api/v1/webhooks/deliveries', { eventID: events[2].id });
    assert.deepEqual(its.map((d) => (d as unknown as { endpointID: string }).endpointID).sort(), [a.id, b.id].sort());
  });

  it('shows each delivery\'s attempts: time, response code, duration, body excerpt and error', async () => {
    const [d] = deliveries;
    await t.db.query(
      // An attempt lives in its delivery's day (migration 037): delivery_created_at is the delivery's.
      `INSERT INTO webhook_attempts (brand_id, delivery_id, number, attempted_at, duration_ms, response_code, error, response_body, delivery_created_at)
       SELECT $1, $2, n, now(), ms, code, error, body, d.created_at
         FROM (VALUES (1, 120, 500, NULL, 'boom'), (2, 1500, NULL, 'timeout: no answer within 1500 ms', NULL)) AS v (n, ms, code, error, body),
         LATERAL (SELECT created_at FROM webhook_deliveries WHERE brand_id = $1 AND id = $2) d`,
      [brandId, d.id],
    );
    const res = await get(key, `/api/v1/webhooks/deliveries/${d.id}`);
    assert.equal(res.statusCode, 200, res.body);
    const log = res.json().data.attemptLog;
    assert.equal(log.length, 2);
    assert.deepEqual({ ...log[0], attemptedAt: undefined }, { number: 1, attemptedAt: undefined, durationMs: 120, responseCode: 500, responseBody: 'boom' });
    assert.equal(log[1].error, 'timeout: no answer within 1500 ms');
    assert.ok(Date.parse(log[0].attemptedAt));
  });

  it('refuses a cursor from one filter on another', async () => {
    const first = (await get(key, '/api/v1/webhooks/deliveries?limit=1&status=pending')).json().data;
    assert.ok(first.hasMore);
    const res = await get(key, `/api/v1/webhooks/deliveries?limit=1&status=failed&cursor=${first.nextCursor}`);
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().data.code, 'validation_failed');
    const ev = (await get(key, '/api/v1/events?limit=1&resourceID=tx_one')).json().data;
    assert.equal((await get(key, `/api/v1/events?limit=1&resourceID=tx_two&cursor=${ev.nextCursor}`)).statusCode, 400);
  });

  it('answers bad filter values with a 400 naming the parameter', async () => {
    const bad: [string, string][] = [
      ['/api/v1/webhooks/deliveries?status=done', 'status'],
      ['/api/v1/webhooks/deliveries?eventType=order.paid', 'eventType'],
      [`/api/v1/webhooks/deliveries?resourceID=${encodeURIComponent('tx one')}`, 'resourceID'],
      [`/api/v1/webhooks/deliveries?endpointID=${'x'.repeat(201)}`, 'endpointID'],
      [`/api/v1/webhooks/deliveries?eventID=${encodeURIComponent('evt\u0000')}`, 'eventID'],
      ['/api/v1/webhooks/deliveries?limit=0', 'limit'],
      ['/api/v1/events?type=order.paid', 'type'],
      [`/api/v1/events?resourceID=${'y'.repeat(201)}`, 'resourceID'],
    ];
    for (const [url, field] of bad) {
      const res = await get(key, url);
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
      assert.equal(res.json().data.code, 'validation_failed');
      assert.match(res.json().message, new RegExp(field), url);
    }
  });
});

describe('the status filter without a status index (migration 039)', () => {
  it('finds a delivery pending for days below newer finished ones, and not a finished one being resent', async () => {
    const brand = await createBrand(t.db);
    const key = (await createKey(t.db, brand.id)).key;
    await registerEndpoint(t, key, 'http://127.0.0.1:9/p', ['transaction.succeeded']);
    const record = () => t.db.transaction((tx) => recordEvent(tx, { brandId: brand.id, mode: 'test', type: 'transaction.succeeded', data: sampleEventData('transaction.succeeded') as never }));
    const deliveryOf = async (eventId: string) =>
      (await t.db.query<{ id: string }>('SELECT id FROM webhook_deliveries WHERE brand_id = $1 AND event_id = $2', [brand.id, eventId]))[0].id;
    // A delivery still being retried, recorded three days ago.
    const old = await record();
    const moved = await moveEventToDay(t.db, brand.id, old.id, new Date(Date.now() - 3 * 86_400_000));
    const stillPending = [...moved.deliveryIds.values()][0];
    await t.db.query(`UPDATE webhook_queue SET attempts = 2, next_attempt_at = now() + interval '1 hour' WHERE brand_id = $1 AND delivery_id = $2`, [brand.id, stillPending]);
    // Newer ones, finished: 30 succeeded, and one of them queued again for a resend in flight.
    const finished: string[] = [];
    for (let i = 0; i < 30; i++) finished.push(await deliveryOf((await record()).id));
    await t.db.query(`UPDATE webhook_deliveries SET status = 'succeeded', attempts = 1, delivered_at = now() WHERE brand_id = $1 AND id = ANY ($2::text[])`, [brand.id, finished]);
    await t.db.query(`UPDATE webhook_queue SET locked_until = now() + interval '1 minute', locked_by = 'resend' WHERE brand_id = $1 AND delivery_id = $2`, [brand.id, finished[0]]);
    await t.db.query('DELETE FROM webhook_queue WHERE brand_id = $1 AND delivery_id = ANY ($2::text[])', [brand.id, finished.slice(1)]);
    const pending = await walk(key, '/api/v1/webhooks/deliveries', { status: 'pending' });
    assert.deepEqual(pending.map((d) => d.id), [stillPending]);
    const [shown] = pending as unknown as { attempts: number; nextAttemptAt: string; status: string }[];
    assert.equal(shown.status, 'pending');
    assert.equal(shown.attempts, 2);
    assert.ok(Date.parse(shown.nextAttemptAt) > Date.now(), 'its next attempt, from the queue');
    assert.deepEqual(ids(await walk(key, '/api/v1/webhooks/deliveries', { status: 'succeeded' })), [...finished].sort());
    assert.deepEqual(await walk(key, '/api/v1/webhooks/deliveries', { status: 'failed' }), []);
  });
});
