import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { openPostgres, type Db } from '../db/client.ts';
import { recordEvent } from '../events/service.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { testDbKind } from '../testing/db.ts';
import { createBrand, createKey } from '../testing/factories.ts';
import { serverRoot, urlWithSchema } from '../testing/processes.ts';
import { registerEndpoint, startReceiver, type Receiver } from '../testing/receiver.ts';
import { startWorker } from '../worker/loop.ts';
import { deliverySource } from './delivery-source.ts';
import { until } from '../testing/until.ts';

let t: TestApp;
const cleanups: (() => Promise<unknown>)[] = [];
// A generous timeout: on PGlite the database shares this thread with the receivers, and a
// starved receiver must not turn into a timeout and a (legitimate) retry.
before(async () => { t = await startTestApp({ webhooks: { claimLeaseMs: 8000, timeoutMs: 5000 } }); });
after(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
  await t.close();
});

async function brandWithEndpoint(rx: Receiver) {
  const brand = await createBrand(t.db);
  const key = await createKey(t.db, brand.id, { mode: 'test' });
  const ep = await registerEndpoint(t, key.key, rx.url, ['member.joined']);
  rx.secret = ep.signingSecret;
  return { brandId: brand.id, key: key.key, ep };
}

async function record(brandId: string, n: number) {
  await t.db.transaction(async (tx) => {
    for (let i = 0; i < n; i++) await recordEvent(tx, { brandId, mode: 'test', type: 'member.joined', data: { membershipId: `mem_${i}`, n: i } as never });
  });
}

const counts = async (brandId: string) => (await t.db.query<{ status: string; n: number; attempts: number; claimed: number }>(
  `SELECT d.status, count(*)::int AS n, sum(coalesce(q.attempts, d.attempts))::int AS attempts, count(q.locked_by)::int AS claimed
   FROM webhook_deliveries d LEFT JOIN webhook_queue q ON q.brand_id = d.brand_id AND q.delivery_id = d.id
   WHERE d.brand_id = $1 GROUP BY d.status`, [brandId]));

/** The worker as its own process (main.ts with ROLES=worker) on this test's PostgreSQL schema. */
async function workerProcess(extraEnv: Record<string, string> = {}): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [join(serverRoot, 'src/main.ts')], {
    env: {
      ...process.env,
      ROLES: 'worker',
      DATABASE_URL: urlWithSchema(t.url!, t.searchPath!),
      WEBHOOK_SECRET_KEY: t.config.webhooks.secretKey!.toString('base64'),
      WEBHOOK_TIMEOUT: '1s',
      WEBHOOK_CLAIM_LEASE: '1500ms',
      WEBHOOK_RETRY_SCHEDULE: '50ms,100ms,200ms',
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      LOG_LEVEL: 'info',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => { output += c; });
  child.stderr!.on('data', (c: Buffer) => { output += c; });
  cleanups.push(async () => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); });
  const deadline = Date.now() + 20_000;
  while (!output.includes('service started')) {
    if (child.exitCode !== null) throw new Error(`worker exited with ${child.exitCode}: ${output}`);
    if (Date.now() > deadline) throw new Error(`worker did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return { child, output: () => output };
}

describe('many workers, one database', () => {
  it('two workers racing over 1,000 deliveries send each exactly once', async () => {
    const rx = await startReceiver();
    cleanups.push(() => rx.close());
    const { brandId } = await brandWithEndpoint(rx);
    // A second worker with its own connection pool (on PGlite the same database handle).
    let db2: Db = t.db;
    if (testDbKind === 'postgres') db2 = openPostgres(t.url!, { searchPath: t.searchPath });
    const log = pino({ level: 'silent' });
    const second = await startWorker(db2, [deliverySource({ ...t.deps, db: db2, log })], log, 25);
    let stopped = false;
    const stopSecond = async () => {
      if (stopped) return;
      stopped = true;
      await second.stop();
      if (db2 !== t.db) await db2.close();
    };
    cleanups.push(stopSecond);
    await t.startWorker();
    await record(brandId, 1000);
    await rx.waitFor(1000, 60_000);
    await until('all recorded', async () => (await counts(brandId)).every((c) => c.status === 'succeeded' && c.claimed === 0));
    await new Promise((r) => setTimeout(r, 200));
    const ids = rx.received.map((r) => r.json.id);
    const outcomes = await t.db.query('SELECT error, response_code, count(*)::int AS n FROM webhook_attempts WHERE brand_id = $1 GROUP BY 1, 2', [brandId]);
    assert.equal(ids.length, 1000, `no delivery was sent twice; attempts: ${JSON.stringify(outcomes)}`);
    assert.equal(new Set(ids).size, 1000);
    assert.ok(rx.received.every((r) => r.verified));
    assert.deepEqual(await counts(brandId), [{ status: 'succeeded', n: 1000, attempts: 1000, claimed: 0 }]);
    // Stopped here, not only at the end: later tests count on no other worker in this process.
    await stopSecond();
  });

  it('a worker killed mid-delivery loses nothing: its claims expire and another worker sends them', { skip: testDbKind !== 'postgres' && 'needs PostgreSQL: embedded mode (PGlite) is one process, so there is no second worker process to kill' }, async () => {
    let hang = true;
    const rx = await startReceiver({ respond: () => (hang ? { hang: true } : { status: 200 }) });
    cleanups.push(() => rx.close());
    const { brandId } = await brandWithEndpoint(rx);
    await t.worker?.stop();
    t.worker = undefined;
    // All 20 to the one endpoint in flight at once: this is about leases, not the per-endpoint cap.
    const victim = await workerProcess({ WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: '100', WEBHOOK_MAX_IN_FLIGHT_PER_BRAND: '100' });
    await record(brandId, 20);
    await rx.waitFor(20, 10_000); // all 20 in flight in the victim, none answered
    victim.child.kill('SIGKILL');
    await once(victim.child, 'exit');
    const claimed = (await counts(brandId)).reduce((s, c) => s + c.claimed, 0);
    assert.equal(claimed, 20, 'the dead worker still holds its claims');
    hang = false;
    const started = Date.now();
    await t.startWorker();
    await until('every delivery to succeed', async () => (await counts(brandId)).every((c) => c.status === 'succeeded' && c.claimed === 0));
    assert.ok(Date.now() - started >= 500, 'taken over only after the lease ran out');
    const ids = new Set(rx.received.map((r) => r.json.id));
    assert.equal(ids.size, 20, 'every event arrived');
    assert.ok(rx.received.length >= 40, 'each was sent again by the surviving worker (at least once)');
  });

  it('SIGTERM lets in-flight deliveries finish and leaves nothing claimed', { skip: testDbKind !== 'postgres' && 'needs PostgreSQL: a separate worker process cannot share an embedded database' }, async () => {
    const rx = await startReceiver({ respond: () => ({ status: 200, delayMs: 400 }) });
    cleanups.push(() => rx.close());
    const { brandId } = await brandWithEndpoint(rx);
    await t.worker?.stop();
    t.worker = undefined;
    const w = await workerProcess();
    await record(brandId, 10);
    await rx.waitFor(10, 10_000);
    w.child.kill('SIGTERM');
    const [code] = await once(w.child, 'exit');
    assert.equal(code, 0, w.output());
    assert.deepEqual(await counts(brandId), [{ status: 'succeeded', n: 10, attempts: 10, claimed: 0 }], w.output());
    assert.equal(rx.received.length, 10);
  });
});
