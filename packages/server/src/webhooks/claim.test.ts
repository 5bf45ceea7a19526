import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrand, createKey } from '../testing/factories.ts';
import { registerEndpoint } from '../testing/receiver.ts';
import type { Queryable, TransactionOptions } from '../db/client.ts';
import { recordEvent, recordEvents } from '../events/service.ts';
import * as claims from './claim.ts';
import { queueStatements } from './queue-plans.ts';

/**
 * The worker's batched SQL (claim.ts): one statement claims many deliveries, one records many
 * attempts, and every row in a batch comes out as its own outcome says.
 */

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

/** A brand with `endpoints` endpoints (nothing listens: these tests never send) and one event to each. */
async function brandWithDeliveries(endpoints: number) {
  const brand = await createBrand(t.db);
  const key = (await createKey(t.db, brand.id, { mode: 'test' })).key;
  const ids: string[] = [];
  for (let i = 0; i < endpoints; i++) ids.push((await registerEndpoint(t, key, `http://127.0.0.1:9/hook${i}`, ['member.joined'])).id);
  await t.db.transaction((tx) => recordEvent(tx, { brandId: brand.id, mode: 'test', type: 'member.joined', data: { membershipId: 'mem_batch' } as never }));
  return { brandId: brand.id, endpointIds: ids };
}

const attempt = (responseCode: number | null, error: string | null = null) => ({
  attemptedAt: new Date(), durationMs: 7, responseCode, error, responseBody: responseCode === null ? null : `answer ${responseCode}`,
});
const outcome = (status: 'succeeded' | 'pending' | 'failed', extra: Partial<claims.Outcome> = {}): claims.Outcome => ({
  status, nextAttemptAt: status === 'pending' ? new Date(Date.now() + 60_000) : null, failureReason: null, disableReason: null,
  failingCutoff: new Date(Date.now() - 86_400_000), ...extra,
});

/** A plan node of EXPLAIN (ANALYZE, FORMAT JSON). */
interface PlanNode {
  'Relation Name'?: string; 'Actual Rows': number; 'Actual Loops': number; 'Rows Removed by Filter'?: number;
  'Shared Hit Blocks': number; 'Shared Read Blocks': number; Plans?: PlanNode[];
}

/** Rows the plan's scans of webhook_queue read: those they returned and those their filters dropped. */
const queueRowsRead = (node: PlanNode): number => (node['Relation Name'] === 'webhook_queue'
  ? (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) * node['Actual Loops'] : 0)
  + (node.Plans ?? []).reduce((n, child) => n + queueRowsRead(child), 0);

/**
 * A handle over `tx` that runs `brandId`'s claim statement as EXPLAIN (ANALYZE, BUFFERS), which
 * runs it, hands its plan to `seen` and answers with what it leased; every other statement runs
 * as it is (the pick also finds brands earlier tests left due). The caller rolls `tx` back.
 */
const explainingClaims = (tx: Queryable, brandId: string, seen: (plan: PlanNode) => void): Queryable => ({
  async query<R>(sql: string, params: unknown[] = []) {
    if (!sql.includes('WITH candidates AS') || params[0] !== brandId) return tx.query<R>(sql, params);
    const [row] = await tx.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, params);
    seen(row['QUERY PLAN'][0].Plan);
    return tx.query<R>(`SELECT brand_id, delivery_id AS id, endpoint_id, event_id, event_created_at, delivery_created_at, attempts, locked_by AS claim
      FROM webhook_queue WHERE brand_id = $1 AND locked_by = $2`, [brandId, params[3]]);
  },
  exec: (sql) => tx.exec(sql),
});

/** A brand with one endpoint (nothing listens) and `backlog` deliveries queued to it. */
async function brandWithBacklog(backlog: number, path: string) {
  const brand = await createBrand(t.db);
  const key = (await createKey(t.db, brand.id, { mode: 'test' })).key;
  const endpointId = (await registerEndpoint(t, key, `http://127.0.0.1:9/${path}`, ['member.joined'])).id;
  await t.db.transaction((tx) => recordEvents(tx, Array.from({ length: backlog }, (_, i) => (
    { brandId: brand.id, mode: 'test' as const, type: 'member.joined' as const, data: { membershipId: `mem_${path}_${i}` } as never }))));
  return { brandId: brand.id, key, endpointId };
}

/** A claim of `brandId`'s deliveries explained (explainingClaims), in a transaction rolled back after: what it claimed. */
async function claimExplained(brandId: string, caps: claims.ClaimCaps, seen: (plan: PlanNode) => void) {
  const claimed = await t.db.transaction(async (tx) => {
    const got = await claims.claimDue(explainingClaims(tx, brandId, seen), 100, 10_000, `explained-${brandId}`, caps, [brandId]);
    throw Object.assign(new Error('roll back'), { got });
  }).catch((err: { got?: claims.ClaimedDelivery[] }) => err.got);
  return claimed?.filter((d) => d.brand_id === brandId);
}

const bufferCount = (plan: PlanNode) => plan['Shared Hit Blocks'] + plan['Shared Read Blocks'];

/** Caps as a worker holding `cap` (its whole allowance) for the named endpoints and brands, nothing else. */
const full = (busy: { endpoints: string[]; brands: string[] }, cap = 16): claims.ClaimCaps => ({
  heldByEndpoint: new Map(busy.endpoints.map((id) => [id, cap])), heldByBrand: new Map(busy.brands.map((id) => [id, cap])),
  perEndpoint: cap, perBrand: cap,
});

describe('batched claims and attempt records', () => {
  it('records a batch where one receiver failed and others answered, each as its own outcome says', async () => {
    const { brandId, endpointIds } = await brandWithDeliveries(4);
    const claimed = (await claims.claimDue(t.db, 100, 10_000, 'batch-test', full({ endpoints: [], brands: [] }))).filter((d) => d.brand_id === brandId);
    assert.equal(claimed.length, 4, 'one statement claims every due delivery of the brand');
    const byEndpoint = new Map(claimed.map((d) => [d.endpoint_id, d]));
    const [ok, retry, gone, lost] = endpointIds.map((id) => byEndpoint.get(id)!);
    // `lost`: its lease lapsed and another worker claimed it meanwhile; this attempt must not count.
    await t.db.query('UPDATE webhook_queue SET locked_by = $3 WHERE brand_id = $1 AND delivery_id = $2', [brandId, lost.id, 'another-worker']);
    const recorded = await claims.recordAttempts(t.db, [
      { delivery: ok, attempt: attempt(200), outcome: outcome('succeeded') },
      { delivery: retry, attempt: attempt(null, 'network error: ECONNREFUSED'), outcome: outcome('pending') },
      { delivery: gone, attempt: attempt(410), outcome: outcome('failed', { failureReason: 'endpoint_gone', disableReason: 'gone: the endpoint answered 410 Gone' }) },
      { delivery: lost, attempt: attempt(200), outcome: outcome('succeeded') },
    ]);
    assert.deepEqual([...recorded].sort(), [ok.id, retry.id, gone.id].sort());

    const rows = new Map((await t.db.query<{ id: string; status: string; attempts: number; response_code: number | null; failure_reason: string | null; next_attempt_at: Date | null; delivered_at: Date | null; locked_by: string | null }>(
      `SELECT d.id, d.status, coalesce(q.attempts, d.attempts) AS attempts, coalesce(q.response_code, d.response_code) AS response_code, d.failure_reason,
        q.next_attempt_at, d.delivered_at, q.locked_by
       FROM webhook_deliveries d LEFT JOIN webhook_queue q ON q.brand_id = d.brand_id AND q.delivery_id = d.id WHERE d.brand_id = $1`, [brandId])).map((r) => [r.id, r]));
    assert.deepEqual({ ...rows.get(ok.id), next_attempt_at: null, delivered_at: null }, { id: ok.id, status: 'succeeded', attempts: 1, response_code: 200, failure_reason: null, next_attempt_at: null, delivered_at: null, locked_by: null });
    assert.ok(rows.get(ok.id)!.delivered_at);
    assert.equal(rows.get(retry.id)!.status, 'pending');
    assert.equal(rows.get(retry.id)!.attempts, 1);
    assert.equal(rows.get(retry.id)!.response_code, null);
    assert.ok(rows.get(retry.id)!.next_attempt_at!.getTime() > Date.now() + 30_000, 'waits for its retry');
    assert.equal(rows.get(retry.id)!.delivered_at, null);
    assert.equal(rows.get(retry.id)!.locked_by, null, 'released for the retry');
    assert.deepEqual([rows.get(gone.id)!.status, rows.get(gone.id)!.failure_reason, rows.get(gone.id)!.response_code], ['failed', 'endpoint_gone', 410]);
    assert.deepEqual([rows.get(lost.id)!.status, rows.get(lost.id)!.attempts, rows.get(lost.id)!.locked_by], ['pending', 0, 'another-worker'], 'the other worker\'s claim is left alone');

    const log = await t.db.query<{ delivery_id: string; number: number; response_code: number | null; error: string | null; response_body: string | null; duration_ms: number }>(
      'SELECT delivery_id, number, response_code, error, response_body, duration_ms FROM webhook_attempts WHERE brand_id = $1 ORDER BY delivery_id', [brandId]);
    assert.deepEqual(log.map((a) => a.delivery_id).sort(), [ok.id, retry.id, gone.id].sort(), 'one attempt each, none for the lost claim');
    const entry = new Map(log.map((a) => [a.delivery_id, a]));
    assert.deepEqual(entry.get(ok.id), { delivery_id: ok.id, number: 1, response_code: 200, error: null, response_body: 'answer 200', duration_ms: 7 });
    assert.deepEqual(entry.get(retry.id), { delivery_id: retry.id, number: 1, response_code: null, error: 'network error: ECONNREFUSED', response_body: null, duration_ms: 7 });
    assert.equal(entry.get(gone.id)!.response_code, 410);

    const endpoints = new Map((await t.db.query<{ id: string; status: string; disabled_reason: string | null; failing_since: Date | null }>(
      'SELECT id, status, disabled_reason, failing_since FROM webhook_endpoints WHERE brand_id = $1', [brandId])).map((e) => [e.id, e]));
    assert.equal(endpoints.get(ok.endpoint_id)!.status, 'active');
    assert.equal(endpoints.get(ok.endpoint_id)!.failing_since, null);
    assert.ok(endpoints.get(retry.endpoint_id)!.failing_since, 'the failing endpoint starts its streak');
    assert.equal(endpoints.get(retry.endpoint_id)!.status, 'active');
    assert.deepEqual([endpoints.get(gone.endpoint_id)!.status, endpoints.get(gone.endpoint_id)!.disabled_reason], ['disabled', 'gone: the endpoint answered 410 Gone']);
  });

  it('claims nothing of a busy endpoint or brand, and gives claims back for another worker', async () => {
    const { brandId, endpointIds } = await brandWithDeliveries(3);
    const mine = (rows: claims.ClaimedDelivery[]) => rows.filter((d) => d.brand_id === brandId);
    assert.deepEqual(mine(await claims.claimDue(t.db, 100, 10_000, 'busy-test', full({ endpoints: [], brands: [brandId] }))), []);
    const first = mine(await claims.claimDue(t.db, 100, 10_000, 'busy-test', full({ endpoints: [endpointIds[0]], brands: [] })));
    assert.deepEqual(first.map((d) => d.endpoint_id).sort(), endpointIds.slice(1).sort());
    assert.deepEqual(mine(await claims.claimDue(t.db, 100, 10_000, 'busy-test-2', full({ endpoints: [], brands: [] }))).map((d) => d.endpoint_id), [endpointIds[0]], 'claimed ones are not claimed twice');
    await claims.releaseClaims(t.db, first);
    assert.deepEqual(mine(await claims.claimDue(t.db, 100, 10_000, 'busy-test-3', full({ endpoints: [], brands: [] }))).map((d) => d.endpoint_id).sort(), endpointIds.slice(1).sort());
  });

  it('claims a brand the worker knows to be due without its pick, within the same caps', async () => {
    const { brandId, endpointIds } = await brandWithDeliveries(2);
    // Its due row already taken (as by a claim that left work behind for a capped endpoint): the
    // pick cannot find the brand, and the worker names it because that endpoint freed a slot.
    await t.db.query('DELETE FROM webhook_due_brands WHERE brand_id = $1', [brandId]);
    const mine = (rows: claims.ClaimedDelivery[]) => rows.filter((d) => d.brand_id === brandId);
    assert.deepEqual(mine(await claims.claimDue(t.db, 100, 10_000, 'known-1', full({ endpoints: [], brands: [] }))), [], 'the pick does not find it');
    assert.deepEqual(mine(await claims.claimDue(t.db, 100, 10_000, 'known-2', full({ endpoints: [], brands: [brandId] }), [brandId])), [], 'a brand at its cap is not claimed');
    const claimed = mine(await claims.claimDue(t.db, 100, 10_000, 'known-3', full({ endpoints: [endpointIds[0]], brands: [] }), [brandId]));
    assert.deepEqual(claimed.map((d) => d.endpoint_id), [endpointIds[1]], 'an endpoint at its cap is left out');
  });

  it('takes only as many of an endpoint\'s and a brand\'s due deliveries as the worker may still hold', async () => {
    const brand = await createBrand(t.db);
    const key = (await createKey(t.db, brand.id, { mode: 'test' })).key;
    const a = (await registerEndpoint(t, key, 'http://127.0.0.1:9/a', ['member.joined'])).id;
    const b = (await registerEndpoint(t, key, 'http://127.0.0.1:9/b', ['member.joined'])).id;
    await t.db.transaction(async (tx) => {
      for (let i = 0; i < 10; i++) await recordEvent(tx, { brandId: brand.id, mode: 'test', type: 'member.joined', data: { membershipId: `mem_fit_${i}` } as never });
    });
    const mine = (rows: claims.ClaimedDelivery[]) => rows.filter((d) => d.brand_id === brand.id);
    const caps = (heldA: number, heldBrand: number): claims.ClaimCaps => ({
      heldByEndpoint: new Map([[a, heldA]]), heldByBrand: new Map([[brand.id, heldBrand]]), perEndpoint: 4, perBrand: 7,
    });
    // Endpoint a holds 3 of its 4: one more of a; b has room for 4; the brand 7 - 2 = 5 in all.
    const first = mine(await claims.claimDue(t.db, 100, 10_000, 'fit-1', caps(3, 2)));
    const count = (rows: claims.ClaimedDelivery[], id: string) => rows.filter((d) => d.endpoint_id === id).length;
    assert.deepEqual([count(first, a), count(first, b), first.length], [1, 4, 5]);
    const left = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM webhook_queue WHERE brand_id = $1 AND locked_by IS NULL', [brand.id]);
    assert.equal(left[0].n, 15, 'nothing beyond the caps was claimed and given back');
  });
  it('reads none of a brand\'s backlog while its every endpoint is at its cap', async () => {
    const { brandId, endpointId } = await brandWithBacklog(2000, 'capped');
    const caps: claims.ClaimCaps = { heldByEndpoint: new Map([[endpointId, 4]]), heldByBrand: new Map([[brandId, 4]]), perEndpoint: 4, perBrand: 100 };
    let buffers = -1;
    assert.deepEqual(await claimExplained(brandId, caps, (plan) => { buffers = bufferCount(plan); }), []);
    assert.ok(buffers >= 0 && buffers < 40, `${buffers} buffers to claim nothing of 2,000 queued`);
  });
  it('reaches another endpoint\'s delivery past the backlog of one at its cap', async () => {
    // One receiver slow (its endpoint at its cap, 2,000 due ahead), another fast: a claim for the
    // fast one walked the slow one's whole backlog first, at every claim while the slow one's slots were full.
    const { brandId, key, endpointId: slow } = await brandWithBacklog(2000, 'slow');
    const fast = (await registerEndpoint(t, key, 'http://127.0.0.1:9/fast', ['member.joined'])).id;
    await t.db.transaction((tx) => recordEvent(tx, { brandId, mode: 'test', type: 'member.joined', data: { membershipId: 'mem_fast' } as never }));
    const caps: claims.ClaimCaps = { heldByEndpoint: new Map([[slow, 4]]), heldByBrand: new Map([[brandId, 4]]), perEndpoint: 4, perBrand: 100 };
    let read = -1;
    const claimed = await claimExplained(brandId, caps, (plan) => { read = queueRowsRead(plan); });
    assert.deepEqual(claimed?.map((d) => d.endpoint_id), [fast], 'the fast endpoint\'s delivery, none of the capped one\'s');
    assert.ok(read > 0 && read < 100, `${read} queue rows read to claim it past 2,000 queued for the capped endpoint`);
  });
});

describe('the worker\'s queue handle', () => {
  it('walks a brand\'s due rows in order and stops, however stale the queue\'s statistics', async () => {
    // The queue analyzed before a burst lands in it: the planner takes the brand for a sliver of
    // the queue, and without queue-plans.ts would read all of its due rows in a bitmap scan.
    await t.db.exec('ANALYZE webhook_queue');
    const { brandId } = await brandWithBacklog(3000, 'burst');
    const caps: claims.ClaimCaps = { heldByEndpoint: new Map(), heldByBrand: new Map(), perEndpoint: 100, perBrand: 100 };
    let buffers = -1;
    // The worker's handle, over a database whose every transaction explains this brand's claim and rolls back.
    const explained = queueStatements({
      ...t.db,
      transaction: <T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions) => t.db.transaction(async (tx) => {
        await fn(explainingClaims(tx, brandId, (plan) => { buffers = bufferCount(plan); }));
        throw new Error('roll back');
      }, options),
    });
    await claims.claimDue(explained, 8, 10_000, 'burst', caps, [brandId]).catch(() => {});
    assert.ok(buffers > 0 && buffers < 120, `${buffers} buffers to claim 8 of 3,000 queued`);
  });
});
