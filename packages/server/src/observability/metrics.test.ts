import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../app.ts';
import { loadCatalog } from '../catalog/load.ts';
import type { App } from '../http/app-type.ts';
import { hubWithFreeTier, people, queueForTest } from '../imports/test-support.ts';
import { buyPlan, recurringBrand } from '../testing/subscriptions.ts';
import type { InjectOptions } from 'fastify';
import { testDeps, testWebhookSettings, type TestApp } from '../testing/app.ts';
import { openTestDb, type TestDb } from '../testing/db.ts';
import { createBrand, createKey } from '../testing/factories.ts';
import { registerEndpoint, startReceiver, type Receiver } from '../testing/receiver.ts';
import { startWorker, type Worker } from '../worker/loop.ts';
import { workSources } from '../work-sources.ts';
import type { Deps } from '../deps.ts';
import { startMetricsServer, type MetricsServer } from './metrics-server.ts';
import { until } from '../testing/until.ts';

/**
 * GET /metrics as Prometheus sees it: the app and worker of one process with METRICS_PORT set,
 * scraped over HTTP from their own listener after real traffic, real deliveries to a real
 * receiver and a queued import; and the exposition checked by promtool when it is installed.
 */

let testDb: TestDb;
let deps: Deps;
let app: App;
let worker: Worker | undefined;
let metrics: MetricsServer;
const receivers: Receiver[] = [];

before(async () => {
  testDb = await openTestDb();
  deps = testDeps(testDb.db, {
    config: {
      observability: { metricsPort: 0, metricsHost: '127.0.0.1', serviceName: 'test' },
      // A failed attempt waits a minute for its retry: it stays pending, counted as failing, while the test looks.
      webhooks: { ...testWebhookSettings(), retryScheduleMs: [60_000] },
    },
  });
  app = await buildApp(deps);
  await app.ready();
  metrics = await startMetricsServer({ port: 0, host: '127.0.0.1', db: testDb.db, payoutBoundaries: deps.config.payouts.schedule, log: deps.log });
});
after(async () => {
  await worker?.stop();
  await metrics.close();
  await app.close();
  await Promise.all(receivers.map((r) => r.close()));
  await testDb.close();
});

async function scrape(path = '/metrics') {
  const res = await fetch(`http://127.0.0.1:${metrics.port}${path}`);
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

/** The value of one sample, by name and exact labels (in any order); undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const found = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.keys(found).length === Object.keys(labels).length && Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(m[3]);
  }
  return undefined;
}

const request = (key: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  app.inject({ method, url, payload, headers: { 'x-service-api': key } });

describe('GET /metrics', () => {
  let failing: { key: string; endpointId: string; rx: Receiver };
  let healthy: { key: string; rx: Receiver };

  before(async () => {
    const endpoint = async (status: number) => {
      const brand = await createBrand(testDb.db);
      const { key } = await createKey(testDb.db, brand.id, { mode: 'test' });
      const rx = await startReceiver({ respond: () => ({ status }) });
      receivers.push(rx);
      // registerEndpoint wants a TestApp; this app is built by hand (METRICS_PORT set), so only its request is lent.
      const lender = { request: ({ key: k, ...o }: InjectOptions & { key?: string }) => app.inject({ ...o, headers: { ...o.headers, 'x-service-api': k } }) };
      const ep = await registerEndpoint(lender as unknown as TestApp, key, rx.url, ['transaction.succeeded']);
      return { key, endpointId: ep.id as string, rx };
    };
    failing = await endpoint(500);
    healthy = await endpoint(200);
  });

  it('is not served on the public port', async () => {
    const res = await app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(res.statusCode, 404);
    const other = await scrape('/');
    assert.equal(other.status, 404);
  });

  it('counts requests under their route pattern and status, with a latency histogram', async () => {
    const before = await scrape();
    const products = (status: string) => sample(before.text, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/v1/products/:id', status_code: status }) ?? 0;
    const base404 = products('404');
    for (const id of ['prod_missing1', 'prod_missing2', 'prod_missing3']) {
      assert.equal((await request(healthy.key, 'GET', `/api/v1/products/${id}`)).statusCode, 404);
    }
    assert.equal((await request(healthy.key, 'GET', '/api/v1/products')).statusCode, 200);
    const after = await scrape();
    assert.equal(after.status, 200);
    assert.match(after.type ?? '', /^text\/plain; version=0\.0\.4/);
    // Three paths, one pattern: the label is the route, never the id.
    assert.equal(sample(after.text, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/v1/products/:id', status_code: '404' }), base404 + 3);
    assert.equal(sample(after.text, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/v1/products', status_code: '200' }), 1);
    assert.doesNotMatch(after.text, /prod_missing/);
    assert.equal(sample(after.text, 'http_request_duration_seconds_bucket', { method: 'GET', route: '/api/v1/products', status_code: '200', le: '+Inf' }), 1);
    assert.ok(sample(after.text, 'http_request_duration_seconds_sum', { method: 'GET', route: '/api/v1/products', status_code: '200' })! > 0);
    // An unknown path is one bounded label too.
    const unmatched = (text: string) => sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status_code: '404' }) ?? 0;
    const seen = unmatched(after.text);
    await app.inject({ method: 'GET', url: '/no/such/path/42' });
    await app.inject({ method: 'GET', url: '/no/such/path/43' });
    assert.equal(unmatched((await scrape()).text), seen + 2);
  });

  it('shows the deliveries the test queued as the queue depth, then their outcomes once the worker sends them', async () => {
    for (let i = 0; i < 3; i++) {
      assert.equal((await request(failing.key, 'POST', '/api/v1/webhooks/test', { eventType: 'transaction.succeeded' })).statusCode, 200);
    }
    assert.equal((await request(healthy.key, 'POST', '/api/v1/webhooks/test', { eventType: 'transaction.succeeded' })).statusCode, 200);
    const queued = (await scrape()).text;
    assert.equal(sample(queued, 'backlog_scrape_success'), 1);
    assert.equal(sample(queued, 'webhook_delivery_queue_depth'), 4);
    assert.equal(sample(queued, 'webhook_delivery_queue_due'), 4);
    assert.ok(sample(queued, 'webhook_delivery_oldest_due_age_seconds')! >= 0);

    worker = await startWorker(testDb.db, workSources(deps), deps.log, 25);
    await failing.rx.waitFor(3);
    await healthy.rx.waitFor(1);
    const sent = await until('the attempts to be recorded', async () => {
      const text = (await scrape()).text;
      // Every outcome recorded, the success too, and read back from the database: the receivers
      // have the requests before the worker commits what they answered, the four outcomes may
      // commit in any order, and a scrape reads the database before it reads this process's
      // counters, so one scrape can hold a counter that moved after its reads.
      return sample(text, 'webhook_deliveries_total', { outcome: 'retrying' }) === 3
        && sample(text, 'webhook_deliveries_total', { outcome: 'succeeded' }) === 1
        && sample(text, 'webhook_delivery_queue_due') === 0
        && sample(text, 'webhook_endpoint_failing_deliveries', { endpoint_id: failing.endpointId }) === 3 && text;
    });
    // The failed ones wait a minute for their retry: still pending, no longer due.
    assert.equal(sample(sent, 'webhook_delivery_queue_depth'), 3);
    assert.equal(sample(sent, 'webhook_delivery_oldest_due_age_seconds'), 0);
    assert.equal(sample(sent, 'webhook_endpoint_failing_deliveries', { endpoint_id: failing.endpointId }), 3);
    assert.equal(sample(sent, 'webhook_delivery_duration_seconds_count', { outcome: 'retrying' }), 3);
  });

  it('shows an import waiting for the worker as backlog', async () => {
    await worker?.stop();
    worker = undefined;
    const brand = await createBrand(testDb.db);
    const ids = await loadCatalog(testDb.db, brand.id, hubWithFreeTier);
    await queueForTest(testDb.db, brand.id, 'test', ids.h, people(7));
    const text = (await scrape()).text;
    assert.equal(sample(text, 'imports_unfinished'), 1);
    assert.equal(sample(text, 'import_records_pending'), 7);
    // Nothing is due for renewal or payout here: present, and zero.
    assert.equal(sample(text, 'subscription_renewals_due'), 0);
    assert.equal(sample(text, 'subscription_renewal_lag_seconds'), 0);
    assert.equal(sample(text, 'payouts_due'), 0);
    assert.equal(sample(text, 'payout_lag_seconds'), 0);
  });

  it('shows a renewal and a payout run that are overdue while no worker takes them, and how late they are', async () => {
    assert.equal(worker, undefined, 'the worker was stopped by the test before');
    const lender = {
      app, db: testDb.db,
      request: ({ key: k, ...o }: InjectOptions & { key?: string }) => app.inject({ ...o, headers: { ...o.headers, 'x-service-api': k } }),
    } as unknown as TestApp;
    const b = await recurringBrand(lender);
    await buyPlan(lender, b, 'monthly');
    // As if the worker had been away: the renewal fell due 90 s ago, and the balance has waited
    // since two days ago for its (daily) payout run.
    await testDb.db.query(`UPDATE subscriptions SET due_at = now() - interval '90 seconds' WHERE brand_id = $1`, [b.brandId]);
    await testDb.db.query(`UPDATE payout_schedules SET period_start = now() - interval '2 days' WHERE brand_id = $1`, [b.brandId]);
    const text = (await scrape()).text;
    assert.equal(sample(text, 'subscription_renewals_due'), 1);
    const renewalLag = sample(text, 'subscription_renewal_lag_seconds')!;
    assert.ok(renewalLag >= 90 && renewalLag < 150, `renewal lag ${renewalLag}`);
    assert.equal(sample(text, 'payouts_due'), 1);
    const payoutLag = sample(text, 'payout_lag_seconds')!;
    // Due since the first midnight after two days ago: between one and two days late.
    assert.ok(payoutLag > 86_400 && payoutLag <= 2 * 86_400, `payout lag ${payoutLag}`);
  });

  it('has the process figures: event-loop lag and, on PostgreSQL, the pool', async () => {
    const text = (await scrape()).text;
    assert.ok(sample(text, 'nodejs_eventloop_lag_seconds')! >= 0);
    assert.ok(sample(text, 'process_resident_memory_bytes')! > 0);
    if (testDb.db.kind === 'postgres') {
      assert.equal(sample(text, 'db_pool_max_connections'), 10);
      assert.ok(sample(text, 'db_pool_connections', { state: 'idle' })! >= 1);
      assert.equal(sample(text, 'db_pool_waiting_requests'), 0);
    } else {
      assert.equal(sample(text, 'db_pool_max_connections'), undefined, 'PGlite has no pool');
    }
  });

  it('passes promtool check metrics', async (t) => {
    const which = spawnSync('promtool', ['--version']);
    if (which.error) {
      t.skip('promtool is not installed: apt-get install prometheus (Debian package prometheus) to check the exposition');
      return;
    }
    const { text } = await scrape();
    const check = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    assert.equal(check.status, 0, `promtool check metrics found problems:\n${check.stdout}${check.stderr}`);
  });
});
