import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { recordEvents, type NewEvent } from '../events/service.ts';
import pino from 'pino';
import { openPostgres, type Queryable } from '../db/client.ts';
import { startWorker } from '../worker/loop.ts';
import { deliverySource } from './delivery-source.ts';
import * as claims from './claim.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { testDbKind } from '../testing/db.ts';
import { createBrand, createKey } from '../testing/factories.ts';
import { startWorkerProcess, urlWithSchema } from '../testing/processes.ts';
import { registerEndpoint, startReceiver, type Receiver } from '../testing/receiver.ts';
import { until } from '../testing/until.ts';

/**
 * A backlog the size a creator reaches on day one (issue 20): tens of thousands of pending
 * deliveries, some of them to an endpoint that keeps failing, drained by two worker processes.
 * Recording a batch's outcome must cost the batch, not the backlog: before the fix, the order
 * wake-up scanned the pending set once per finished delivery, batches hit the statement timeout,
 * their claims lapsed and deliveries went out twice.
 */

const skip = testDbKind !== 'postgres' && 'needs PostgreSQL (TEST_DATABASE_URL): two worker processes share one database';
let t: TestApp;
const cleanups: (() => Promise<unknown>)[] = [];
before(async () => { t = await startTestApp(); });
after(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
  await t.close();
});

async function receiver(status = 200, delayMs = 0) {
  const rx = await startReceiver({ respond: () => ({ status, ...(delayMs ? { delayMs } : {}) }) });
  cleanups.push(() => rx.close());
  return rx;
}

/** Records `count` member events in import-sized transactions (recordEvents: the imports' bulk path). */
async function record(brandId: string, count: number, event: (i: number) => Pick<NewEvent, 'type' | 'data'>) {
  for (let start = 0; start < count; start += 1000) {
    const batch = Array.from({ length: Math.min(1000, count - start) }, (_, k) => ({ brandId, mode: 'test' as const, ...event(start + k) }));
    await t.db.transaction((tx) => recordEvents(tx, batch as NewEvent[]));
  }
}

const member = (type: 'member.joined' | 'member.removed', membershipId: string, n: number) =>
  ({ type, data: { membershipId, n } as never });

describe('a backlog of 30,000 and more pending deliveries', { skip }, () => {
  it('two worker processes deliver every one once, each object in order, with nothing failing to record', async () => {
    // Brand one: an endpoint that answers 503 (its deliveries stay in retry, as in the report),
    // then 30,000 members imported to a healthy endpoint: every tenth member joins and leaves, so
    // its two deliveries must go out in order.
    const one = await createBrand(t.db);
    const oneKey = (await createKey(t.db, one.id, { mode: 'test' })).key;
    const failing = await receiver(503);
    await registerEndpoint(t, oneKey, failing.url, ['member.removed']);
    const healthy = await receiver();
    await registerEndpoint(t, oneKey, healthy.url, ['member.joined', 'member.removed']);
    // Brand two: three endpoints, 4,000 events each.
    const two = await createBrand(t.db);
    const twoKey = (await createKey(t.db, two.id, { mode: 'test' })).key;
    const several: Receiver[] = [];
    for (let i = 0; i < 3; i++) {
      const rx = await receiver();
      await registerEndpoint(t, twoKey, rx.url, ['member.joined']);
      several.push(rx);
    }

    // Earlier traffic, delivered, then statistics taken and not again before the burst (as when
    // autovacuum has not caught up): the planner then believes the pending set is tiny, which is
    // what made it scan all of it once per finished delivery. The queue (migration 038) is at its
    // worst: analyzed once the earlier traffic drained, it has pages and no rows, so the planner
    // takes any number of queued rows for one (docs/performance.md, "The queue apart from the log").
    // webhook_deliveries is partitioned by day (migration 037): its setting is each day's partition's.
    const days = (await t.db.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'webhook_deliveries'::regclass`)).map((r) => r.name);
    for (const table of [...days, 'webhook_queue']) {
      await t.db.query(`ALTER TABLE ${table} SET (autovacuum_enabled = false)`);
      cleanups.push(() => t.db.query(`ALTER TABLE ${table} RESET (autovacuum_enabled)`));
    }
    await record(two.id, 3000, (i) => member('member.joined', `mem_earlier_${i}`, 0));
    await t.startWorker();
    await until('the earlier traffic to be delivered', async () => several.every((rx) => rx.received.length >= 3000), 120_000);
    await t.worker!.stop();
    t.worker = undefined;
    for (const rx of several) rx.received.length = 0;
    await t.db.query('ANALYZE webhook_deliveries');
    await t.db.query('ANALYZE webhook_queue');
    const [stats] = await t.db.query<{ reltuples: number; relpages: number }>(
      `SELECT reltuples, relpages FROM pg_class WHERE oid = 'webhook_queue'::regclass`);
    assert.ok(stats.reltuples === 0 && stats.relpages > 0, `the queue is analyzed empty over pages it still has: ${JSON.stringify(stats)}`);
    const members = 30_000;
    await record(one.id, members, (i) => member('member.joined', `mem_${i}`, 0));
    await record(one.id, members / 10, (i) => member('member.removed', `mem_${i * 10}`, 1));
    await record(two.id, 4000, (i) => member('member.joined', `mem_two_${i}`, 0));
    const expectedHealthy = members + members / 10;
    const [pending] = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending' AND brand_id = ANY ($1)`, [[one.id, two.id]]);
    assert.equal(pending.n, expectedHealthy + members / 10 + 3 * 4000, 'the backlog is in place before any worker runs');

    // Recording a batch's outcome costs the batch: its plan's buffers per finished delivery stay
    // small at this backlog (about 30 when fixed; the whole pending set, tens of thousands, before).
    const batch = (await claims.claimDue(t.db, 128, 60_000, 'plan-check', {
      heldByEndpoint: new Map(), heldByBrand: new Map(), perEndpoint: 1000, perBrand: 1000,
    })).filter((d) => d.brand_id === one.id);
    assert.ok(batch.length >= 100, `claimed ${batch.length}`);
    const buffers = await t.db.transaction(async (tx) => {
      let blocks = 0;
      const explaining: Queryable = {
        async query<R>(sql: string, params?: unknown[]) {
          const [row] = await tx.query<{ 'QUERY PLAN': [{ Plan: Record<string, number> }] }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, params);
          const plan = row['QUERY PLAN'][0].Plan;
          blocks = plan['Shared Hit Blocks'] + plan['Shared Read Blocks'];
          return [] as R[];
        },
        exec: (sql) => tx.exec(sql),
      };
      const now = new Date();
      await claims.recordAttempts(explaining, batch.map((delivery) => ({
        delivery,
        attempt: { attemptedAt: now, durationMs: 1, responseCode: 200, error: null, responseBody: null },
        outcome: { status: 'succeeded' as const, nextAttemptAt: null, failureReason: null, disableReason: null, failingCutoff: new Date(0) },
      })));
      throw Object.assign(new Error('roll back the explained batch'), { blocks });
    }).catch((err: { blocks?: number }) => err.blocks);
    assert.ok(buffers !== undefined && buffers / batch.length < 150, `${buffers} buffers for ${batch.length} finished deliveries`);
    await claims.releaseClaims(t.db, batch);

    const env = {
      DATABASE_URL: urlWithSchema(t.url!, t.searchPath!),
      WEBHOOK_SECRET_KEY: t.config.webhooks.secretKey!.toString('base64'),
      WEBHOOK_RETRY_SCHEDULE: '2s,2s,2s,2s,2s,2s',
    };
    const workers = await Promise.all([startWorkerProcess(env), startWorkerProcess(env)]);
    cleanups.push(() => Promise.all(workers.map(async (w) => { if (w.exitCode === null) { w.kill('SIGKILL'); await once(w, 'exit'); } })));

    const total = () => healthy.received.length + several.reduce((n, rx) => n + rx.received.length, 0);
    await until('the healthy endpoints to receive every delivery', async () => total() >= expectedHealthy + 3 * 4000, 240_000);
    // Whatever was still in flight lands; then nothing more may arrive (a duplicate would).
    await new Promise((r) => setTimeout(r, 1000));

    for (const [name, rx, expected] of [['healthy', healthy, expectedHealthy], ...several.map((rx, i) => [`endpoint ${i}`, rx, 4000] as const)] as const) {
      const ids = rx.received.map((d) => `${d.headers['webhook-id']}`);
      assert.equal(new Set(ids).size, expected, `${name}: every delivery arrived`);
      assert.equal(ids.length, expected, `${name}: none arrived twice`);
    }
    // Per-object order: a member's removal never reached the healthy endpoint before its joining.
    const joinedAt = new Map<string, number>();
    for (const d of healthy.received) {
      if (d.json.type === 'member.joined') joinedAt.set(d.json.data.membershipId, d.n);
      else assert.ok((joinedAt.get(d.json.data.membershipId) ?? Infinity) < d.n, `${d.json.data.membershipId}: removed after joined`);
    }
    const succeeded = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_deliveries w JOIN webhook_endpoints e ON e.brand_id = w.brand_id AND e.id = w.endpoint_id
       WHERE w.brand_id = ANY ($1) AND w.status = 'succeeded'`, [[one.id, two.id]]);
    assert.equal(succeeded[0].n, expectedHealthy + 3 * 4000 + 3 * 3000, 'every delivery to a healthy endpoint (the earlier traffic\'s too) is recorded as succeeded');
    assert.ok(failing.received.length > 0, 'the failing endpoint was tried meanwhile');
    for (const w of workers) {
      assert.doesNotMatch(w.output(), /failed to record|claim expired before its attempt was recorded|smaller pieces/, 'no batch of outcomes failed to record');
    }

    // SIGTERM with a backlog (the failing endpoint's retries): the worker stops within
    // WEBHOOK_TIMEOUT (15 s by default) + 5 s.
    const started = Date.now();
    workers[0].kill('SIGTERM');
    await once(workers[0], 'exit');
    assert.ok(Date.now() - started < 20_000, `stopped in ${Date.now() - started} ms`);
    // The other worker stops too: left running, it would claim the next test's deliveries
    // (with its own 30 s statement timeout) beside the worker that test watches.
    if (workers[1].exitCode === null) {
      workers[1].kill('SIGTERM');
      await once(workers[1], 'exit');
    }
  });

  it('a batch whose statement times out is written again one attempt at a time: nothing else is lost or sent twice', async () => {
    // Endpoint X's receiver fails, so recording its attempts updates X's failure streak; X's row
    // is locked by another transaction, so any statement holding an X attempt waits until the
    // worker's 1 s statement timeout. Y's attempts ride in the same batches: Y's receiver answers
    // 200 ms after X's, while the first write holding an X attempt waits out its timeout, so they
    // queue into the next batch with X's other attempt (were both of X's attempts each written
    // alone, no batch would be written again in pieces, whatever the order of the answers).
    const brand = await createBrand(t.db);
    const key = (await createKey(t.db, brand.id, { mode: 'test' })).key;
    const x = await receiver(500);
    const y = await receiver(200, 200);
    const xId = (await registerEndpoint(t, key, x.url, ['member.removed'])).id;
    await registerEndpoint(t, key, y.url, ['member.joined']);
    const lock = openPostgres(t.url!, { searchPath: t.searchPath, max: 1 });
    cleanups.push(() => lock.close());
    await lock.query('BEGIN');
    await lock.query('SELECT 1 FROM webhook_endpoints WHERE brand_id = $1 AND id = $2 FOR UPDATE', [brand.id, xId]);

    const db = openPostgres(t.url!, { searchPath: t.searchPath, statementTimeoutMs: 1000 });
    const lines: string[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => { lines.push(line); } });
    const settings = { ...t.deps.config.webhooks, claimLeaseMs: 6000, timeoutMs: 2000, retryScheduleMs: [60_000] };
    const worker = await startWorker(db, [deliverySource({ ...t.deps, db, log, config: { ...t.deps.config, webhooks: settings } })], log, 25);
    cleanups.push(async () => { await worker.stop(); await db.close(); });

    await t.db.transaction((tx) => recordEvents(tx, [
      ...Array.from({ length: 30 }, (_, i) => ({ brandId: brand.id, mode: 'test' as const, ...member('member.joined', `mem_y_${i}`, 0) })),
      ...Array.from({ length: 2 }, (_, i) => ({ brandId: brand.id, mode: 'test' as const, ...member('member.removed', `mem_x_${i}`, 0) })),
    ] as NewEvent[]));
    const succeeded = async () => (await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE brand_id = $1 AND status = 'succeeded'`, [brand.id]))[0].n;
    await until('Y\'s 30 deliveries to be recorded', async () => (await succeeded()) === 30, 60_000);
    assert.ok(lines.some((l) => /smaller pieces/.test(l)), 'one warning says the batch was written again in pieces');
    await lock.query('COMMIT');

    // X's attempts could not be recorded while its row was locked: their claims lapse and they go
    // out again (at least once); Y's were recorded in the smaller pieces and never went out again.
    await until('X\'s attempts to be recorded', async () => (await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_deliveries d LEFT JOIN webhook_queue q ON q.brand_id = d.brand_id AND q.delivery_id = d.id
       WHERE d.brand_id = $1 AND d.endpoint_id = $2 AND coalesce(q.attempts, d.attempts) > 0`, [brand.id, xId]))[0].n === 2, 60_000);
    const ids = y.received.map((d) => `${d.headers['webhook-id']}`);
    assert.equal(ids.length, 30, 'no Y delivery was sent twice');
    assert.equal(new Set(ids).size, 30);
    assert.ok(x.received.length >= 2);
  });
});
